/**
 * Store contract, alert routing part: acknowledgement, the escalation claim protocol, policies,
 * channels, the delivery log and maintenance windows. Called from `storeContract` (contract.ts), so it
 * runs against every adapter.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type {
  Alert,
  Delivery,
  EscalationPolicy,
  MaintenanceWindow,
  NotificationChannel,
} from '../domain/types.js';
import type { Store } from './port.js';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

interface Ctx {
  store: Store;
  ws: { workspace: { id: string }; admin: { id: string }; defaultPolicy: EscalationPolicy };
  alert(ws: string, over?: Partial<Alert>): Alert;
  monitor(ws: string, policy: string): Parameters<Store['insertMonitor']>[0];
}

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
  test: false,
  at: T0,
  ...over,
});

export const routingScenarios = (ctx: () => Ctx) => {
  describe('alert routing', () => {
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
        escalation_due_at: null,
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
      expect((await store.getAlert(w, b.id))?.escalation_due_at).toBeNull();
    });

    it('keeps one default policy per workspace; refuses to delete the default or one in use', async () => {
      const { store, ws, monitor } = ctx();
      const w = ws.workspace.id;
      const mk = (over: Partial<EscalationPolicy> = {}): EscalationPolicy => ({
        ...ws.defaultPolicy,
        id: randomUUID(),
        name: 'On call',
        is_default: false,
        steps: [{ wait_minutes: 5, notify_user_ids: [ws.admin.id], notify_channel_ids: [] }],
        repeat: 2,
        created_at: at(1),
        updated_at: at(1),
        ...over,
      });
      const p1 = mk();
      await store.insertEscalationPolicy(p1);
      expect(await store.getEscalationPolicy(w, p1.id)).toEqual(p1);
      const p2 = mk({ is_default: true, created_at: at(2) });
      await store.insertEscalationPolicy(p2);
      expect((await store.getDefaultEscalationPolicy(w))?.id).toBe(p2.id);
      // newest first, paged
      const first = await store.listEscalationPolicies(w, { limit: 2 });
      expect(first.data.map((p) => [p.id, p.is_default])).toEqual([
        [p2.id, true],
        [p1.id, false],
      ]);
      const rest = await store.listEscalationPolicies(w, { limit: 2, cursor: first.next_cursor! });
      expect(rest.data.map((p) => [p.id, p.is_default])).toEqual([[ws.defaultPolicy.id, false]]);
      expect(rest.next_cursor).toBeNull();
      expect(await store.updateEscalationPolicy({ ...p1, is_default: true, name: 'Renamed' })).toBe(true);
      expect((await store.getDefaultEscalationPolicy(w))?.name).toBe('Renamed');
      expect(
        (await store.listEscalationPolicies(w, { limit: 10 })).data.filter((p) => p.is_default),
      ).toHaveLength(1);
      expect(await store.updateEscalationPolicy({ ...p1, id: randomUUID() })).toBe(false);
      expect(await store.deleteEscalationPolicy(w, p1.id)).toBe('is_default');
      await store.insertMonitor(monitor(w, p2.id), { maxMonitors: 10 });
      expect(await store.deleteEscalationPolicy(w, p2.id)).toBe('in_use');
      expect(await store.deleteEscalationPolicy(w, ws.defaultPolicy.id)).toBe('deleted');
      expect(await store.deleteEscalationPolicy(w, ws.defaultPolicy.id)).toBe('not_found');
      expect(await store.deleteEscalationPolicy(randomUUID(), p2.id)).toBe('not_found');
    });

    it('stores channels per workspace and refuses to delete one a policy notifies', async () => {
      const { store, ws } = ctx();
      const w = ws.workspace.id;
      const c: NotificationChannel = {
        id: randomUUID(),
        workspace_id: w,
        name: 'ops hook',
        type: 'webhook',
        config: { type: 'webhook', url: 'https://hooks.example/x', headers: { 'x-a': 'b' } },
        secret: 'whsec_abc',
        created_at: T0,
        updated_at: T0,
      };
      await store.insertChannel(c);
      expect(await store.getChannel(w, c.id)).toEqual(c);
      expect(await store.getChannel(randomUUID(), c.id)).toBeNull();
      const renamed = { ...c, name: 'renamed', updated_at: at(1) };
      expect(await store.updateChannel(renamed)).toBe(true);
      expect(await store.listChannels(w, { limit: 10 })).toEqual({ data: [renamed], next_cursor: null });
      const later = { ...c, id: randomUUID(), name: 'later', created_at: at(5), updated_at: at(5) };
      await store.insertChannel(later);
      const page1 = await store.listChannels(w, { limit: 1 });
      expect(page1.data.map((x) => x.id)).toEqual([later.id]);
      const page2 = await store.listChannels(w, { limit: 1, cursor: page1.next_cursor! });
      expect(page2).toEqual({ data: [renamed], next_cursor: null });
      await store.deleteChannel(w, later.id);
      await store.insertEscalationPolicy({
        ...ws.defaultPolicy,
        id: randomUUID(),
        is_default: false,
        steps: [
          { wait_minutes: 0, notify_user_ids: [], notify_channel_ids: [] },
          { wait_minutes: 5, notify_user_ids: [], notify_channel_ids: [c.id] },
        ],
      });
      expect(await store.deleteChannel(w, c.id)).toBe('in_use');
      const free = { ...c, id: randomUUID() };
      await store.insertChannel(free);
      expect(await store.deleteChannel(w, free.id)).toBe('deleted');
      expect(await store.deleteChannel(w, free.id)).toBe('not_found');
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

    it('finds the maintenance window covering a source at a time', async () => {
      const { store, ws } = ctx();
      const w = ws.workspace.id;
      const monitorId = randomUUID();
      const mw = (over: Partial<MaintenanceWindow>): MaintenanceWindow => ({
        id: randomUUID(),
        workspace_id: w,
        name: 'deploy',
        scope_type: 'monitor',
        scope_id: monitorId,
        starts_at: at(0),
        ends_at: at(600),
        created_at: T0,
        ...over,
      });
      const forMonitor = mw({});
      const wholeLater = mw({
        scope_type: 'workspace',
        scope_id: null,
        starts_at: at(1000),
        ends_at: at(2000),
      });
      for (const x of [forMonitor, wholeLater]) await store.insertMaintenanceWindow(x);
      const src = { type: 'monitor', id: monitorId };
      expect((await store.findActiveMaintenanceWindow(w, src, at(0)))?.id).toBe(forMonitor.id);
      expect(await store.findActiveMaintenanceWindow(w, src, at(600))).toBeNull();
      expect(
        await store.findActiveMaintenanceWindow(w, { type: 'monitor', id: randomUUID() }, at(5)),
      ).toBeNull();
      expect(
        await store.findActiveMaintenanceWindow(w, { type: 'heartbeat', id: monitorId }, at(5)),
      ).toBeNull();
      expect(
        (await store.findActiveMaintenanceWindow(w, { type: 'integration', id: 'x' }, at(1500)))?.id,
      ).toBe(wholeLater.id);
      expect(await store.findActiveMaintenanceWindow(randomUUID(), src, at(5))).toBeNull();
      expect((await store.listMaintenanceWindows(w, { limit: 10 })).data.map((x) => x.id)).toEqual([
        wholeLater.id,
        forMonitor.id,
      ]);
      // paged on the start time
      const mw1 = await store.listMaintenanceWindows(w, { limit: 1 });
      expect(mw1.data.map((x) => x.id)).toEqual([wholeLater.id]);
      const mw2 = await store.listMaintenanceWindows(w, { limit: 1, cursor: mw1.next_cursor! });
      expect(mw2.data.map((x) => x.id)).toEqual([forMonitor.id]);
      expect(mw2.next_cursor).toBeNull();
      expect(await store.getMaintenanceWindow(w, forMonitor.id)).toEqual(forMonitor);
      expect(await store.deleteMaintenanceWindow(w, forMonitor.id)).toBe(true);
      expect(await store.deleteMaintenanceWindow(w, forMonitor.id)).toBe(false);
      expect(await store.findActiveMaintenanceWindow(w, src, at(5))).toBeNull();
    });
  });
};
