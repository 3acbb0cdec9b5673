import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlert } from '../../control-plane/src/domain/alerts/alerts.js';
import { type Harness, startHarness } from '../support/harness.js';
import { startSmtp } from '../support/receivers.js';
import { type ServiceRequest, startService } from '../support/service-double.js';
import { waitFor } from '../support/wait.js';

/**
 * A user's contact methods through real services' wire formats: local HTTP servers on loopback play
 * the Telegram Bot API, ntfy, Twilio and Pushover as their documentation describes them (paths,
 * auth, bodies, answers), and a real SMTP server takes the mail. Each method is verified with the code
 * its own service carried; an escalation step naming the user then reaches every verified method,
 * and none that is not verified.
 */
const BOT = '7012345678:AAHk-test_bot_token';
const SID = `AC${'0123456789abcdef'.repeat(2)}`;
const TWILIO_TOKEN = 'twilio-auth-token-1234';
const APP = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
const USER_KEY = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';

let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let telegram: Awaited<ReturnType<typeof startService>>;
let ntfy: Awaited<ReturnType<typeof startService>>;
let twilio: Awaited<ReturnType<typeof startService>>;
let pushover: Awaited<ReturnType<typeof startService>>;

beforeAll(async () => {
  smtp = await startSmtp();
  // Each answers as its service documents a success.
  telegram = await startService((r) => ({
    status: 200,
    body: { ok: true, result: { message_id: 1, chat: { id: Number(r.json?.chat_id) }, text: r.json?.text } },
  }));
  ntfy = await startService((r) => ({
    status: 200,
    body: { id: 'sPs71M8A2T', event: 'message', topic: r.json?.topic },
  }));
  twilio = await startService((r) => ({
    status: 201,
    body: { sid: 'SM1234567890abcdef1234567890abcdef', status: 'queued', to: r.form.get('To') },
  }));
  pushover = await startService(() => ({
    status: 200,
    body: { status: 1, request: '647d2300-702c-4b38-8b2f-d56326ae460b' },
  }));
  h = await startHarness({
    escalation_poll_ms: 20,
    notify_retry_base_ms: 5,
    smtp_host: '127.0.0.1',
    smtp_port: smtp.port,
    smtp_from: 'Lookout <alerts@lookout.test>',
    telegram_bot_token: BOT,
    telegram_api_url: telegram.base,
    twilio_account_sid: SID,
    twilio_auth_token: TWILIO_TOKEN,
    twilio_from: '+14155550100',
    twilio_api_url: twilio.base,
    pushover_app_token: APP,
    pushover_api_url: pushover.base,
  });
});
afterAll(async () => {
  await h?.close();
  await Promise.all([smtp, telegram, ntfy, twilio, pushover].map((s) => s?.close()));
});

const BASE = '/users/me/contact-methods';
const codeIn = (s: string | null | undefined) => /verification code(?: is|:) (\d{6})/.exec(s ?? '')?.[1];

