import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtures } from '../../../../test/contract/fixtures.js';
import { createSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { createCapabilityWatch } from './capability-alerts.js';
import { checkRegions } from './region-health.js';

const dir = mkdtempSync(join(tmpdir(), 'lookout-capability-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (s: number) => new Date(Date.parse('2026-06-01T00:00:00Z') + s * 1000);

describe('a region where no agent can run a type', () => {
  it('one alert per workspace, region and type — not per monitor; resolved when a capable agent comes', async () => {
    const store = createSqliteStore({ path: join(dir, 'caps.db') });
    await store.init();
    const ws = fixtures.workspace();
    await store.createWorkspace(ws);
    const add = (monitor_type: 'http' | 'ping' | 'redis') =>
      store.insertMonitor(
        fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, {
          monitor_type,
          check_locations: ['eu-west'],
        }),
        { maxMonitors: 20 },
      );
    for (let i = 0; i < 3; i++) await add('http');
    for (let i = 0; i < 4; i++) await add('ping');
    const agent = (id: string, check_types: string[], t: Date) => ({
      instance_id: id,
      region: 'eu-west',
      session_id: `s-${id}`,
      hostname: id,
      agent_version: '2',
      started_at: t,
      last_seen_at: t,
      check_types,
    });
    await store.registerAgent(agent('a', ['http', 'api', 'dns', 'tcp', 'domain'], at(0)));
    await store.touchAgentSession('a', 's-a', at(0), { resultsAt: at(0) });
    const watch = createCapabilityWatch();
    const open = async () =>
      (await store.listAlerts(ws.workspace.id, { limit: 20, status: ['open'] })).data.map((a) => a.title);
    await checkRegions(store, ['eu-west'], at(1), 45_000, undefined, watch);
    await checkRegions(store, ['eu-west'], at(2), 45_000, undefined, watch);
    expect(await open()).toEqual(['No agent in eu-west can run ping checks']);
    const [alert] = (await store.listAlerts(ws.workspace.id, { limit: 1 })).data;
    expect(alert).toMatchObject({ source_type: 'region', source_id: 'eu-west', cause: 'no_capable_agent' });
    expect(alert?.description).toMatch(/^4 ping monitor\(s\) run from eu-west/);

    // A capable agent registers: resolved by the system.
    await store.registerAgent(agent('b', ['http', 'ping'], at(3)));
    await checkRegions(store, ['eu-west'], at(4), 45_000, undefined, watch);
    expect(await open()).toEqual([]);
    expect((await store.listAlerts(ws.workspace.id, { limit: 5 })).data[0]).toMatchObject({
      status: 'resolved',
      resolved_by: { type: 'system' },
    });

    // It goes away (not seen for longer than the liveness window): the alert is raised again.
    await store.touchAgentSession('a', 's-a', at(100), { resultsAt: at(100) });
    await checkRegions(store, ['eu-west'], at(100), 45_000, undefined, watch);
    expect(await open()).toEqual(['No agent in eu-west can run ping checks']);

    // Its monitors are deleted while still no agent can run them: this replica remembers the pair.
    const pings = (await store.listMonitors(ws.workspace.id, { limit: 20 })).data.filter(
      (m) => m.monitor_type === 'ping',
    );
    for (const m of pings) await store.deleteMonitor(ws.workspace.id, m.id);
    await checkRegions(store, ['eu-west'], at(101), 45_000, undefined, watch);
    expect(await open()).toEqual([]);
    await store.close();
  });

  it('a region with no healthy agent has only its own alert, not one per type as well', async () => {
    const store = createSqliteStore({ path: join(dir, 'none.db') });
    await store.init();
    const ws = fixtures.workspace();
    await store.createWorkspace(ws);
    await store.insertMonitor(
      fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, {
        monitor_type: 'ping',
        check_locations: ['eu-west'],
      }),
      { maxMonitors: 20 },
    );
    await checkRegions(store, ['eu-west'], at(0), 45_000);
    const alerts = (await store.listAlerts(ws.workspace.id, { limit: 20 })).data;
    expect(alerts.map((a) => a.cause)).toEqual(['no_healthy_agent']);
    await store.close();
  });
});
