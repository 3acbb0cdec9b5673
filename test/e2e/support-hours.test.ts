import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlert } from '../../control-plane/src/domain/alerts/alerts.js';
import type { Harness } from '../support/harness.js';
import type { Receiver } from '../support/receivers.js';
import { startRoutingRig } from '../support/routing-rig.js';
import { waitFor } from '../support/wait.js';

/**
 * Support hours through the API and a real scheduler on a clock the test moves (it starts on Monday
 * 2026-06-01 12:00 UTC): bad support hours are one 422 naming every field; a `warning` alert outside
 * them is shown, waiting, and notifies no one until they begin; a `critical` one notifies at once; a
 * warning resolved before they begin never notifies.
 */
let rig: Awaited<ReturnType<typeof startRoutingRig>>;
let h: Harness;
let rx: Receiver;
beforeAll(async () => {
  rig = await startRoutingRig({ config: { heartbeat_check_ms: 20 } });
  ({ h, rx } = rig);
});
afterAll(() => rig.close());

type Ws = Awaited<ReturnType<Harness['workspace']>>;

const raise = (w: Ws, key: string, severity: 'critical' | 'warning') =>
  raiseAlert(
    h.store,
    {
      workspace_id: w.workspace.id,
      source_type: 'integration',
      source_id: 'src-1',
      cause: 'webhook',
      dedup_key: key,
      title: `Queue backlog (${key})`,
      severity,
    },
    h.clock.now(),
  ).then((r) => r.alert);

const settle = () => new Promise((r) => setTimeout(r, 300));

describe('support hours', () => {
  it('bad support hours: one 422 naming every bad field; nothing written', async () => {
    const w = await h.workspace('sh-bad');
    const policy = (await w.api('GET', '/escalation-policies')).body.data[0];
    const r = await w.api('PATCH', `/escalation-policies/${policy.id}`, {
      json: {
        support_hours: { timezone: 'Mars/Olympus', days: ['mon', 'funday'], start: '9:00', end: '24:00' },
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'support_hours.days[1]',
      'support_hours.end',
      'support_hours.start',
      'support_hours.timezone',
    ]);
    const same = await w.api('PATCH', `/escalation-policies/${policy.id}`, {
      json: { support_hours: { timezone: 'UTC', days: ['mon'], start: '09:00', end: '09:00' } },
    });
    expect(same.status).toBe(422);
    expect(same.body.error.details).toEqual([
      { field: 'support_hours.end', message: expect.stringContaining('must differ from start') },
    ]);
    expect((await w.api('GET', `/escalation-policies/${policy.id}`)).body.support_hours).toBeNull();
  });

  it('a warning outside support hours waits for them; a critical one does not; a warning resolved meanwhile never notifies', async () => {
    const w = await h.workspace('sh-wait');
    const hook = await w.api('POST', '/channels', {
      json: { name: 'ops', type: 'webhook', config: { url: rx.url('/sh-wait') } },
    });
    const policy = (await w.api('GET', '/escalation-policies')).body.data[0];
    // Tuesdays 09:00 to 18:00 in New York (13:00 UTC in June): now, Monday noon UTC, is outside.
    const set = await w.api('PATCH', `/escalation-policies/${policy.id}`, {
      json: {
        steps: [{ wait_minutes: 0, notify_channel_ids: [hook.body.id] }],
        support_hours: { timezone: 'america/new_york', days: ['tue'], start: '09:00', end: '18:00' },
      },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.support_hours).toEqual({
      timezone: 'America/New_York',
      days: ['tue'],
      start: '09:00',
      end: '18:00',
    });

    const warning = await raise(w, 'w1', 'warning');
    const gone = await raise(w, 'w2', 'warning');
    const critical = await raise(w, 'c1', 'critical');
    const titles = () => rx.on('/sh-wait').map((x) => x.json.alert.title as string);
    await waitFor(
      async () => titles(),
      (t) => t.includes('Queue backlog (c1)'),
      { what: 'the critical alert' },
    );
    await settle();
    expect(titles()).toEqual(['Queue backlog (c1)']);
    const shown = (await w.api('GET', `/alerts/${warning.id}`)).body;
    expect(shown).toMatchObject({ status: 'open', severity: 'warning' });
    expect(shown.escalation.waiting_for_support_hours_until).toBe('2026-06-02T13:00:00.000Z');
    expect(
      (await w.api('GET', `/alerts/${critical.id}`)).body.escalation.waiting_for_support_hours_until,
    ).toBeNull();

    // Resolved before support hours begin: it never notifies.
    await w.api('POST', '/alerts/resolve', { json: { UUIDs: [gone.id] } });
    h.clock.set('2026-06-02T12:59:00Z');
    await settle();
    expect(titles()).toEqual(['Queue backlog (c1)']);
    h.clock.set('2026-06-02T13:00:00Z');
    await waitFor(
      async () => titles(),
      (t) => t.length === 2,
      { what: 'the warning at 09:00 New York time' },
    );
    await settle();
    expect(titles()).toEqual(['Queue backlog (c1)', 'Queue backlog (w1)']);
    expect(
      (await w.api('GET', `/alerts/${warning.id}`)).body.escalation.waiting_for_support_hours_until,
    ).toBeNull();
  });

  it('a heartbeat’s severity is its alert’s, copied when it is raised', async () => {
    const w = await h.workspace('sh-copy');
    const hb = (
      await w.api('POST', '/heartbeats', {
        json: { display_name: 'nightly export', period_seconds: 60, grace_seconds: 30, severity: 'warning' },
      })
    ).body;
    expect(hb.severity).toBe('warning');
    expect((await h.request('GET', `/hb/ping/${hb.id}`)).status).toBe(200);
    h.clock.advance(91_000);
    const [alert] = await waitFor(
      async () => (await w.api('GET', `/alerts?source_id=${hb.id}`)).body.data,
      (a) => a.length === 1,
      { what: 'the heartbeat’s alert' },
    );
    expect(alert).toMatchObject({ source_type: 'heartbeat', severity: 'warning' });
    // Changing the heartbeat later does not change the alert raised before.
    await w.api('PATCH', `/heartbeats/${hb.id}`, { json: { severity: 'critical' } });
    expect((await w.api('GET', `/alerts/${alert.id}`)).body.severity).toBe('warning');
  });
});
