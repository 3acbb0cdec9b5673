import { silentLogger } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlert, resolveAlerts } from '../../control-plane/src/domain/alerts/alerts.js';
import { startControlPlane } from '../../control-plane/src/process/server.js';
import type { Harness } from '../support/harness.js';
import type { Receiver } from '../support/receivers.js';
import { startRoutingRig } from '../support/routing-rig.js';
import { waitFor } from '../support/wait.js';

/**
 * Grouped notifications through a real control plane, its scheduler on a clock the test moves, and
 * real receivers (webhook, Slack, PagerDuty's Events API played on loopback, mail through a real SMTP
 * server): a burst on one policy is one message per grouping channel and one PagerDuty event per
 * alert; a storm longer than the window is a few periodic summaries; the grouped message's acknowledge
 * link acknowledges every alert in it; a restart between queueing and sending loses nothing.
 */
const WAIT_S = 5;
const INTERVAL_S = 60;
let rig: Awaited<ReturnType<typeof startRoutingRig>>;
let h: Harness;
let rx: Receiver;
beforeAll(async () => {
  rig = await startRoutingRig({
    config: { notify_group_wait_seconds: WAIT_S, notify_group_interval_seconds: INTERVAL_S },
  });
  ({ h, rx } = rig);
});
afterAll(() => rig.close());

type Ws = Awaited<ReturnType<Harness['workspace']>>;

/** A workspace whose default policy notifies its admin by mail, a webhook, Slack and PagerDuty at once. */
const setup = async (name: string) => {
  const w = await h.workspace(name);
  const channel = async (type: string, config: Record<string, unknown>) =>
    (await w.api('POST', '/channels', { json: { name: `${name}-${type}`, type, config } })).body.id as string;
  const ids = [
    await channel('webhook', { url: rx.url(`/${name}/hook`) }),
    await channel('slack', { url: rx.url(`/${name}/slack`) }),
    await channel('pagerduty', {
      routing_key: 'R0UT1NGKEY0123456789abcdefABCDEF',
      api_url: rx.url(`/${name}/pagerduty`),
    }),
  ];
  const policies = (await w.api('GET', '/escalation-policies')).body.data;
  const patched = await w.api('PATCH', `/escalation-policies/${policies[0].id}`, {
    json: { steps: [{ wait_minutes: 0, notify_user_ids: [w.admin.id], notify_channel_ids: ids }] },
  });
  expect(patched.status, patched.text).toBe(200);
  return w;
};

const raise = (w: Ws, key: string) =>
  raiseAlert(
    h.store,
    {
      workspace_id: w.workspace.id,
      source_type: 'integration',
      source_id: 'src-1',
      cause: 'webhook',
      dedup_key: key,
      title: `Switch port down (${key})`,
      description: `link lost on ${key}`,
    },
    h.clock.now(),
  ).then((r) => r.alert);

/** What a receiver path of the workspace got (PagerDuty's Events API adds its own path). */
const on = (w: Ws, what: string) =>
  rx.hits.filter((x) => x.path.startsWith(`/${w.workspace.subdomain}/${what}`));
const mailsTo = (w: Ws) => rig.smtp.mails.filter((m) => m.rcpt.includes(w.admin.email));
/** Lets the scheduler (polling every 20 ms) run several passes at the clock as it is now. */
const settle = () => new Promise((r) => setTimeout(r, 300));
const tick = async (seconds: number) => {
  h.clock.advance(seconds * 1000);
  await settle();
};
/** Every step (or follow-up) of the alerts ran: PagerDuty, which is sent at once, has heard of each. */
const ran = (w: Ws, n: number, action = 'trigger') =>
  waitFor(
    async () => on(w, 'pagerduty').filter((x) => x.json.event_action === action).length,
    (k) => k === n,
    { what: `${n} PagerDuty ${action} events` },
  );
/** How many raised alerts a webhook message tells of: a summary counts them, a message alone is one. */
const raisedIn = (x: { json: { event: string; counts?: { raised: number } } }) =>
  x.json.counts?.raised ?? (x.json.event === 'alert.notification' ? 1 : 0);
/** Moves the clock one step at a time until `what` holds. */
const until = async <T>(step: number, read: () => T, ok: (v: T) => boolean, what: string) => {
  for (let i = 0; i < 20; i++) {
    if (ok(read())) return;
    await tick(step);
  }
  throw new Error(`never: ${what}; last ${JSON.stringify(read())}`);
};

