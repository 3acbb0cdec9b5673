import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlert } from '../../control-plane/src/domain/alerts/alerts.js';
import type { Harness } from '../support/harness.js';
import { startRoutingRig } from '../support/routing-rig.js';
import { waitFor } from '../support/wait.js';

/**
 * Per-user contact methods through the real API: each user manages their own, proves each with a
 * code sent through it (here: a real SMTP server), and an escalation step naming the user reaches
 * every verified method and no other.
 */
let rig: Awaited<ReturnType<typeof startRoutingRig>>;
let h: Harness;
beforeAll(async () => {
  rig = await startRoutingRig();
  ({ h } = rig);
});
afterAll(() => rig.close());

const BASE = '/users/me/contact-methods';

/** The code in the newest mail to `to`. */
const codeMailedTo = async (to: string, after = 0) => {
  const mail = await waitFor(
    async () => rig.smtp.mails.filter((m) => m.rcpt.includes(to))[after],
    (m) => m !== undefined,
    { what: `code mail to ${to}` },
  );
  return /verification code is (\d{6})/.exec(mail!.text ?? '')![1]!;
};

describe('contact methods', () => {
  it('each user lists, adds and removes their own; bad input names every bad field; nobody else sees them', async () => {
    const w = await h.workspace('cm-crud');
    const viewer = await w.userWithKey('viewer');
    const me = w.as(viewer.key);

    const empty = await me('GET', BASE);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ data: [], next_cursor: null, available_types: ['email', 'ntfy'] });

    const bad = await me('POST', BASE, {
      json: { type: 'ntfy', topic: 'no spaces', server_url: 'ftp://x', extra: 1 },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'extra',
      'server_url',
      'topic',
    ]);
    const badType = await me('POST', BASE, { json: { type: 'pager' } });
    expect(badType.status).toBe(422);
    expect(badType.body.error.details.map((d: { field: string }) => d.field)).toEqual(['type']);
    // A kind whose service this deployment has not set up.
    const noTwilio = await me('POST', BASE, { json: { type: 'sms', phone: '+14155550123' } });
    expect(noTwilio.status).toBe(422);
    expect(noTwilio.body.error.details).toEqual([
      { field: 'type', message: expect.stringContaining('LOOKOUT_TWILIO_ACCOUNT_SID') },
    ]);
    const own = await me('POST', BASE, { json: { type: 'email', address: viewer.user.email } });
    expect(own.status).toBe(422);
    expect(own.body.error.details[0].field).toBe('address');

    const ntfy = await me('POST', BASE, {
      json: { type: 'ntfy', topic: 'ops-phone', access_token: 'tk_secretsecret1234' },
    });
    expect(ntfy.status).toBe(201);
    expect(ntfy.body).toMatchObject({
      type: 'ntfy',
      server_url: 'https://ntfy.sh',
      topic: 'ops-phone',
      access_token: '••••1234',
      verified: false,
      verified_at: null,
      label: 'https://ntfy.sh/ops-phone',
    });
    expect(JSON.stringify(ntfy.body)).not.toContain('secretsecret');
    expect((await me('POST', BASE, { json: { type: 'ntfy', topic: 'ops-phone' } })).status).toBe(409);

    // Another user of the workspace, and another workspace, see nothing of it and cannot touch it.
    const admin = w.api;
    expect((await admin('GET', BASE)).body.data).toEqual([]);
    expect((await admin('DELETE', `${BASE}/${ntfy.body.id}`)).status).toBe(404);
    expect((await admin('POST', `${BASE}/${ntfy.body.id}/send-code`)).status).toBe(404);
    expect((await admin('POST', `${BASE}/${ntfy.body.id}/verify`, { json: { code: '123456' } })).status).toBe(
      404,
    );
    const other = await h.workspace('cm-crud-other');
    expect((await other.api('DELETE', `${BASE}/${ntfy.body.id}`)).status).toBe(404);

    expect((await me('GET', BASE)).body.data.map((m: { id: string }) => m.id)).toEqual([ntfy.body.id]);
    expect((await me('DELETE', `${BASE}/${ntfy.body.id}`)).status).toBe(204);
    expect((await me('GET', BASE)).body.data).toEqual([]);
  });

  it('verified by the code sent through the method: wrong codes refused and counted, a resend waits a minute', async () => {
    const w = await h.workspace('cm-verify');
    const member = await w.userWithKey('member');
    const me = w.as(member.key);
    const created = await me('POST', BASE, { json: { type: 'email', address: 'pager@cm-verify.test' } });
    expect(created.status).toBe(201);
    const id = created.body.id;

    expect(
      (await me('POST', `${BASE}/${id}/verify`, { json: { code: '000000' } })).body.error.details,
    ).toEqual([{ field: 'code', message: 'no code has been sent yet: send one first' }]);
    const sent = await me('POST', `${BASE}/${id}/send-code`);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ sent: true, error: null, contact_method: { id, verified: false } });
    expect(sent.body.code_expires_at).toBe(new Date(h.clock.now().getTime() + 15 * 60_000).toISOString());
    const code = await codeMailedTo('pager@cm-verify.test');

    const again = await me('POST', `${BASE}/${id}/send-code`);
    expect(again.status).toBe(429);
    expect(again.headers['retry-after']).toBe('60');

    const wrong = code === '999999' ? '999998' : '999999';
    const refused = await me('POST', `${BASE}/${id}/verify`, { json: { code: wrong } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([{ field: 'code', message: 'is not the code we sent' }]);
    expect((await me('POST', `${BASE}/${id}/verify`, { json: { code: 'abc' } })).status).toBe(422);

    const ok = await me('POST', `${BASE}/${id}/verify`, { json: { code } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      id,
      verified: true,
      verified_at: h.clock.now().toISOString(),
      code_sent_at: null,
    });
  });

  it('five wrong codes use a code up; after a minute a new code can be sent, and it works', async () => {
    const w = await h.workspace('cm-tries');
    const me = w.api;
    const id = (await me('POST', BASE, { json: { type: 'email', address: 'pager@cm-tries.test' } })).body.id;
    await me('POST', `${BASE}/${id}/send-code`);
    const code = await codeMailedTo('pager@cm-tries.test');
    const wrong = code === '111111' ? '222222' : '111111';
    for (let i = 0; i < 5; i++) await me('POST', `${BASE}/${id}/verify`, { json: { code: wrong } });
    const used = await me('POST', `${BASE}/${id}/verify`, { json: { code } });
    expect(used.body.error.details).toEqual([
      { field: 'code', message: 'was entered wrong too often: send a new one' },
    ]);
    h.clock.advance(60_000);
    expect((await me('POST', `${BASE}/${id}/send-code`)).body.sent).toBe(true);
    const fresh = await codeMailedTo('pager@cm-tries.test', 1);
    expect((await me('POST', `${BASE}/${id}/verify`, { json: { code: fresh } })).body.verified).toBe(true);
  });

  it('an escalation step naming a user reaches their account email and each verified method, never an unverified one', async () => {
    const w = await h.workspace('cm-escalate');
    const member = await w.userWithKey('member');
    const me = w.as(member.key);
    const verified = (
      await me('POST', BASE, { json: { type: 'email', address: 'phone-mail@cm-escalate.test' } })
    ).body.id;
    await me('POST', BASE, { json: { type: 'email', address: 'never-verified@cm-escalate.test' } });
    await me('POST', `${BASE}/${verified}/send-code`);
    const code = await codeMailedTo('phone-mail@cm-escalate.test');
    expect((await me('POST', `${BASE}/${verified}/verify`, { json: { code } })).body.verified).toBe(true);

    const policy = await w.api('POST', '/escalation-policies', {
      json: { name: 'member', steps: [{ wait_minutes: 0, notify_user_ids: [member.user.id] }] },
    });
    const { alert } = await raiseAlert(
      h.store,
      {
        workspace_id: w.workspace.id,
        source_type: 'integration',
        source_id: 'src',
        cause: 'webhook',
        dedup_key: 'e1',
        title: 'Payments down',
        escalation_policy_id: policy.body.id,
      },
      h.clock.now(),
    );
    const alertMails = () => rig.smtp.mails.filter((m) => m.subject?.includes('Payments down'));
    await waitFor(
      async () => alertMails().length,
      (n) => n >= 2,
      { what: 'alert mails' },
    );
    const detail = await waitFor(
      async () => (await w.api('GET', `/alerts/${alert.id}`)).body,
      (a) => a.escalation.finished,
      { what: 'the step to finish (every recipient sent to before it moves on)' },
    );
    expect(
      alertMails()
        .flatMap((m) => m.rcpt)
        .sort(),
    ).toEqual([member.user.email, 'phone-mail@cm-escalate.test']);
    const notes = detail.timeline.filter((e: { type: string }) => e.type === 'notification');
    expect(notes.map((e: { to: string; user_id: string }) => [e.to, e.user_id]).sort()).toEqual(
      [
        [member.user.email, member.user.id],
        ['phone-mail@cm-escalate.test', member.user.id],
      ].sort(),
    );
    // Each carries its own acknowledge link, made for that recipient.
    const links = alertMails().map((m) => /Acknowledge: (\S+)/.exec(m.text ?? '')![1]);
    expect(new Set(links).size).toBe(2);
  });
});
