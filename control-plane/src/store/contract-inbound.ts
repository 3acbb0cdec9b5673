/**
 * Store contract scenarios for heartbeat deadlines, ping signals and inbound integrations; part of
 * the one contract suite (called from contract.ts, so every adapter runs them).
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Alert, Heartbeat, Integration, Ping } from '../domain/types.js';
import { fixtures } from './contract.js';
import type { Store } from './port.js';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

export const inboundScenarios = (ctx: () => { store: Store; ws: ReturnType<typeof fixtures.workspace> }) => {
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
    expect((await store.listPings(h.workspace_id, h.id, { limit: 10 })).data.length).toBe(7);
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

  it('refreshes an open alert on a repeated trigger, never a resolved one', async () => {
    const { store, ws } = ctx();
    const a = fixtures.alert(ws.workspace.id);
    await store.raiseAlert(a);
    const r = await store.refreshOpenAlert(
      ws.workspace.id,
      a.id,
      { title: 'Disk 99% full', description: 'sda1', severity: 'warning' },
      at(30),
    );
    expect(r).toMatchObject({
      id: a.id,
      title: 'Disk 99% full',
      description: 'sda1',
      severity: 'warning',
      updated_at: at(30),
      created_at: T0,
      status: 'open',
    });
    expect(
      await store.refreshOpenAlert(
        randomUUID(),
        a.id,
        { title: 'x', description: null, severity: 'info' },
        at(31),
      ),
    ).toBeNull();
    await store.resolveAlert(ws.workspace.id, a.id, { type: 'system' }, at(40));
    expect(
      await store.refreshOpenAlert(
        ws.workspace.id,
        a.id,
        { title: 'x', description: null, severity: 'info' },
        at(41),
      ),
    ).toBeNull();
    expect((await store.getAlert(ws.workspace.id, a.id))?.title).toBe('Disk 99% full');
  });

  it('stores integrations by key hash, pages them, updates and deletes within the workspace', async () => {
    const { store, ws } = ctx();
    const make = (i: number): Integration => ({
      id: randomUUID(),
      workspace_id: ws.workspace.id,
      name: `source ${i}`,
      kind: i % 2 ? 'alertmanager' : 'webhook',
      key_hash: randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', ''),
      key_last_four: 'wxyz',
      escalation_policy_id: i === 0 ? ws.defaultPolicy.id : null,
      created_at: at(i),
      updated_at: at(i),
    });
    const made = [make(0), make(1), make(2)];
    for (const m of made) await store.insertIntegration(m);
    await expect(store.insertIntegration({ ...make(3), key_hash: made[0]!.key_hash })).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(await store.findIntegrationByKeyHash(made[1]!.key_hash)).toEqual(made[1]);
    expect(await store.getIntegration(ws.workspace.id, made[0]!.id)).toEqual(made[0]);
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect(await store.getIntegration(other.workspace.id, made[0]!.id)).toBeNull();
    const p1 = await store.listIntegrations(ws.workspace.id, { limit: 2 });
    const p2 = await store.listIntegrations(ws.workspace.id, { limit: 2, cursor: p1.next_cursor! });
    expect([...p1.data, ...p2.data].map((i) => i.id)).toEqual([made[2]!.id, made[1]!.id, made[0]!.id]);
    expect(p2.next_cursor).toBeNull();
    const renamed = { ...made[0]!, name: 'renamed', key_hash: 'a'.repeat(64), updated_at: at(9) };
    expect(await store.updateIntegration(renamed)).toBe(true);
    expect(await store.updateIntegration({ ...renamed, workspace_id: other.workspace.id })).toBe(false);
    expect(await store.findIntegrationByKeyHash('a'.repeat(64))).toEqual(renamed);
    expect(await store.findIntegrationByKeyHash(made[0]!.key_hash)).toBeNull();
    expect(await store.deleteIntegration(other.workspace.id, made[0]!.id)).toBe(false);
    expect(await store.deleteIntegration(ws.workspace.id, made[0]!.id)).toBe(true);
    expect(await store.getIntegration(ws.workspace.id, made[0]!.id)).toBeNull();
  });
};
