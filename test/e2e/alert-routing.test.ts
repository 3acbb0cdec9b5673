import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlert } from '../../control-plane/src/domain/alerts/alerts.js';
import type { Harness } from '../support/harness.js';
import type { Receiver } from '../support/receivers.js';
import { startRoutingRig } from '../support/routing-rig.js';
import { waitFor } from '../support/wait.js';

/**
 * Alert routing end to end: a real control plane (manual clock, its scheduler polling every 20 ms)
 * notifying a real SMTP server and real HTTP receivers on loopback ports.
 */
let h: Harness;
let rx: Receiver;
let smtp: Awaited<ReturnType<typeof startRoutingRig>>['smtp'];

let rig: Awaited<ReturnType<typeof startRoutingRig>>;
beforeAll(async () => {
  rig = await startRoutingRig();
  ({ h, rx, smtp } = rig);
});
afterAll(() => rig.close());

type Ws = Awaited<ReturnType<Harness['workspace']>>;
const MIN = 60_000;

const raise = (
  w: Ws,
  key: string,
  over: { policy?: string; source?: 'monitor' | 'integration'; id?: string } = {},
) =>
  raiseAlert(
    h.store,
    {
      workspace_id: w.workspace.id,
      source_type: over.source ?? 'integration',
      source_id: over.id ?? 'src-1',
      cause: 'webhook',
      dedup_key: key,
      title: `Disk full (${key})`,
      escalation_policy_id: over.policy ?? null,
    },
    h.clock.now(),
  ).then((r) => r.alert);

