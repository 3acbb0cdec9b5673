import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtures } from '../../../../test/contract/fixtures.js';
import { createSqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { CatalogMonitor } from '../types.js';
import { checkRegions, REGION_SLICE } from './region-health.js';

const dir = mkdtempSync(join(tmpdir(), 'lookout-region-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Agent `a` of eu-west, registered at `t`. */
const agentA = (t: Date) => ({
  instance_id: 'a',
  region: 'eu-west',
  session_id: 's',
  hostname: 'h',
  agent_version: '1',
  started_at: t,
  last_seen_at: t,
  check_types: ['http', 'api', 'dns', 'tcp', 'domain'],
});

describe('region health', () => {
  it('one alert per workspace for a region with monitors and no healthy agent; resolved when one reports', async () => {
    const store = createSqliteStore({ path: join(dir, 'r.db') });
    await store.init();
    const ws = fixtures.workspace();
    await store.createWorkspace(ws);
    for (let i = 0; i < 5; i++) {
      await store.insertMonitor(
        fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, { check_locations: ['eu-west'] }),
        { maxMonitors: 10 },
      );
    }
    const t0 = new Date('2026-06-01T00:00:00Z');
    await checkRegions(store, ['eu-west', 'us-east'], t0, 45_000);
    await checkRegions(store, ['eu-west', 'us-east'], t0, 45_000);
    let alerts = (await store.listAlerts(ws.workspace.id, { limit: 10 })).data;
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ source_type: 'region', source_id: 'eu-west', status: 'open' });

    // an agent that is connected but reports nothing while it has monitors is not healthy
    await store.registerAgent(agentA(t0));
    const health = {
      assigned: 5,
      in_flight: 0,
      queue_depth: 0,
      buffered_results: 0,
      dropped_results: 0,
      schedule_lag_p99_ms: 0,
    };
    await store.touchAgentSession('a', 's', t0, { health });
    await checkRegions(store, ['eu-west'], t0, 45_000);
    expect((await store.listAlerts(ws.workspace.id, { limit: 10, status: ['open'] })).data).toHaveLength(1);

    await store.touchAgentSession('a', 's', t0, { resultsAt: t0 });
    await checkRegions(store, ['eu-west'], t0, 45_000);
    alerts = (await store.listAlerts(ws.workspace.id, { limit: 10 })).data;
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ status: 'resolved', resolved_by: { type: 'system' } });
    await store.close();
  });

  it('results are owed at the agent’s cadence: every 60 s for 60 s monitors, nothing before its first interval', async () => {
    const store = createSqliteStore({ path: join(dir, 'cadence.db') });
    await store.init();
    const ws = fixtures.workspace();
    await store.createWorkspace(ws);
    await store.insertMonitor(
      fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, { check_locations: ['eu-west'] }),
      { maxMonitors: 10 },
    );
    const at = (s: number) => new Date(Date.parse('2026-06-01T00:00:00Z') + s * 1000);
    const openAlerts = async () =>
      (await store.listAlerts(ws.workspace.id, { limit: 10, status: ['open'] })).data.length;
    await store.registerAgent(agentA(at(0)));
    // Idle for 10 minutes, then given its first monitor (every 60 s) at 600 s: no result yet at 650 s.
    const health = (dueSince: number) => ({
      assigned: 1,
      in_flight: 0,
      queue_depth: 0,
      buffered_results: 0,
      dropped_results: 0,
      schedule_lag_p99_ms: 0,
      shortest_interval_seconds: 60,
      results_due_since: at(dueSince).toISOString(),
    });
    await store.touchAgentSession('a', 's', at(650), { health: health(600) });
    await checkRegions(store, ['eu-west'], at(650), 45_000);
    expect(await openAlerts()).toBe(0);
    // Its results come once a minute: 55 s after the last one it is still healthy (45 s is not a minute).
    await store.touchAgentSession('a', 's', at(655), { resultsAt: at(655) });
    await store.touchAgentSession('a', 's', at(710), { health: health(600) });
    await checkRegions(store, ['eu-west'], at(710), 45_000);
    expect(await openAlerts()).toBe(0);
    // Connected, but no result for a minute and 45 s more: results do not flow.
    await store.touchAgentSession('a', 's', at(760), { health: health(600) });
    await checkRegions(store, ['eu-west'], at(760), 45_000);
    expect(await openAlerts()).toBe(0);
    await store.touchAgentSession('a', 's', at(801), { health: health(600) });
    await checkRegions(store, ['eu-west'], at(801), 45_000);
    expect(await openAlerts()).toBe(1);
    await store.close();
  });

  it('returns to the event loop while it counts a large region', async () => {
    const store = createSqliteStore({ path: join(dir, 'slices.db') });
    await store.init();
    const n = 2 * REGION_SLICE + 1;
    // Whether a macrotask queued before the job had run when the job counted each monitor.
    let ranBetween = false;
    const seenAt: boolean[] = [];
    const monitors = function* () {
      for (let i = 0; i < n; i++) {
        seenAt.push(ranBetween);
        yield { workspace_id: 'w' } as CatalogMonitor;
      }
    };
    setImmediate(() => {
      ranBetween = true;
    });
    await checkRegions(store, ['eu-west'], new Date('2026-06-01T00:00:00Z'), 45_000, async () => monitors());
    expect(seenAt).toHaveLength(n);
    expect(seenAt[REGION_SLICE - 1]).toBe(false);
    expect(seenAt[n - 1]).toBe(true);
    await store.close();
  });
});