describe('grouped notifications', () => {
  it('20 alerts in one burst: one message per grouping channel (and one mail), 20 PagerDuty events', async () => {
    const w = await setup('burst');
    const alerts = [];
    for (let i = 0; i < 20; i++) alerts.push(await raise(w, `p${i}`));
    // PagerDuty deduplicates itself: one event per alert, at once.
    await ran(w, 20);
    expect(new Set(on(w, 'pagerduty').map((x) => x.json.dedup_key))).toEqual(
      new Set(alerts.map((a) => a.id)),
    );
    // The grouping channels wait group_wait for the rest of the burst.
    expect(on(w, 'hook')).toHaveLength(0);
    expect(on(w, 'slack')).toHaveLength(0);
    await tick(WAIT_S);
    await waitFor(
      async () => [on(w, 'hook').length, on(w, 'slack').length, mailsTo(w).length],
      (n) => n.every((x) => x === 1),
      { what: 'one summary on each channel' },
    );
    await tick(INTERVAL_S * 3);
    expect([on(w, 'hook').length, on(w, 'slack').length, mailsTo(w).length]).toEqual([1, 1, 1]);

    const hook = on(w, 'hook')[0]!.json;
    expect(hook).toMatchObject({
      event: 'alerts.notification',
      counts: { raised: 20, acknowledged: 0, resolved: 0, total: 20 },
      more: 10,
      alerts_url: expect.stringMatching(/\/alerts\?status=open$/),
    });
    expect(hook.alerts).toHaveLength(10);
    expect(hook.alerts[0]).toMatchObject({
      title: expect.stringMatching(/^Switch port down \(p\d+\)$/),
      description: expect.stringMatching(/^link lost on p\d+$/),
    });
    const mail = mailsTo(w)[0]!;
    expect(mail.subject).toContain('CRITICAL: 20 alerts raised on “Default”');
    expect(mail.text).toMatch(/• CRITICAL Switch port down \((p\d+)\) \(link lost on \1\): http:\/\//);
    expect(mail.text).toContain('…and 10 more: http://');
    expect(on(w, 'slack')[0]!.body).toContain('20 alerts raised');

    // Each alert's own log names the summary, under the key it would have had alone.
    const one = (await w.api('GET', `/alerts/${alerts[15]!.id}`)).body;
    const sent = one.timeline.filter((e: { type: string }) => e.type === 'notification');
    expect(sent.map((e: { via: string }) => e.via).sort()).toEqual([
      'email',
      'pagerduty',
      'slack',
      'webhook',
    ]);
  });

  it('a storm longer than the window: periodic summaries, never one message per alert; its recovery too', async () => {
    const w = await setup('storm');
    const alerts = [];
    // Three minutes of a new alert every 10 s.
    for (let s = 0; s < 180; s += 10) {
      alerts.push(await raise(w, `s${s}`));
      await ran(w, alerts.length);
      await tick(10);
    }
    await until(
      10,
      () => on(w, 'hook').reduce((n, x) => n + raisedIn(x), 0),
      (n) => n === alerts.length,
      'all in summaries',
    );
    const hooks = on(w, 'hook');
    expect(hooks.length).toBeGreaterThanOrEqual(3);
    expect(hooks.length).toBeLessThanOrEqual(5);
    expect(hooks.reduce((n, x) => n + raisedIn(x), 0)).toBe(alerts.length);
    expect(on(w, 'slack').length).toBe(hooks.length);
    expect(on(w, 'pagerduty').length).toBe(alerts.length);

    // All recover at once: one summary of the resolutions, each PagerDuty incident resolved on its own.
    await resolveAlerts(
      h.store,
      w.workspace.id,
      { UUIDs: alerts.map((a) => a.id) },
      { type: 'system' },
      h.clock.now(),
    );
    await ran(w, alerts.length, 'resolve');
    await until(
      10,
      () => on(w, 'hook').length,
      (n) => n > hooks.length,
      'the recovery summary',
    );
    await tick(INTERVAL_S * 2);
    const after = on(w, 'hook').slice(hooks.length);
    expect(after).toHaveLength(1);
    expect(after[0]!.json.counts).toEqual({
      raised: 0,
      acknowledged: 0,
      resolved: alerts.length,
      total: alerts.length,
    });
    expect(on(w, 'pagerduty').filter((x) => x.json.event_action === 'resolve')).toHaveLength(alerts.length);
  });

  it('the grouped message’s acknowledge link acknowledges every alert in it', async () => {
    const w = await setup('ackall');
    const alerts = [];
    for (let i = 0; i < 12; i++) alerts.push(await raise(w, `a${i}`));
    await ran(w, 12);
    await tick(WAIT_S);
    const mail = await waitFor(
      async () => mailsTo(w)[0],
      (m) => m !== undefined,
      { what: 'the summary mail' },
    );
    const url = new URL(/Acknowledge: (\S+)/.exec(mail!.text ?? '')![1]!);
    const page = await h.request('GET', url.pathname + url.search, { host: url.host });
    expect(page.text).toContain('Acknowledge these 12 alerts?');
    const done = await h.request('POST', url.pathname, {
      host: url.host,
      raw: new URLSearchParams({ token: url.searchParams.get('token')! }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: `http://${url.host}`,
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(done.status).toBe(200);
    expect(done.text).toContain('You acknowledged 12 of the 12 alerts');
    for (const a of alerts) {
      const got = (await w.api('GET', `/alerts/${a.id}`)).body;
      expect(got.status).toBe('acknowledged');
      expect(got.acknowledged_by).toMatchObject({ type: 'link', via: 'email', recipient: w.admin.email });
    }
  });

  it('a restart between queueing and sending loses nothing: the next control plane sends the summary', async () => {
    const w = await setup('restart');
    for (let i = 0; i < 5; i++) await raise(w, `r${i}`);
    await ran(w, 5);
    // Queued, not sent: the control plane stops before its group window ends.
    await h.cp.stop();
    expect(on(w, 'hook')).toHaveLength(0);
    h.clock.advance(WAIT_S * 1000);
    const next = await startControlPlane({
      config: h.config,
      store: h.store,
      logger: silentLogger(),
      clock: h.clock,
    });
    try {
      await waitFor(
        async () => [on(w, 'hook').length, on(w, 'slack').length, mailsTo(w).length],
        (n) => n.every((x) => x === 1),
        { what: 'the summaries after the restart' },
      );
      expect(on(w, 'hook')[0]!.json.counts.total).toBe(5);
      expect(on(w, 'pagerduty')).toHaveLength(5);
    } finally {
      await next.stop();
    }
  });
});
