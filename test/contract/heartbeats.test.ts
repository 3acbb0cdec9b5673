/**
 * HeartbeatStore contract: heartbeats, pings and deadline steps. The rules themselves are
 * held by generated sequences in heartbeat-rules.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import type { Alert, Heartbeat, Ping } from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, fixtures, T0 } from './fixtures.js';
import { contract } from './stores.js';

contract('HeartbeatStore', (c) => {
  let store: Store;
  let ws: ReturnType<typeof fixtures.workspace>;
  beforeEach(() => {
    ({ store, ws } = c());
  });
  const ctx = () => ({ ...c(), alert: fixtures.alert, monitor: fixtures.monitor });
  const setup = async (over: Partial<Heartbeat> = {}) => {
    const { store, ws } = ctx();
    const h = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, {
      period_seconds: 600,
      grace_seconds: 60,
      ...over,
    });
    await store.insertHeartbeat(h);
    const ping = (s: number, kind: Ping['kind'] = 'success', more: Partial<Ping> = {}): Ping => ({
      id: randomUUID(),
      heartbeat_id: h.id,
      workspace_id: ws.workspace.id,
      kind,
      at: at(s),
      received_at: at(s),
      source: null,
      rid: null,
      exit_status: null,
      body: null,
      ...more,
    });
    const get = async () => (await store.findHeartbeat(h.id))!;
    return { store, ws, h, ping, get };
  };

  const heartbeatAlert = (h: Heartbeat, over: Partial<Alert> = {}) =>
    fixtures.alert(h.workspace_id, {
      source_type: 'heartbeat',
      source_id: h.id,
      cause: 'down',
      dedup_key: '',
      ...over,
    });

  it('stores a heartbeat, finds it by uuid alone, edits by version', async () => {
    const h = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id);
    await store.insertHeartbeat(h);
    expect(await store.findHeartbeat(h.id)).toEqual(h);
    const next = { ...h, display_name: 'hourly', period_seconds: 3600, version: 2, updated_at: at(1) };
    expect(await store.updateHeartbeat(next, 1)).toBe('updated');
    expect(await store.updateHeartbeat(next, 1)).toBe('conflict');
    // An edit leaves state and deadline to pings and the job, and makes the heartbeat due now.
    expect(await store.getHeartbeat(ws.workspace.id, h.id)).toEqual({
      ...next,
      due_at: at(1),
      state_version: 1,
    });
    const page = await store.listHeartbeats(ws.workspace.id, { limit: 10 });
    expect(page.data.map((x) => x.id)).toEqual([h.id]);
  });

  it('lists by a search over name and slug (case-insensitive, literal), paging through the matches', async () => {
    const make = (display_name: string, slug: string | null, s: number) =>
      fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, { display_name, slug, created_at: at(s) });
    const all = [
      make('Nightly Backup', null, 1),
      make('billing export', 'backup-billing', 2),
      make('cron (a.b)', null, 3),
      make('Report', 'report', 4),
      make('ÖLPUMPE Süd', null, 5),
    ];
    for (const h of all) await store.insertHeartbeat(h);
    const names = async (search: string, limit = 10, cursor?: string) => {
      const p = await store.listHeartbeats(ws.workspace.id, { limit, search, cursor });
      return { names: p.data.map((x) => x.display_name), next: p.next_cursor };
    };
    expect((await names('BACKUP')).names).toEqual(['billing export', 'Nightly Backup']);
    expect((await names('(a.b)')).names).toEqual(['cron (a.b)']);
    expect((await names('a.b)x')).names).toEqual([]);
    expect((await names('.*')).names).toEqual([]);
    // Every letter folds, not only ASCII ones.
    expect((await names('ölpumpe süd')).names).toEqual(['ÖLPUMPE Süd']);
    expect((await names('SÜD')).names).toEqual(['ÖLPUMPE Süd']);
    const first = await names('backup', 1);
    expect(first.names).toEqual(['billing export']);
    expect((await names('backup', 1, first.next!)).names).toEqual(['Nightly Backup']);
    expect((await store.listHeartbeats(ws.workspace.id, { limit: 10 })).data).toHaveLength(5);
  });

  it('records a batch of pings durably and moves last_ping_at forward only', async () => {
    const h = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id);
    await store.insertHeartbeat(h);
    const ping = (s: number, kind: Ping['kind'] = 'success'): Ping => ({
      id: randomUUID(),
      heartbeat_id: h.id,
      workspace_id: ws.workspace.id,
      kind,
      at: at(s),
      received_at: at(100),
      source: '127.0.0.1',
      rid: null,
      exit_status: null,
      body: null,
    });
    await store.recordPings([ping(10), ping(30), ping(20), ping(40, 'start')]);
    let got = await store.findHeartbeat(h.id);
    expect(got?.last_ping_at).toEqual(at(30));
    expect(got?.state).toBe('up');
    await store.recordPings([ping(5)]);
    got = await store.findHeartbeat(h.id);
    expect(got?.last_ping_at).toEqual(at(30));
    const pings = (await store.listPings(ws.workspace.id, h.id, { limit: 10 })).data;
    expect(pings.map((p) => p.at.getTime())).toEqual([40, 30, 20, 10, 5].map((s) => at(s).getTime()));
    expect((await store.listPings(randomUUID(), h.id, { limit: 10 })).data).toEqual([]);
    // paged by ping time (newest first), ties broken by id; every ping once
    await store.recordPings([ping(20), ping(20)]);
    const seen: Ping[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.listPings(ws.workspace.id, h.id, { limit: 2, cursor });
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen.map((p) => p.at.getTime())).toEqual([40, 30, 20, 20, 20, 10, 5].map((s) => at(s).getTime()));
    expect(new Set(seen.map((p) => p.id)).size).toBe(7);
  });

  it('pings set state and the next deadline: success, start (run must end within grace), fail', async () => {
    const { store, ping, get } = await setup();
    await store.recordPings([ping(10)]);
    let h = await get();
    expect(h).toMatchObject({ state: 'up', last_ping_at: at(10), due_at: at(610), alert_id: null });
    expect(h.state_version).toBe(1);
    // A run starting at 100 must end by 160, sooner than the period deadline.
    await store.recordPings([ping(100, 'start', { rid: 'r1' })]);
    h = await get();
    expect(h).toMatchObject({ state: 'up', started_at: at(100), start_rid: 'r1', due_at: at(160) });
    expect(h.last_ping_at).toEqual(at(10));
    // Another run's finish leaves r1 pending; r1's own finish ends it.
    await store.recordPings([ping(120, 'success', { rid: 'other' })]);
    h = await get();
    expect(h).toMatchObject({ last_ping_at: at(120), started_at: at(100), start_rid: 'r1', due_at: at(160) });
    await store.recordPings([ping(130, 'success', { rid: 'r1', exit_status: 0, body: 'ok\n' })]);
    h = await get();
    expect(h).toMatchObject({ state: 'up', started_at: null, start_rid: null, due_at: at(730) });
    // A failure: down, due at once (the job raises the alert).
    await store.recordPings([ping(140, 'fail', { exit_status: 3, received_at: at(141) })]);
    h = await get();
    expect(h).toMatchObject({ state: 'down', due_at: at(141), last_ping_at: at(140) });
    expect(h.state_version).toBe(5);
    const [latest] = (await store.listPings(h.workspace_id, h.id, { limit: 1 })).data;
    expect(latest).toMatchObject({ kind: 'fail', exit_status: 3, rid: null, body: null });
    const stored = (await store.listPings(h.workspace_id, h.id, { limit: 10 })).data;
    expect(stored.find((p) => p.body === 'ok\n')).toMatchObject({ rid: 'r1', exit_status: 0 });
  });

  it('a ping older than the last ping (or a start older than the pending run) is logged but moves nothing', async () => {
    const { store, h, ping, get } = await setup();
    await store.recordPings([ping(100)]);
    const before = await get();
    expect(before).toMatchObject({ state: 'up', last_ping_at: at(100), due_at: at(700) });
    // Each older ping alone, then all three in one batch: last_ping_at, state, run and deadline stay.
    for (const kind of ['success', 'fail', 'start'] as const) await store.recordPings([ping(50, kind)]);
    await store.recordPings([ping(60), ping(61, 'fail'), ping(62, 'start')]);
    expect(await get()).toEqual(before);
    expect((await store.listPings(h.workspace_id, h.id, { limit: 10 })).data).toHaveLength(7);
    // The same time is not older: a fail at the last ping's time counts.
    await store.recordPings([ping(100, 'fail', { received_at: at(101) })]);
    expect(await get()).toMatchObject({ state: 'down', last_ping_at: at(100), due_at: at(101) });
    // A start older than the pending run's start does not replace it; a newer one does.
    await store.recordPings([ping(200), ping(300, 'start', { rid: 'b' })]);
    await store.recordPings([ping(250, 'start', { rid: 'a' })]);
    expect(await get()).toMatchObject({ state: 'up', started_at: at(300), start_rid: 'b', due_at: at(360) });
    await store.recordPings([ping(310, 'start', { rid: 'c' })]);
    expect(await get()).toMatchObject({ started_at: at(310), start_rid: 'c', due_at: at(360) });
  });

  it('after a manual resolve (rearmed_at): a start gets a run deadline, a fail or success clears it, a raise too', async () => {
    // Down with its alert open: a start adds no deadline (the outage is already alerted).
    const open = await setup({ state: 'down', last_ping_at: at(0), alert_id: 'a-open', due_at: null });
    await open.store.recordPings([open.ping(600, 'start')]);
    expect(await open.get()).toMatchObject({ started_at: at(600), due_at: null });
    // Down, its alert resolved by hand: a start must end within the grace.
    const { store, h, ping, get } = await setup({
      state: 'down',
      last_ping_at: at(0),
      rearmed_at: at(500),
      due_at: at(1160),
    });
    await store.recordPings([ping(600, 'start', { rid: 'r' })]);
    expect(await get()).toMatchObject({
      state: 'down',
      started_at: at(600),
      due_at: at(660),
      rearmed_at: at(500),
    });
    await store.recordPings([ping(700, 'fail', { received_at: at(701) })]);
    expect(await get()).toMatchObject({ state: 'down', due_at: at(701), rearmed_at: null, alert_id: null });
    const succeeded = await setup({
      state: 'down',
      last_ping_at: at(0),
      rearmed_at: at(500),
      due_at: at(1160),
    });
    await succeeded.store.recordPings([succeeded.ping(800)]);
    expect(await succeeded.get()).toMatchObject({ state: 'up', due_at: at(1400), rearmed_at: null });
    // The job's raise clears it.
    const read = await get();
    const stepped = await store.stepHeartbeat({
      workspace_id: h.workspace_id,
      id: h.id,
      expected_state_version: read.state_version,
      next: { state: 'down', due_at: null },
      at: at(702),
      raise: heartbeatAlert(h, { cause: 'fail' }),
    });
    expect(stepped.created).toBe(true);
    const timed = await setup({ state: 'down', last_ping_at: at(0), rearmed_at: at(500), due_at: at(1160) });
    const r = await timed.store.stepHeartbeat({
      workspace_id: timed.h.workspace_id,
      id: timed.h.id,
      expected_state_version: (await timed.get()).state_version,
      next: { state: 'down', due_at: null },
      at: at(1160),
      raise: heartbeatAlert(timed.h),
    });
    expect(r.stepped).toBe(true);
    expect(await timed.get()).toMatchObject({ alert_id: r.alert!.id, rearmed_at: null, due_at: null });
    // A step without a raise (an edit made it due early) keeps it.
    const kept = await setup({ state: 'down', last_ping_at: at(0), rearmed_at: at(500), due_at: at(510) });
    await kept.store.stepHeartbeat({
      workspace_id: kept.h.workspace_id,
      id: kept.h.id,
      expected_state_version: (await kept.get()).state_version,
      next: { state: 'down', due_at: at(1160) },
      at: at(510),
    });
    expect(await kept.get()).toMatchObject({ rearmed_at: at(500), due_at: at(1160) });
  });

  it('a paused heartbeat records pings but keeps its state and has no deadline', async () => {
    const { store, ping, get } = await setup({ paused: true, state: 'paused' });
    await store.recordPings([ping(10), ping(20, 'fail')]);
    expect(await get()).toMatchObject({ state: 'paused', due_at: null, last_ping_at: at(20) });
  });

  it('lists due heartbeats soonest first, only those due', async () => {
    const { store, ws } = ctx();
    const make = async (due: Date | null) => {
      const h = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, { due_at: due });
      await store.insertHeartbeat(h);
      return h.id;
    };
    const late = await make(at(50));
    const early = await make(at(10));
    await make(at(500));
    await make(null);
    expect((await store.listDueHeartbeats(at(100), 10)).map((h) => h.id)).toEqual([early, late]);
    expect((await store.listDueHeartbeats(at(100), 1)).map((h) => h.id)).toEqual([early]);
  });

  it('steps by compare-and-set on state_version, raising one alert even when replicas race', async () => {
    const { store, h, ping, get } = await setup({ state: 'late', due_at: at(660) });
    await store.recordPings([ping(0)]);
    const read = await get();
    const steps = await Promise.all(
      Array.from({ length: 4 }, () =>
        store.stepHeartbeat({
          workspace_id: h.workspace_id,
          id: h.id,
          expected_state_version: read.state_version,
          next: { state: 'down', due_at: null },
          at: at(661),
          raise: heartbeatAlert(h),
        }),
      ),
    );
    expect(steps.filter((s) => s.stepped).length).toBe(1);
    const won = steps.find((s) => s.stepped)!;
    expect(won.created).toBe(true);
    const after = await get();
    expect(after).toMatchObject({ state: 'down', due_at: null, alert_id: won.alert!.id });
    expect(after.state_version).toBe(read.state_version + 1);
    const open = await store.listAlerts(h.workspace_id, { limit: 10, source_id: h.id });
    expect(open.data.map((a) => a.id)).toEqual([won.alert!.id]);
    // A stale step (the version moved) changes nothing.
    const stale = await store.stepHeartbeat({
      workspace_id: h.workspace_id,
      id: h.id,
      expected_state_version: read.state_version,
      next: { state: 'up', due_at: at(9999) },
      at: at(662),
      resolve: { type: 'system' },
    });
    expect(stale).toEqual({ stepped: false, alert: null, created: false });
    expect((await get()).state).toBe('down');
  });

  it('a success after down makes the heartbeat due now; the resolving step frees the key for a new alert', async () => {
    const { store, h, ping, get } = await setup({ state: 'late' });
    const raised = await store.stepHeartbeat({
      workspace_id: h.workspace_id,
      id: h.id,
      expected_state_version: 0,
      next: { state: 'down', due_at: null },
      at: at(700),
      raise: heartbeatAlert(h),
    });
    const alertId = raised.alert!.id;
    await store.recordPings([ping(800, 'success', { received_at: at(801) })]);
    const up = await get();
    expect(up).toMatchObject({ state: 'up', due_at: at(801), alert_id: alertId });
    expect((await store.listDueHeartbeats(at(801), 10)).map((x) => x.id)).toContain(h.id);
    const resolved = await store.stepHeartbeat({
      workspace_id: h.workspace_id,
      id: h.id,
      expected_state_version: up.state_version,
      next: { state: 'up', due_at: at(1400) },
      at: at(802),
      resolve: { type: 'system' },
    });
    expect(resolved.stepped).toBe(true);
    expect(resolved.alert).toMatchObject({
      id: alertId,
      status: 'resolved',
      resolved_by: { type: 'system' },
      resolved_at: at(802),
    });
    expect(await get()).toMatchObject({ state: 'up', due_at: at(1400), alert_id: null });
    // A fail ping with an alert already open does not ask for another.
    await store.recordPings([ping(900, 'fail')]);
    const down = await get();
    expect(down.due_at).toEqual(at(900));
    const again = await store.stepHeartbeat({
      workspace_id: h.workspace_id,
      id: h.id,
      expected_state_version: down.state_version,
      next: { state: 'down', due_at: null },
      at: at(901),
      raise: heartbeatAlert(h, { cause: 'fail' }),
    });
    expect(again.created).toBe(true);
    expect(again.alert!.id).not.toBe(alertId);
    await store.recordPings([ping(950, 'fail')]);
    expect(await get()).toMatchObject({ state: 'down', due_at: null, alert_id: again.alert!.id });
  });

  it('deletes a heartbeat with its pings', async () => {
    const h = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id);
    await store.insertHeartbeat(h);
    await store.recordPings([
      {
        id: randomUUID(),
        heartbeat_id: h.id,
        workspace_id: ws.workspace.id,
        kind: 'success',
        at: T0,
        received_at: T0,
        source: null,
        rid: null,
        exit_status: null,
        body: null,
      },
    ]);
    expect(await store.deleteHeartbeat(ws.workspace.id, h.id)).toBe(true);
    expect(await store.findHeartbeat(h.id)).toBeNull();
    expect((await store.listPings(ws.workspace.id, h.id, { limit: 10 })).data).toEqual([]);
    expect(await store.deleteHeartbeat(ws.workspace.id, h.id)).toBe(false);
  });
});