const webhook = async (w: Ws, path: string) => {
  const r = await w.api('POST', '/channels', {
    json: { name: `hook ${path}`, type: 'webhook', config: { url: rx.url(path) } },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  rx.secret(path, r.body.signing_secret);
  return r.body;
};

describe('escalation policies', () => {
  it('every workspace has a default; admins create, change and delete; members and other workspaces cannot', async () => {
    const w = await h.workspace('ep-crud');
    const other = await h.workspace('ep-crud-other');
    const member = await w.userWithKey('member');
    const list = await w.api('GET', '/escalation-policies');
    expect(list.body.data).toHaveLength(1);
    const def = list.body.data[0];
    expect(def).toMatchObject({ is_default: true, repeat: 0 });
    expect(def.steps).toEqual([
      { wait_minutes: 0, notify_user_ids: [w.admin.id], notify_channel_ids: [], notify_schedule_ids: [] },
    ]);

    const body = {
      name: 'On call',
      steps: [
        { wait_minutes: 0, notify_user_ids: [member.user.id] },
        { wait_minutes: 10, notify_user_ids: [w.admin.id] },
      ],
      repeat: 2,
    };
    expect((await w.as(member.key)('POST', '/escalation-policies', { json: body })).status).toBe(403);
    const created = await w.api('POST', '/escalation-policies', { json: body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'On call', is_default: false, repeat: 2 });
    expect(created.body.steps[0]).toEqual({
      wait_minutes: 0,
      notify_user_ids: [member.user.id],
      notify_channel_ids: [],
      notify_schedule_ids: [],
    });
    expect((await other.api('GET', `/escalation-policies/${created.body.id}`)).status).toBe(404);
    expect((await other.api('DELETE', `/escalation-policies/${created.body.id}`)).status).toBe(404);

    // make it the default: the old one stops being it
    const patched = await w.api('PATCH', `/escalation-policies/${created.body.id}`, {
      json: { is_default: true },
    });
    expect(patched.body.is_default).toBe(true);
    const after = (await w.api('GET', '/escalation-policies')).body.data;
    expect(
      after.filter((p: { is_default: boolean }) => p.is_default).map((p: { id: string }) => p.id),
    ).toEqual([created.body.id]);
    const unset = await w.api('PATCH', `/escalation-policies/${created.body.id}`, {
      json: { is_default: false },
    });
    expect(unset.status).toBe(422);
    expect(unset.body.error.details[0].field).toBe('is_default');
    const delDefault = await w.api('DELETE', `/escalation-policies/${created.body.id}`);
    expect(delDefault.status).toBe(409);
    expect(delDefault.body.error.message).toMatch(/default/);

    // a policy in use by a monitor cannot go; once unused it can
    const m = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'm',
        monitor_type: 'http',
        url: 'https://example.com/',
        http_method: 'GET',
        expected_status_code: 200,
        escalation_policy_id: def.id,
      },
    });
    expect(m.status).toBe(201);
    expect((await w.api('DELETE', `/escalation-policies/${def.id}`)).status).toBe(409);
    await w.api('DELETE', `/monitors/${m.body.id}`);
    expect((await w.api('DELETE', `/escalation-policies/${def.id}`)).status).toBe(204);
    expect((await w.api('GET', `/escalation-policies/${def.id}`)).status).toBe(404);
  });

  it('a policy an integration escalates by cannot be deleted either: 409 naming integrations, until it is moved', async () => {
    const w = await h.workspace('ep-integration');
    const p = await w.api('POST', '/escalation-policies', {
      json: { name: 'Inbound', steps: [{ wait_minutes: 0, notify_user_ids: [w.admin.id] }] },
    });
    expect(p.status).toBe(201);
    const i = await w.api('POST', '/integrations', {
      json: { name: 'alertmanager', kind: 'alertmanager', escalation_policy_id: p.body.id },
    });
    expect(i.status).toBe(201);
    const refused = await w.api('DELETE', `/escalation-policies/${p.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'conflict',
      message: 'Integrations still use this policy; move them to another policy first.',
    });
    expect((await w.api('GET', `/escalation-policies/${p.body.id}`)).status).toBe(200);
    // Moved to the workspace default (no policy named), it goes.
    const moved = await w.api('PATCH', `/integrations/${i.body.id}`, {
      json: { escalation_policy_id: null },
    });
    expect(moved.status).toBe(200);
    expect((await w.api('DELETE', `/escalation-policies/${p.body.id}`)).status).toBe(204);
    expect((await w.api('GET', `/integrations/${i.body.id}`)).body.escalation_policy_id).toBeNull();
  });

  it('refuses unknown users and channels, empty steps and instant repeats, listing every field; stores nothing', async () => {
    const w = await h.workspace('ep-bad');
    const other = await h.workspace('ep-bad-other');
    const foreignChannel = await other.api('POST', '/channels', {
      json: { name: 'x', type: 'slack', config: { url: 'https://hooks.slack.test/services/x' } },
    });
    const r = await w.api('POST', '/escalation-policies', {
      json: {
        name: 'bad',
        steps: [
          {
            wait_minutes: 0,
            notify_user_ids: [other.admin.id],
            notify_channel_ids: [foreignChannel.body.id],
          },
          { wait_minutes: 0 },
          { wait_minutes: -1, notify_user_ids: ['nope'] },
        ],
        repeat: 1,
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
      ['steps[2].wait_minutes', 'steps[2].notify_user_ids[0]'].sort(),
    );
    const r2 = await w.api('POST', '/escalation-policies', {
      json: {
        name: 'bad',
        steps: [
          {
            wait_minutes: 0,
            notify_user_ids: [other.admin.id],
            notify_channel_ids: [foreignChannel.body.id],
          },
          { wait_minutes: 0 },
        ],
        repeat: 1,
      },
    });
    expect(r2.status).toBe(422);
    expect(r2.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
      ['repeat', 'steps[0].notify_channel_ids[0]', 'steps[0].notify_user_ids[0]', 'steps[1]'].sort(),
    );
    expect((await w.api('GET', '/escalation-policies')).body.data).toHaveLength(1);
  });
});

describe('channels', () => {
  it('webhook: the signing secret is shown once; a test notification arrives signed and is logged', async () => {
    const w = await h.workspace('ch-hook');
    const ch = await webhook(w, '/ch-hook');
    expect(ch.signing_secret).toMatch(/^whsec_/);
    const got = await w.api('GET', `/channels/${ch.id}`);
    expect(got.body).not.toHaveProperty('signing_secret');
    expect(JSON.stringify(got.body)).not.toContain(ch.signing_secret);
    const test = await w.api('POST', `/channels/${ch.id}/test`);
    expect(test.status).toBe(200);
    expect(test.body.ok).toBe(true);
    const hit = rx.on('/ch-hook')[0]!;
    expect(hit.verified).toBe(true);
    expect(hit.json).toMatchObject({ event: 'test', workspace: 'ch-hook', channel: { id: ch.id } });
    // a 400 fails for good
    rx.reply('/ch-hook', 400);
    const refused = await w.api('POST', `/channels/${ch.id}/test`);
    expect(refused.body.ok).toBe(false);
    expect(
      refused.body.attempts.map((a: { outcome: string; status_code: number }) => [a.outcome, a.status_code]),
    ).toEqual([['failed', 400]]);
    // a test is one attempt: a 503 is reported (would be retried), not retried
    rx.reply('/ch-hook', 503, 200);
    const unavailable = await w.api('POST', `/channels/${ch.id}/test`);
    expect(unavailable.body).toMatchObject({ ok: false, status_code: 503, would_retry: true });
    expect(unavailable.body.attempts.map((a: { outcome: string }) => a.outcome)).toEqual(['failed']);
    const log = await w.api('GET', `/channels/${ch.id}/deliveries`);
    expect(log.body.data.map((d: { outcome: string }) => d.outcome).sort()).toEqual([
      'failed',
      'failed',
      'sent',
    ]);
    expect(rx.on('/ch-hook')).toHaveLength(3);
  });

  it('email and Slack test notifications; Slack URLs are masked; admins only; bad config names fields', async () => {
    const w = await h.workspace('ch-mail');
    const member = await w.userWithKey('member');
    const mail = await w.api('POST', '/channels', {
      json: { name: 'ops mail', type: 'email', config: { addresses: ['ops@example.test'] } },
    });
    expect(mail.status).toBe(201);
    expect(mail.body).not.toHaveProperty('signing_secret');
    expect((await w.api('POST', `/channels/${mail.body.id}/test`)).body.ok).toBe(true);
    const m = smtp.mails.find((x) => x.rcpt.includes('ops@example.test'))!;
    expect(m.subject).toBe('[Lookout ch-mail] Test notification for ops mail');
    expect(m.from?.value[0]?.address).toBe('alerts@lookout.test');

    const slack = await w.api('POST', '/channels', {
      json: { name: 'slack', type: 'slack', config: { url: rx.url('/services/T000/B000/secretpath') } },
    });
    expect(slack.body.config.url).not.toContain('secretpath');
    expect((await w.api('POST', `/channels/${slack.body.id}/test`)).body.ok).toBe(true);
    expect(rx.on('/services/T000/B000/secretpath')[0]!.json.text).toContain('Test notification');

    expect((await w.as(member.key)('GET', '/channels')).status).toBe(403);
    const bad = await w.api('POST', '/channels', {
      json: { name: '', type: 'webhook', config: { url: 'ftp://x', headers: { Host: 'x' }, extra: 1 } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['name']);
    const bad2 = await w.api('POST', '/channels', {
      json: { name: 'n', type: 'webhook', config: { url: 'ftp://x', headers: { Host: 'x' }, extra: 1 } },
    });
    expect(bad2.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
      ['config.extra', 'config.headers.Host', 'config.url'].sort(),
    );
    const bad3 = await w.api('POST', '/channels', { json: { name: 'n', type: 'sms', config: {} } });
    expect(bad3.body.error.details.map((d: { field: string }) => d.field)).toEqual(['type']);
    expect((await w.api('GET', '/channels')).body.data).toHaveLength(2);
  });

  it('a channel a policy notifies cannot be deleted', async () => {
    const w = await h.workspace('ch-del');
    const ch = await webhook(w, '/ch-del');
    const p = await w.api('POST', '/escalation-policies', {
      json: { name: 'p', steps: [{ wait_minutes: 0, notify_channel_ids: [ch.id] }] },
    });
    expect((await w.api('DELETE', `/channels/${ch.id}`)).status).toBe(409);
    await w.api('PATCH', `/escalation-policies/${p.body.id}`, {
      json: { steps: [{ wait_minutes: 0, notify_user_ids: [w.admin.id] }] },
    });
    expect((await w.api('DELETE', `/channels/${ch.id}`)).status).toBe(204);
  });
});

describe('escalation', () => {
  it('runs the steps on time through email, webhook and Slack; acknowledging stops it; the timeline shows it all', async () => {
    const w = await h.workspace('esc-run');
    const member = await w.userWithKey('member', 'oncall@esc-run.test');
    const hook = await webhook(w, '/esc-run');
    const slack = await w.api('POST', '/channels', {
      json: { name: 'slack', type: 'slack', config: { url: rx.url('/slack/esc-run') } },
    });
    const policy = await w.api('POST', '/escalation-policies', {
      json: {
        name: 'two steps',
        steps: [
          { wait_minutes: 0, notify_user_ids: [member.user.id], notify_channel_ids: [hook.id] },
          { wait_minutes: 5, notify_channel_ids: [slack.body.id] },
        ],
        repeat: 1,
      },
    });
    const alert = await raise(w, 'esc', { policy: policy.body.id });
    await waitFor(
      async () => [
        rx.on('/esc-run').length,
        smtp.mails.filter((m) => m.rcpt.includes('oncall@esc-run.test')).length,
      ],
      ([a, b]) => a === 1 && b === 1,
      { what: 'step 1: webhook and email' },
    );
    const payload = rx.on('/esc-run')[0]!;
    expect(payload.verified).toBe(true);
    expect(payload.json).toMatchObject({
      event: 'alert.notification',
      step: 0,
      round: 0,
      alert: { id: alert.id },
    });
    expect(payload.headers['x-lookout-delivery']).toBe(
      `${alert.id}:${policy.body.id}:0:0:channel:${hook.id}`,
    );
    const mail = smtp.mails.find((m) => m.rcpt.includes('oncall@esc-run.test'))!;
    expect(mail.subject).toBe('[Lookout esc-run] CRITICAL: Disk full (esc)');
    expect(mail.text).toContain(`/alerts/${alert.id}`);

    const detail = await w.api('GET', `/alerts/${alert.id}`);
    expect(detail.body.escalation).toMatchObject({ policy_id: policy.body.id, next_step: 1, round: 0 });
    expect(detail.body.escalation.next_step_at).toBe(
      new Date(h.clock.now().getTime() + 5 * MIN).toISOString(),
    );
    expect(rx.on('/slack/esc-run')).toHaveLength(0);

    h.clock.advance(5 * MIN);
    await waitFor(
      async () => rx.on('/slack/esc-run').length,
      (n) => n === 1,
      { what: 'step 2: Slack' },
    );
    h.clock.advance(1);
    const ack = await w.as(member.key)('POST', '/alerts/acknowledge', { json: { UUIDs: [alert.id] } });
    expect(ack.status).toBe(200);
    expect(ack.body.acknowledged[0]).toMatchObject({
      id: alert.id,
      status: 'acknowledged',
      acknowledged_by: { type: 'user', user_id: member.user.id, api_key_id: member.keyId },
    });
    // The webhook it reached is told, naming who acknowledged it (Slack follows "resolved" only).
    const told = await waitFor(
      async () => rx.on('/esc-run').find((x) => x.json.event === 'alert.acknowledged'),
      (x) => x !== undefined,
      { what: 'the acknowledge on the webhook' },
    );
    expect(told!.json).toMatchObject({
      alert: { id: alert.id, status: 'acknowledged' },
      by: 'oncall@esc-run.test',
    });
    // the repeat would have been due now; nothing more is sent
    h.clock.advance(60 * MIN);
    const sentinel = await raise(w, 'sentinel', { policy: policy.body.id });
    const steps = () => rx.on('/esc-run').filter((x) => x.json.event === 'alert.notification');
    await waitFor(
      async () => steps().length,
      (n) => n === 2,
      { what: 'the sentinel alert notified' },
    );
    expect(steps()[1]!.json.alert.id).toBe(sentinel.id);
    expect(rx.on('/esc-run')).toHaveLength(3);
    expect(rx.on('/slack/esc-run')).toHaveLength(1);

    const timeline = (await w.api('GET', `/alerts/${alert.id}`)).body.timeline;
    const kinds = timeline.map((e: { type: string; via?: string; outcome?: string }) =>
      [e.type, e.via ?? '', e.outcome ?? ''].join(' '),
    );
    expect(kinds[0]).toBe('raised  ');
    // step 1's two notifications go out together, in either order
    expect(kinds.slice(1, 3).sort()).toEqual(['notification email sent', 'notification webhook sent']);
    // the follow-up comes after the acknowledge it tells of
    expect(kinds.slice(3)).toEqual([
      'notification slack sent',
      'acknowledged  ',
      'notification webhook sent',
    ]);
    const email = timeline.find((e: { via?: string }) => e.via === 'email');
    expect(email).toMatchObject({ to: 'oncall@esc-run.test', user_id: member.user.id, step: 0, round: 0 });
    // Each names who it went to (the channel's name, not its URL) and what it told.
    const toldNames = timeline
      .filter((e: { type: string }) => e.type === 'notification')
      .map((e: { event: string; via: string; name: string }) => `${e.event} ${e.via} ${e.name}`);
    expect(toldNames.slice(0, 2).sort()).toEqual([
      'raised email oncall@esc-run.test',
      'raised webhook hook /esc-run',
    ]);
    expect(toldNames.slice(2)).toEqual(['raised slack slack', 'acknowledged webhook hook /esc-run']);
    expect(timeline.at(-2).by.user_id).toBe(member.user.id);
  });

  it('a failing webhook is retried and every attempt is on the timeline; resolving stops the escalation', async () => {
    const w = await h.workspace('esc-retry');
    const hook = await webhook(w, '/esc-retry');
    const policy = await w.api('POST', '/escalation-policies', {
      json: {
        name: 'hook',
        steps: [
          { wait_minutes: 0, notify_channel_ids: [hook.id] },
          { wait_minutes: 3, notify_channel_ids: [hook.id] },
        ],
      },
    });
    rx.reply('/esc-retry', 500, 502);
    const alert = await raise(w, 'r', { policy: policy.body.id });
    await waitFor(
      async () => rx.on('/esc-retry').length,
      (n) => n === 3,
      { what: 'three attempts' },
    );
    expect(rx.on('/esc-retry').every((x) => x.verified)).toBe(true);
    expect(new Set(rx.on('/esc-retry').map((x) => x.headers['x-lookout-delivery'])).size).toBe(1);
    await waitFor(
      async () => (await w.api('GET', `/alerts/${alert.id}`)).body.timeline,
      (t) => t.filter((e: { type: string }) => e.type === 'notification').length === 3,
      { what: 'attempts logged' },
    );
    const res = await w.api('POST', '/alerts/resolve', { json: { UUIDs: [alert.id] } });
    expect(res.body.resolved).toHaveLength(1);
    h.clock.advance(10 * MIN);
    const sentinel = await raise(w, 's', { policy: policy.body.id });
    const steps = () => rx.on('/esc-retry').filter((x) => x.json.event === 'alert.notification');
    await waitFor(
      async () => steps().length,
      (n) => n === 4,
      { what: 'sentinel' },
    );
    expect(steps()[3]!.json.alert.id).toBe(sentinel.id);
    // the webhook it reached (at the third attempt) heard it resolved, once; no further step
    expect(
      rx
        .on('/esc-retry')
        .filter((x) => x.json.event === 'alert.resolved')
        .map((x) => x.json.alert.id),
    ).toEqual([alert.id]);
    const t = (await w.api('GET', `/alerts/${alert.id}`)).body.timeline;
    expect(
      t.map((e: { type: string; outcome?: string; status_code?: number }) => [
        e.type,
        e.outcome ?? null,
        e.status_code ?? null,
      ]),
    ).toEqual([
      ['raised', null, null],
      ['notification', 'retrying', 500],
      ['notification', 'retrying', 502],
      ['notification', 'sent', 200],
      ['resolved', null, null],
      ['notification', 'sent', 200],
    ]);
  });
});

describe('acknowledge', () => {
  it('reports every UUID: acknowledged, already acknowledged, already resolved, not found (unknown or foreign)', async () => {
    const w = await h.workspace('ack');
    const other = await h.workspace('ack-other');
    const viewer = await w.userWithKey('viewer');
    const a1 = await raise(w, 'a1');
    const a2 = await raise(w, 'a2');
    const a3 = await raise(w, 'a3');
    const foreign = await raise(other, 'x');
    const unknown = crypto.randomUUID();
    await w.api('POST', '/alerts/acknowledge', { json: { UUIDs: [a2.id] } });
    await w.api('POST', '/alerts/resolve', { json: { UUIDs: [a3.id] } });
    expect((await w.as(viewer.key)('POST', '/alerts/acknowledge', { json: { UUIDs: [a1.id] } })).status).toBe(
      403,
    );
    const r = await w.api('POST', '/alerts/acknowledge', {
      json: { UUIDs: [a1.id, a2.id, a3.id, foreign.id, unknown, a1.id.toUpperCase()] },
    });
    expect(r.status).toBe(200);
    expect(r.body.acknowledged.map((x: { id: string }) => x.id)).toEqual([a1.id]);
    expect(r.body.already_acknowledged.map((x: { id: string }) => x.id)).toEqual([a2.id]);
    expect(r.body.already_resolved.map((x: { id: string }) => x.id)).toEqual([a3.id]);
    expect(r.body.not_found.sort()).toEqual([foreign.id, unknown].sort());
    expect((await other.api('GET', `/alerts/${foreign.id}`)).body.status).toBe('open');
    // acknowledged alerts can still be resolved, and stay deduplicated until then
    expect(
      (
        await raiseAlert(
          h.store,
          {
            workspace_id: w.workspace.id,
            source_type: 'integration',
            source_id: 'src-1',
            cause: 'webhook',
            dedup_key: 'a1',
            title: 't',
          },
          h.clock.now(),
        )
      ).created,
    ).toBe(false);
    const res = await w.api('POST', '/alerts/resolve', { json: { UUIDs: [a1.id] } });
    expect(res.body.resolved[0]).toMatchObject({
      id: a1.id,
      status: 'resolved',
      acknowledged_by: { type: 'user' },
    });
  });

  it('validates the body: a non-empty array of UUIDs, nothing else', async () => {
    const w = await h.workspace('ack-bad');
    for (const [json, field] of [
      [{}, 'UUIDs'],
      [{ UUIDs: [] }, 'UUIDs'],
      [{ UUIDs: ['abc'] }, 'UUIDs[0]'],
      [{ UUIDs: [crypto.randomUUID()], by: 'me' }, 'by'],
    ] as const) {
      const r = await w.api('POST', '/alerts/acknowledge', { json });
      expect(r.status, JSON.stringify(json)).toBe(422);
      expect(r.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });
});

describe('maintenance windows', () => {
  it('alerts inside a window are recorded but not escalated; other sources and later alerts are', async () => {
    const w = await h.workspace('mw');
    const hook = await webhook(w, '/mw');
    const policy = await w.api('POST', '/escalation-policies', {
      json: { name: 'hook', steps: [{ wait_minutes: 0, notify_channel_ids: [hook.id] }], is_default: true },
    });
    const monitor = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'm',
        monitor_type: 'http',
        url: 'https://example.com/',
        http_method: 'GET',
        expected_status_code: 200,
      },
    });
    const now = h.clock.now().getTime();
    const win = await w.api('POST', '/maintenance-windows', {
      json: {
        name: 'deploy',
        scope_type: 'monitor',
        scope_id: monitor.body.id,
        starts_at: new Date(now - MIN).toISOString(),
        ends_at: new Date(now + 30 * MIN).toISOString(),
      },
    });
    expect(win.status).toBe(201);
    expect(win.body.active).toBe(true);
    const quiet = await raise(w, 'q', { source: 'monitor', id: monitor.body.id });
    const loud = await raise(w, 'l', { source: 'monitor', id: crypto.randomUUID() });
    await waitFor(
      async () => rx.on('/mw').length,
      (n) => n === 1,
      { what: 'the other monitor’s alert' },
    );
    expect(rx.on('/mw')[0]!.json.alert.id).toBe(loud.id);
    const d = (await w.api('GET', `/alerts/${quiet.id}`)).body;
    expect(d.status).toBe('open');
    expect(d.escalation).toMatchObject({
      policy_id: policy.body.id,
      next_step_at: null,
      suppressed_by: { window_id: win.body.id, name: 'deploy' },
    });
    expect(d.timeline.map((e: { type: string }) => e.type)).toEqual(['raised', 'suppressed']);

    // after the window ends, a new alert of the same monitor escalates
    await w.api('POST', '/alerts/resolve', { json: { UUIDs: [quiet.id] } });
    h.clock.advance(31 * MIN);
    const after = await raise(w, 'q2', { source: 'monitor', id: monitor.body.id });
    await waitFor(
      async () => rx.on('/mw').length,
      (n) => n === 2,
      { what: 'after the window' },
    );
    expect(rx.on('/mw')[1]!.json.alert.id).toBe(after.id);
    expect(rx.on('/mw').map((x) => x.json.alert.id)).not.toContain(quiet.id);
  });

  it('workspace-wide windows; validation; viewers read, admins write, other workspaces see nothing', async () => {
    const w = await h.workspace('mw-crud');
    const other = await h.workspace('mw-crud-other');
    const viewer = await w.userWithKey('viewer');
    const now = h.clock.now().getTime();
    const body = {
      name: 'all',
      scope_type: 'workspace',
      starts_at: new Date(now).toISOString(),
      ends_at: new Date(now + 60 * MIN).toISOString(),
    };
    expect((await w.as(viewer.key)('POST', '/maintenance-windows', { json: body })).status).toBe(403);
    const win = await w.api('POST', '/maintenance-windows', { json: body });
    expect(win.status).toBe(201);
    const a = await raise(w, 'any');
    expect((await w.api('GET', `/alerts/${a.id}`)).body.escalation.suppressed_by.window_id).toBe(win.body.id);
    expect((await w.as(viewer.key)('GET', '/maintenance-windows')).body.data).toHaveLength(1);
    expect((await other.api('GET', `/maintenance-windows/${win.body.id}`)).status).toBe(404);
    const bad = await w.api('POST', '/maintenance-windows', {
      json: { ...body, scope_type: 'monitor', scope_id: crypto.randomUUID(), ends_at: body.starts_at },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'ends_at',
      'scope_id',
    ]);
    const bad2 = await w.api('POST', '/maintenance-windows', {
      json: { ...body, scope_id: crypto.randomUUID(), starts_at: 'tomorrow' },
    });
    // A bad start does not hide the other bad field (a workspace-wide window names no scope_id).
    expect(bad2.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'scope_id',
      'starts_at',
    ]);
    expect((await w.api('DELETE', `/maintenance-windows/${win.body.id}`)).status).toBe(204);
    expect((await w.api('GET', '/maintenance-windows')).body.data).toHaveLength(0);
  });
});