describe('contact methods through each service', () => {
  it('each kind is verified by the code its service carried, and an escalation reaches only the verified ones', async () => {
    const w = await h.workspace('cm-kinds');
    const member = await w.userWithKey('member');
    const me = w.as(member.key);
    expect((await me('GET', BASE)).body.available_types).toEqual([
      'email',
      'sms',
      'telegram',
      'ntfy',
      'pushover',
    ]);

    const add = async (json: Record<string, unknown>) => {
      const r = await me('POST', BASE, { json });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.id as string;
    };
    const tg = await add({ type: 'telegram', chat_id: '123456789' });
    const sms = await add({ type: 'sms', phone: '+14155550123' });
    const push = await add({
      type: 'ntfy',
      server_url: ntfy.base,
      topic: 'mo-alerts',
      access_token: 'tk_mosecret',
    });
    const po = await add({ type: 'pushover', user_key: USER_KEY });
    const mail = await add({ type: 'email', address: 'mo-pager@cm-kinds.test' });
    // Added, never verified: these must never be reached.
    await add({ type: 'telegram', chat_id: '987654321' });
    await add({ type: 'sms', phone: '+14155550999' });
    await add({ type: 'ntfy', server_url: ntfy.base, topic: 'unverified-topic' });

    /** Sends a code through the method; `read` finds it in what the service (or SMTP) received. */
    const verify = async (id: string, read: () => string | undefined) => {
      const sent = await me('POST', `${BASE}/${id}/send-code`);
      expect(sent.body, JSON.stringify(sent.body)).toMatchObject({ sent: true, error: null });
      const code = await waitFor(
        async () => read(),
        (c) => c !== undefined,
        { what: `the code for ${id}` },
      );
      const ok = await me('POST', `${BASE}/${id}/verify`, { json: { code } });
      expect(ok.body.verified, JSON.stringify(ok.body)).toBe(true);
    };
    const last = (s: { requests: ServiceRequest[] }) => s.requests.at(-1);
    await verify(tg, () => codeIn(last(telegram)?.json?.text));
    await verify(sms, () => codeIn(last(twilio)?.form.get('Body')));
    await verify(push, () => codeIn(last(ntfy)?.json?.message));
    await verify(po, () => codeIn(last(pushover)?.json?.message));
    await verify(mail, () =>
      codeIn(smtp.mails.filter((m) => m.rcpt.includes('mo-pager@cm-kinds.test')).at(-1)?.text),
    );
    const before = {
      telegram: telegram.requests.length,
      ntfy: ntfy.requests.length,
      twilio: twilio.requests.length,
      pushover: pushover.requests.length,
    };

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
        dedup_key: 'k1',
        title: 'Database unreachable',
        escalation_policy_id: policy.body.id,
      },
      h.clock.now(),
    );
    // The step has run to its end (every recipient sent to) before anything is counted.
    const detail = await waitFor(
      async () => (await w.api('GET', `/alerts/${alert.id}`)).body,
      (a) => a.escalation.finished,
      { what: 'the escalation step to finish' },
    );
    const since = <T>(list: T[], n: number) => list.slice(n);

    const [tgCall, ...tgMore] = since(telegram.requests, before.telegram);
    expect(tgMore).toEqual([]);
    expect(tgCall).toMatchObject({ method: 'POST', path: `/bot${BOT}/sendMessage` });
    expect(tgCall!.headers['content-type']).toBe('application/json');
    expect(tgCall!.json).toMatchObject({ chat_id: '123456789' });
    expect(tgCall!.json.text).toContain('Database unreachable');

    const [smsCall, ...smsMore] = since(twilio.requests, before.twilio);
    expect(smsMore).toEqual([]);
    expect(smsCall).toMatchObject({ method: 'POST', path: `/2010-04-01/Accounts/${SID}/Messages.json` });
    expect(smsCall!.headers.authorization).toBe(
      `Basic ${Buffer.from(`${SID}:${TWILIO_TOKEN}`).toString('base64')}`,
    );
    expect(smsCall!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(smsCall!.form)).toMatchObject({ To: '+14155550123', From: '+14155550100' });
    expect(smsCall!.form.get('Body')).toContain('Database unreachable');

    const [ntfyCall, ...ntfyMore] = since(ntfy.requests, before.ntfy);
    expect(ntfyMore).toEqual([]);
    expect(ntfyCall).toMatchObject({ method: 'POST', path: '/' });
    expect(ntfyCall!.headers.authorization).toBe('Bearer tk_mosecret');
    expect(ntfyCall!.json).toMatchObject({ topic: 'mo-alerts', priority: 5 });

    const [poCall, ...poMore] = since(pushover.requests, before.pushover);
    expect(poMore).toEqual([]);
    expect(poCall).toMatchObject({ method: 'POST', path: '/1/messages.json' });
    expect(poCall!.json).toMatchObject({ token: APP, user: USER_KEY, url_title: 'Acknowledge' });

    const alertMail = smtp.mails.filter((m) => m.subject?.includes('Database unreachable'));
    expect(alertMail.flatMap((m) => m.rcpt).sort()).toEqual([member.user.email, 'mo-pager@cm-kinds.test']);

    // The timeline names the user and each way they were reached.
    const notes = detail.timeline.filter((e: { type: string }) => e.type === 'notification');
    expect(notes.map((e: { via: string }) => e.via).sort()).toEqual(
      ['email', 'email', 'ntfy', 'pushover', 'telegram', 'twilio_sms'].sort(),
    );
    expect(new Set(notes.map((e: { user_id: string }) => e.user_id))).toEqual(new Set([member.user.id]));
    expect(notes.every((e: { outcome: string }) => e.outcome === 'sent')).toBe(true);

    // Each carried the user's own acknowledge link; the one from Telegram acknowledges as them, by Telegram.
    const links = [
      /Acknowledge: (\S+)/.exec(tgCall!.json.text)![1]!,
      /Ack: (\S+)/.exec(smsCall!.form.get('Body')!)![1]!,
      ntfyCall!.json.click,
      poCall!.json.url,
    ];
    expect(new Set(links).size).toBe(4);
    const u = new URL(links[0]!);
    const acked = await h.request('POST', u.pathname, {
      host: u.host,
      raw: new URLSearchParams({ token: u.searchParams.get('token')! }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(acked.status).toBe(200);
    expect((await w.api('GET', `/alerts/${alert.id}`)).body.acknowledged_by).toEqual({
      type: 'link',
      user_id: member.user.id,
      channel_id: null,
      via: 'telegram',
      recipient: member.user.email,
    });

    // Resolved: every way the user was reached gets a short "resolved" saying how long it lasted, once
    // (their account email and each verified method); unverified methods still nothing.
    const counts = () => [telegram, ntfy, twilio, pushover].map((s) => s.requests.length);
    const atAck = counts();
    expect(
      (await w.api('POST', '/alerts/resolve', { json: { UUIDs: [alert.id] } })).body.resolved,
    ).toHaveLength(1);
    const resolvedFollowUps = () =>
      w
        .api('GET', `/alerts/${alert.id}`)
        .then((r) =>
          r.body.timeline.filter(
            (e: { type: string; step: number | null; outcome: string }) =>
              e.type === 'notification' && e.step === null && e.outcome === 'sent',
          ),
        );
    const followed = await waitFor(resolvedFollowUps, (f) => f.length >= 6, {
      what: 'the resolved follow-ups',
    });
    expect(followed.map((e: { via: string }) => e.via).sort()).toEqual(
      ['email', 'email', 'ntfy', 'pushover', 'telegram', 'twilio_sms'].sort(),
    );
    expect(counts()).toEqual([atAck[0]! + 1, atAck[1]! + 1, atAck[2]! + 1, atAck[3]! + 1]);
    expect(twilio.requests.at(-1)!.form.get('Body')).toMatch(/^RESOLVED after \d+(s|m)/);
    const recoveryMail = smtp.mails.filter((m) => m.subject?.includes('RESOLVED after'));
    expect(recoveryMail.flatMap((m) => m.rcpt).sort()).toEqual([member.user.email, 'mo-pager@cm-kinds.test']);
    const resolvedTg = telegram.requests.at(-1)!;
    expect(resolvedTg.path).toBe(`/bot${BOT}/sendMessage`);
    expect(resolvedTg.json).toMatchObject({ chat_id: '123456789' });
    expect(resolvedTg.json.text).toContain('RESOLVED');
    // A reply to the raised message there (its id came back from the Bot API).
    expect(resolvedTg.json.reply_parameters).toEqual({ message_id: 1, allow_sending_without_reply: true });
    expect(ntfy.requests.at(-1)!.json).toMatchObject({ topic: 'mo-alerts' });
  });

  it('a send the service refuses is reported with its answer, and the code is dropped so another can be asked for at once', async () => {
    const w = await h.workspace('cm-refused');
    const down = await startService(() => ({
      status: 403,
      body: { code: 40301, http: 403, error: 'forbidden' },
    }));
    try {
      const other = (
        await w.api('POST', BASE, { json: { type: 'ntfy', server_url: down.base, topic: 'locked' } })
      ).body.id;
      const r = await w.api('POST', `${BASE}/${other}/send-code`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ sent: false, status_code: 403, code_expires_at: null });
      expect(r.body.response).toContain('forbidden');
      expect(r.body.contact_method.code_sent_at).toBeNull();
      expect((await w.api('POST', `${BASE}/${other}/send-code`)).status).toBe(200);
    } finally {
      await down.close();
    }
  });
});
