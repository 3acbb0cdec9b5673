/**
 * Contract of the routing ports: escalation policies (EscalationPolicyStore), notification channels
 * (ChannelStore), maintenance windows (MaintenanceWindowStore), kept together by both adapters.
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type {
  EscalationPolicy,
  Integration,
  MaintenanceWindow,
  NotificationChannel,
} from '../../control-plane/src/domain/types.js';
import { at, fixtures, T0 } from './fixtures.js';
import { contract } from './stores.js';

contract('EscalationPolicyStore, ChannelStore, MaintenanceWindowStore', (c) => {
  const ctx = () => ({ ...c(), alert: fixtures.alert, monitor: fixtures.monitor });

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
    expect(await store.deleteEscalationPolicy(w, p2.id)).toEqual({ in_use: ['monitors'] });
    expect(await store.deleteEscalationPolicy(w, ws.defaultPolicy.id)).toBe('deleted');
    expect(await store.deleteEscalationPolicy(w, ws.defaultPolicy.id)).toBe('not_found');
    expect(await store.deleteEscalationPolicy(randomUUID(), p2.id)).toBe('not_found');
  });

  it('refuses to delete a policy that an integration still uses, as one a monitor or heartbeat uses, naming each kind', async () => {
    const { store, ws, monitor } = ctx();
    const w = ws.workspace.id;
    const policy = (): EscalationPolicy => ({ ...ws.defaultPolicy, id: randomUUID(), is_default: false });
    const [p, q] = [policy(), policy()];
    await store.insertEscalationPolicy(p);
    await store.insertEscalationPolicy(q);
    const integration: Integration = {
      ...{ id: randomUUID(), workspace_id: w, name: 'alertmanager', kind: 'alertmanager' },
      ...{ key_hash: randomUUID().replaceAll('-', ''), key_last_four: 'abcd', escalation_policy_id: p.id },
      ...{ created_at: T0, updated_at: T0 },
    };
    await store.insertIntegration(integration);
    expect(await store.deleteEscalationPolicy(w, p.id)).toEqual({ in_use: ['integrations'] });
    const m = monitor(w, p.id);
    await store.insertMonitor(m, { maxMonitors: 10 });
    const h = fixtures.heartbeat(w, p.id);
    await store.insertHeartbeat(h);
    expect(await store.deleteEscalationPolicy(w, p.id)).toEqual({
      in_use: ['monitors', 'heartbeats', 'integrations'],
    });
    await store.deleteMonitor(w, m.id);
    await store.deleteHeartbeat(w, h.id);
    // Moved to another policy, or to the workspace default (none named): the policy can go.
    expect(await store.updateIntegration({ ...integration, escalation_policy_id: q.id })).toBe(true);
    expect(await store.deleteEscalationPolicy(w, p.id)).toBe('deleted');
    expect(await store.deleteEscalationPolicy(w, q.id)).toEqual({ in_use: ['integrations'] });
    expect(await store.updateIntegration({ ...integration, escalation_policy_id: null })).toBe(true);
    expect(await store.deleteEscalationPolicy(w, q.id)).toBe('deleted');
    expect((await store.getIntegration(w, integration.id))?.escalation_policy_id).toBeNull();
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
      schedule: null,
      timezone: null,
      duration_seconds: null,
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
    expect((await store.findActiveMaintenanceWindow(w, { type: 'integration', id: 'x' }, at(1500)))?.id).toBe(
      wholeLater.id,
    );
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
    // An edit replaces name and times, in this workspace only; the window then covers its new times.
    const moved = { ...wholeLater, name: 'moved', starts_at: at(3000), ends_at: at(4000) };
    expect(await store.updateMaintenanceWindow({ ...moved, workspace_id: randomUUID() })).toBe(false);
    expect(await store.getMaintenanceWindow(w, wholeLater.id)).toEqual(wholeLater);
    expect(await store.updateMaintenanceWindow(moved)).toBe(true);
    expect(await store.getMaintenanceWindow(w, wholeLater.id)).toEqual(moved);
    expect(await store.findActiveMaintenanceWindow(w, src, at(1500))).toBeNull();
    expect((await store.findActiveMaintenanceWindow(w, src, at(3500)))?.id).toBe(wholeLater.id);
    expect(await store.updateMaintenanceWindow({ ...moved, id: randomUUID() })).toBe(false);
    expect(await store.findActiveMaintenanceWindow(w, src, at(5))).toBeNull();
  });

  it('recurring windows and group/tag scopes: the live windows, and the one covering a source', async () => {
    const { store, ws } = ctx();
    const w = ws.workspace.id;
    const groupId = randomUUID();
    const base = {
      workspace_id: w,
      ends_at: null,
      timezone: 'Europe/Berlin',
      created_at: T0,
    };
    // Every night 02:00–03:00 Berlin (01:00–02:00 UTC in March before the change) for a group.
    const nightly: MaintenanceWindow = {
      ...base,
      id: randomUUID(),
      name: 'nightly',
      scope_type: 'group',
      scope_id: groupId,
      starts_at: T0,
      schedule: '0 2 * * *',
      duration_seconds: 3600,
    };
    const tagged: MaintenanceWindow = {
      ...base,
      id: randomUUID(),
      name: 'db',
      scope_type: 'tag',
      scope_id: 'team:db',
      starts_at: T0,
      schedule: '0 12 * * *',
      duration_seconds: 600,
    };
    const ended: MaintenanceWindow = {
      ...nightly,
      id: randomUUID(),
      name: 'over',
      scope_type: 'workspace',
      scope_id: null,
      schedule: null,
      timezone: null,
      duration_seconds: null,
      starts_at: at(-7200),
      ends_at: at(-3600),
    };
    for (const x of [nightly, tagged, ended]) await store.insertMaintenanceWindow(x);
    expect(await store.getMaintenanceWindow(w, nightly.id)).toEqual(nightly);
    const live = await store.listLiveMaintenanceWindows(w, T0, 10);
    expect(live.map((x) => x.id).sort()).toEqual([nightly.id, tagged.id].sort());
    expect(await store.listLiveMaintenanceWindows(w, T0, 1)).toHaveLength(1);
    expect(await store.listLiveMaintenanceWindows(randomUUID(), T0, 10)).toEqual([]);
    const member = { type: 'monitor', id: randomUUID(), group_id: groupId, tags: ['team:db'] };
    const night = new Date('2026-03-02T01:30:00Z'); // 02:30 in Berlin
    expect((await store.findActiveMaintenanceWindow(w, member, night))?.id).toBe(nightly.id);
    expect(
      await store.findActiveMaintenanceWindow(w, { ...member, group_id: null, tags: [] }, night),
    ).toBeNull();
    expect(await store.findActiveMaintenanceWindow(w, member, new Date('2026-03-02T02:00:00Z'))).toBeNull();
    expect((await store.findActiveMaintenanceWindow(w, member, new Date('2026-03-02T11:05:00Z')))?.id).toBe(
      tagged.id,
    );
    expect(
      await store.findActiveMaintenanceWindow(
        w,
        { ...member, tags: ['team'] },
        new Date('2026-03-02T11:05:00Z'),
      ),
    ).toBeNull();
    // Before the window began to recur, its occurrences do not count.
    expect(await store.findActiveMaintenanceWindow(w, member, new Date('2026-03-01T01:30:00Z'))).toBeNull();
    // Retention: one-off windows ended before the cut go (at most `limit`); recurring ones never end.
    expect(await store.pruneMaintenanceWindows(at(-3600), 10)).toBe(0);
    expect(await store.pruneMaintenanceWindows(at(0), 10)).toBe(1);
    expect(await store.getMaintenanceWindow(w, ended.id)).toBeNull();
    expect(await store.getMaintenanceWindow(w, tagged.id)).toEqual(tagged);
    // An edit replaces the rule.
    const moved = { ...nightly, schedule: '0 4 * * *', timezone: 'UTC', duration_seconds: 1800 };
    expect(await store.updateMaintenanceWindow(moved)).toBe(true);
    expect(await store.getMaintenanceWindow(w, nightly.id)).toEqual(moved);
    expect(await store.findActiveMaintenanceWindow(w, member, night)).toBeNull();
    expect((await store.findActiveMaintenanceWindow(w, member, new Date('2026-03-02T04:10:00Z')))?.id).toBe(
      nightly.id,
    );
  });
});
