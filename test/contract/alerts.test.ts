/**
 * AlertStore contract: raise, resolve (with the re-arm of its source), acknowledge, refresh,
 * the escalation claim protocol and the delivery log.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import type {
  Alert,
  CheckResultRecord,
  Delivery,
  MonitorLocationState,
} from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { alertsBetweenCases } from './alerts-between.js';
import { at, fixtures, T0 } from './fixtures.js';
import { contract, locationStates, putState, seedLocationState } from './stores.js';

const escalating = (policyId: string, due: Date): Partial<Alert> => ({
  escalation: { policy_id: policyId, step: 0, round: 0, claim: null, suppressed_by: null, finished: false },
  escalation_due_at: due,
  dedup_key: randomUUID(),
});

const delivery = (ws: string, over: Partial<Delivery> = {}): Delivery => ({
  id: randomUUID(),
  workspace_id: ws,
  alert_id: null,
  channel_id: null,
  user_id: null,
  kind: 'webhook',
  target: 'http://127.0.0.1/hook',
  step: 0,
  round: 0,
  attempt: 1,
  outcome: 'sent',
  permanent: false,
  status_code: 200,
  error: null,
  idempotency_key: null,
  remote_id: null,
  test: false,
  at: T0,
  ...over,
});

contract('AlertStore', (c) => {
  let store: Store;
  let ws: ReturnType<typeof fixtures.workspace>;
  beforeEach(() => {
    ({ store, ws } = c());
  });
  const ctx = () => ({ ...c(), alert: fixtures.alert, monitor: fixtures.monitor });
  const statesOf = (monitorId: string, replay?: CheckResultRecord) =>
    locationStates(store, ws.workspace.id, monitorId, replay);

  it('raises at most one open alert per source, cause and dedup key, also concurrently', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => store.raiseAlert(fixtures.alert(ws.workspace.id))),
    );
    expect(results.filter((r) => r.created).length).toBe(1);
    const ids = new Set(results.map((r) => r.alert.id));
    expect(ids.size).toBe(1);
    const other = await store.raiseAlert(fixtures.alert(ws.workspace.id, { dedup_key: 'k2' }));
    expect(other.created).toBe(true);
    const key = {
      workspace_id: ws.workspace.id,
      source_type: 'integration' as const,
      source_id: 'webhook-1',
      cause: 'webhook',
      dedup_key: 'k2',
    };
    expect((await store.findOpenAlert(key))?.id).toBe(other.alert.id);
    const first = { ...key, dedup_key: results[0]!.alert.dedup_key };
    expect(
      (await store.findOpenAlerts([key, first, { ...key, dedup_key: 'none' }])).map((a) => a.id).sort(),
    ).toEqual([other.alert.id, results[0]!.alert.id].sort());
    expect(await store.findOpenAlerts([])).toEqual([]);
    await store.resolveAlert(ws.workspace.id, other.alert.id, { type: 'system' }, T0);
    expect(await store.findOpenAlert(key)).toBeNull();
    expect((await store.findOpenAlerts([key, first])).map((a) => a.id)).toEqual([results[0]!.alert.id]);
  });

  it('resolves by compare-and-set, never reopens; the same key then opens a new alert', async () => {
    const a = fixtures.alert(ws.workspace.id);
    await store.raiseAlert(a);
    const by = { type: 'user' as const, user_id: ws.admin.id, api_key_id: null };
    const r1 = await store.resolveAlert(ws.workspace.id, a.id, by, at(60));
    expect(r1.outcome).toBe('resolved');
    expect(r1.alert).toMatchObject({ status: 'resolved', resolved_by: by, resolved_at: at(60) });
    const r2 = await store.resolveAlert(ws.workspace.id, a.id, { type: 'system' }, at(90));
    expect(r2.outcome).toBe('already_resolved');
    expect(r2.alert?.resolved_by).toEqual(by);
    expect(r2.alert?.resolved_at).toEqual(at(90 - 30));
    const again = await store.raiseAlert(fixtures.alert(ws.workspace.id, { created_at: at(120) }));
    expect(again.created).toBe(true);
    expect(again.alert.id).not.toBe(a.id);
    expect((await store.getAlert(ws.workspace.id, a.id))?.status).toBe('resolved');
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect((await store.resolveAlert(other.workspace.id, again.alert.id, by, at(130))).outcome).toBe(
      'not_found',
    );
    expect((await store.getAlert(ws.workspace.id, again.alert.id))?.status).toBe('open');
  });

  it('resolving re-arms the source in the same step: a monitor leaves down, a heartbeat forgets the alert', async () => {
    const by = { type: 'user' as const, user_id: ws.admin.id, api_key_id: null };
    // A monitor whose monitor-level ('*') state is down with its 'down' alert open.
    const star: MonitorLocationState = {
      monitor_id: 'm-rearm',
      location: '*',
      status: 'down',
      consecutive_failures: 0,
      consecutive_successes: 0,
      consecutive_slow: 0,
      last_result_at: T0,
      last_scheduled_at: null,
      version: 1,
    };
    const eu = { ...star, location: 'eu-west', consecutive_failures: 3 };
    expect(await putState(store, star, 0)).toBe(true);
    await seedLocationState(store, ws.workspace.id, eu);
    const down = fixtures.alert(ws.workspace.id, {
      source_type: 'monitor',
      source_id: 'm-rearm',
      cause: 'down',
    });
    const slow = fixtures.alert(ws.workspace.id, {
      source_type: 'monitor',
      source_id: 'm-rearm',
      cause: 'slow',
    });
    await store.raiseAlert(down);
    await store.raiseAlert(slow);
    // A condition alert leaves the monitor-level state alone.
    await store.resolveAlert(ws.workspace.id, slow.id, by, at(10));
    expect(await statesOf('m-rearm')).toEqual([star, eu]);
    expect((await store.resolveAlert(ws.workspace.id, down.id, by, at(20))).outcome).toBe('resolved');
    // Down → unknown with the version bumped (a flip racing it loses its compare-and-set);
    // location states are untouched.
    expect(await statesOf('m-rearm')).toEqual([{ ...star, status: 'unknown', version: 2 }, eu]);
    expect(await putState(store, { ...star, status: 'up', version: 2 }, 1)).toBe(false);
    // Already resolved: nothing moves.
    await putState(store, { ...star, version: 3 }, 2);
    expect((await store.resolveAlert(ws.workspace.id, down.id, by, at(30))).outcome).toBe('already_resolved');
    expect((await statesOf('m-rearm'))[0]).toMatchObject({ status: 'down', version: 3 });

    // A heartbeat down with its alert: resolving forgets the alert, records when, and makes it due.
    const hbId = randomUUID();
    const hbAlert = fixtures.alert(ws.workspace.id, {
      source_type: 'heartbeat',
      source_id: hbId,
      cause: 'fail',
    });
    const hb = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, {
      id: hbId,
      state: 'down',
      last_ping_at: T0,
      alert_id: hbAlert.id,
      state_version: 4,
    });
    await store.insertHeartbeat(hb);
    await store.raiseAlert(hbAlert);
    // Another heartbeat's alert (or one the heartbeat no longer holds) changes nothing.
    const stray = fixtures.alert(ws.workspace.id, {
      source_type: 'heartbeat',
      source_id: hb.id,
      cause: 'down',
    });
    await store.raiseAlert(stray);
    await store.resolveAlert(ws.workspace.id, stray.id, by, at(40));
    expect(await store.findHeartbeat(hb.id)).toEqual(hb);
    await store.resolveAlert(ws.workspace.id, hbAlert.id, by, at(50));
    expect(await store.findHeartbeat(hb.id)).toEqual({
      ...hb,
      alert_id: null,
      rearmed_at: at(50),
      due_at: at(50),
      state_version: 5,
    });
    // One that already recovered (a success, the job not yet run) only forgets it.
    const upAlert = fixtures.alert(ws.workspace.id, {
      source_type: 'heartbeat',
      source_id: randomUUID(),
    });
    const up = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, {
      id: upAlert.source_id,
      state: 'up',
      alert_id: upAlert.id,
      due_at: at(45),
    });
    await store.insertHeartbeat(up);
    await store.raiseAlert(upAlert);
    await store.resolveAlert(ws.workspace.id, upAlert.id, by, at(50));
    expect(await store.findHeartbeat(up.id)).toEqual({
      ...up,
      alert_id: null,
      due_at: at(50),
      state_version: 1,
    });
  });

  it('lists with status, source and time filters and cursor pagination', async () => {
    const made: Alert[] = [];
    for (let i = 0; i < 5; i++) {
      const a = fixtures.alert(ws.workspace.id, {
        dedup_key: `k${i}`,
        created_at: at(i * 60),
        source_type: i < 3 ? 'integration' : 'heartbeat',
      });
      await store.raiseAlert(a);
      made.unshift(a);
    }
    await store.resolveAlert(ws.workspace.id, made[0]!.id, { type: 'system' }, at(400));
    const open = await store.listAlerts(ws.workspace.id, { limit: 10, status: ['open'] });
    expect(open.data.map((a) => a.id)).toEqual(made.slice(1).map((a) => a.id));
    const hb = await store.listAlerts(ws.workspace.id, { limit: 10, source_type: 'heartbeat' });
    expect(hb.data.length).toBe(2);
    const window = await store.listAlerts(ws.workspace.id, { limit: 10, since: at(60), until: at(180) });
    expect(window.data.map((a) => a.created_at)).toEqual([at(120), at(60)]);
    const p1 = await store.listAlerts(ws.workspace.id, { limit: 3 });
    const p2 = await store.listAlerts(ws.workspace.id, { limit: 3, cursor: p1.next_cursor! });
    expect([...p1.data, ...p2.data].map((a) => a.id)).toEqual(made.map((a) => a.id));
    expect(p2.next_cursor).toBeNull();
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

  it('acknowledges by compare-and-set: once, never a resolved alert, never another workspace’s', async () => {
    const { store, ws, alert } = ctx();
    const w = ws.workspace.id;
    const a = alert(w, escalating(ws.defaultPolicy.id, T0));
    await store.raiseAlert(a);
    const by = { type: 'user' as const, user_id: ws.admin.id, api_key_id: null };
    expect((await store.acknowledgeAlert(randomUUID(), a.id, by, at(1))).outcome).toBe('not_found');
    const r1 = await store.acknowledgeAlert(w, a.id, by, at(1));
    expect(r1.outcome).toBe('acknowledged');
    expect(r1.alert).toMatchObject({
      status: 'acknowledged',
      acknowledged_by: by,
      acknowledged_at: at(1),
      // due for its follow-ups (listDueFollowUps), no longer for a step
      escalation_due_at: at(1),
    });
    const r2 = await store.acknowledgeAlert(w, a.id, { type: 'system' }, at(2));
    expect(r2.outcome).toBe('already_acknowledged');
    expect(r2.alert?.acknowledged_at).toEqual(at(1));
    // still unresolved: the same key does not open a second alert
    const again = await store.raiseAlert({ ...a, id: randomUUID() });
    expect(again).toMatchObject({ created: false, alert: { id: a.id } });
    await store.resolveAlert(w, a.id, { type: 'system' }, at(3));
    expect((await store.acknowledgeAlert(w, a.id, by, at(4))).outcome).toBe('already_resolved');
    expect((await store.acknowledgeAlert(w, randomUUID(), by, at(4))).outcome).toBe('not_found');
  });

  it('claims a due step once among concurrent claimers, re-claims after the lease, advances by claim token', async () => {
    const { store, ws, alert } = ctx();
    const w = ws.workspace.id;
    const a = alert(w, escalating(ws.defaultPolicy.id, at(0)));
    const later = alert(w, escalating(ws.defaultPolicy.id, at(60)));
    await store.raiseAlert(a);
    await store.raiseAlert(later);
    expect((await store.listDueEscalations(at(0), 10)).map((x) => x.id)).toEqual([a.id]);
    expect((await store.listDueEscalations(at(60), 10)).map((x) => x.id)).toEqual([a.id, later.id]);
    expect(await store.claimEscalation(w, a.id, at(5), 'wrong-due', at(100))).toBeNull();
    const tokens = ['c1', 'c2', 'c3', 'c4'];
    const claims = await Promise.all(tokens.map((t) => store.claimEscalation(w, a.id, at(0), t, at(120))));
    const won = claims.filter((c) => c !== null);
    expect(won).toHaveLength(1);
    const token = won[0]!.escalation!.claim!;
    expect(tokens).toContain(token);
    expect(won[0]!.escalation_due_at).toEqual(at(120));
    // held: not due until the lease ends, then due again for whoever comes next
    expect((await store.listDueEscalations(at(60), 10)).map((x) => x.id)).toEqual([later.id]);
    expect((await store.listDueEscalations(at(120), 10)).map((x) => x.id)).toContain(a.id);
    const re = await store.claimEscalation(w, a.id, at(120), 'c9', at(240));
    expect(re?.escalation?.claim).toBe('c9');
    const next = {
      escalation: { ...a.escalation!, step: 1, claim: null },
      escalation_due_at: at(300),
    };
    expect(await store.advanceEscalation(w, a.id, token, next)).toBe(false);
    expect(await store.advanceEscalation(w, a.id, 'c9', next)).toBe(true);
    expect(await store.advanceEscalation(w, a.id, 'c9', next)).toBe(false);
    const stored = await store.getAlert(w, a.id);
    expect(stored?.escalation).toEqual(next.escalation);
    expect(stored?.escalation_due_at).toEqual(at(300));
  });

  it('acknowledging or resolving stops the escalation: nothing due, nothing to claim or advance', async () => {
    const { store, ws, alert } = ctx();
    const w = ws.workspace.id;
    const a = alert(w, escalating(ws.defaultPolicy.id, at(0)));
    const b = alert(w, escalating(ws.defaultPolicy.id, at(0)));
    await store.raiseAlert(a);
    await store.raiseAlert(b);
    const claimed = await store.claimEscalation(w, a.id, at(0), 'tok', at(100));
    expect(claimed).not.toBeNull();
    await store.acknowledgeAlert(w, a.id, { type: 'system' }, at(1));
    await store.resolveAlert(w, b.id, { type: 'system' }, at(1));
    expect(await store.listDueEscalations(at(1000), 10)).toEqual([]);
    expect(await store.claimEscalation(w, b.id, at(0), 'tok2', at(100))).toBeNull();
    expect(
      await store.advanceEscalation(w, a.id, 'tok', { escalation: a.escalation, escalation_due_at: at(5) }),
    ).toBe(false);
    expect(await store.listDueEscalations(at(1000), 10)).toEqual([]);
  });

  it('logs a grouped message’s attempt for each alert it named at once, in order, found by each key', async () => {
    const { store, ws } = ctx();
    const w = ws.workspace.id;
    const channelId = randomUUID();
    const ds = [0, 1, 2].map((i) =>
      delivery(w, { alert_id: randomUUID(), channel_id: channelId, idempotency_key: `g${i}` }),
    );
    await store.insertDeliveries(ds);
    await store.insertDeliveries([]);
    expect(await store.listDeliveries(w, { channel_id: channelId, limit: 10 })).toEqual(ds);
    for (const d of ds) expect(await store.hasSentDelivery(d.idempotency_key!)).toBe(true);
  });

  it('logs deliveries oldest first, by alert or channel, and finds sent ones by idempotency key', async () => {
    const { store, ws } = ctx();
    const w = ws.workspace.id;
    const alertId = randomUUID();
    const channelId = randomUUID();
    const d1 = delivery(w, {
      alert_id: alertId,
      channel_id: channelId,
      outcome: 'retrying',
      status_code: 500,
      error: 'HTTP 500',
      idempotency_key: 'k1',
    });
    const d2 = delivery(w, { alert_id: alertId, channel_id: channelId, attempt: 2, idempotency_key: 'k1' });
    const d3 = delivery(w, { alert_id: alertId, user_id: randomUUID(), kind: 'email', at: at(-5) });
    const d4 = delivery(w, {
      channel_id: channelId,
      test: true,
      at: at(10),
      outcome: 'failed',
      idempotency_key: 'k2',
    });
    for (const d of [d1, d2, d3, d4]) await store.insertDelivery(d);
    expect(await store.listDeliveries(w, { alert_id: alertId, limit: 10 })).toEqual([d3, d1, d2]);
    expect((await store.listDeliveries(w, { channel_id: channelId, limit: 10 })).map((d) => d.id)).toEqual([
      d1.id,
      d2.id,
      d4.id,
    ]);
    expect(await store.listDeliveries(randomUUID(), { alert_id: alertId, limit: 10 })).toEqual([]);
    expect(await store.hasSentDelivery('k1')).toBe(true);
    expect(await store.hasSentDelivery('k2')).toBe(false);
    expect(await store.hasSentDelivery('nope')).toBe(false);
  });

  it('acknowledging or resolving makes an escalated alert due for its follow-ups, claimed once, finished by claim and lease', async () => {
    const w = ws.workspace.id;
    const policy = ws.defaultPolicy.id;
    const [acked, resolved, open] = [0, 1, 2].map(() => fixtures.alert(w, escalating(policy, at(0))));
    const silent = fixtures.alert(w, { dedup_key: randomUUID(), escalation: null, escalation_due_at: null });
    for (const a of [acked!, resolved!, open!, silent]) await store.raiseAlert(a);
    await store.acknowledgeAlert(w, acked!.id, { type: 'system' }, at(20));
    await store.resolveAlert(w, resolved!.id, { type: 'system' }, at(10));
    await store.resolveAlert(w, silent.id, { type: 'system' }, at(10));
    // Soonest first; the open alert's step is not a follow-up; an alert without escalation reached nobody.
    expect((await store.listDueFollowUps(at(5), 10)).map((a) => a.id)).toEqual([]);
    expect((await store.listDueFollowUps(at(30), 10)).map((a) => a.id)).toEqual([resolved!.id, acked!.id]);
    expect(await store.listDueFollowUps(at(30), 1)).toHaveLength(1);
    expect((await store.getAlert(w, silent.id))?.escalation_due_at).toBeNull();
    expect(await store.claimFollowUp(w, open!.id, at(0), 'x', at(100))).toBeNull();
    expect(await store.claimFollowUp(w, resolved!.id, at(11), 'x', at(100))).toBeNull();
    const claims = await Promise.all(
      ['c1', 'c2', 'c3'].map((t) => store.claimFollowUp(w, resolved!.id, at(10), t, at(100))),
    );
    const won = claims.filter((c) => c !== null);
    expect(won).toHaveLength(1);
    const token = won[0]!.escalation!.claim!;
    expect(won[0]!.escalation_due_at).toEqual(at(100));
    // held until the lease ends, then due again for whoever comes next
    expect((await store.listDueFollowUps(at(99), 10)).map((a) => a.id)).toEqual([acked!.id]);
    expect((await store.listDueFollowUps(at(100), 10)).map((a) => a.id)).toContain(resolved!.id);
    expect(await store.finishFollowUp(w, resolved!.id, 'other', at(100))).toBe(false);
    expect(await store.finishFollowUp(w, resolved!.id, token, at(100))).toBe(true);
    expect((await store.getAlert(w, resolved!.id))?.escalation_due_at).toBeNull();
    // Acknowledged, claimed, then resolved meanwhile: the claim cannot finish; due again for "resolved".
    const c = await store.claimFollowUp(w, acked!.id, at(20), 'a1', at(200));
    expect(c).not.toBeNull();
    await store.resolveAlert(w, acked!.id, { type: 'system' }, at(50));
    expect(await store.finishFollowUp(w, acked!.id, 'a1', at(200))).toBe(false);
    expect((await store.listDueFollowUps(at(60), 10)).map((a) => [a.id, a.status])).toEqual([
      [acked!.id, 'resolved'],
    ]);
  });

  it('a channel’s delivery log pages newest first by a cursor, and only in its workspace', async () => {
    const w = ws.workspace.id;
    const channelId = randomUUID();
    const other = randomUUID();
    const ds = [0, 1, 2, 3, 4].map((i) =>
      delivery(w, { channel_id: channelId, at: at(i), remote_id: i === 4 ? '1100' : null }),
    );
    for (const d of [...ds, delivery(w, { channel_id: other, at: at(9) })]) await store.insertDelivery(d);
    const first = await store.listChannelDeliveries(w, channelId, { limit: 2 });
    expect(first.data.map((d) => d.id)).toEqual([ds[4]!.id, ds[3]!.id]);
    expect(first.data[0]).toEqual(ds[4]);
    const second = await store.listChannelDeliveries(w, channelId, { limit: 2, cursor: first.next_cursor! });
    expect(second.data.map((d) => d.id)).toEqual([ds[2]!.id, ds[1]!.id]);
    const last = await store.listChannelDeliveries(w, channelId, { limit: 2, cursor: second.next_cursor! });
    expect(last).toEqual({ data: [ds[0]], next_cursor: null });
    expect((await store.listChannelDeliveries(randomUUID(), channelId, { limit: 10 })).data).toEqual([]);
  });
  alertsBetweenCases(c);
});
