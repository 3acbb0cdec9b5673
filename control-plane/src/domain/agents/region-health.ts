import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AlertStore } from '../alerts/alert-store.js';
import { raiseAlert } from '../alerts/alerts.js';
import type { MaintenanceLookup, PolicyLookup } from '../lookups.js';
import type { MonitorStore } from '../monitors/monitor-store.js';
import type { CatalogMonitor } from '../types.js';
import type { AgentSession, AgentStore } from './agent-store.js';
import {
  type CapabilityWatch,
  checkCapabilities,
  createCapabilityWatch,
  runnableTypes,
} from './capability-alerts.js';

/**
 * Healthy: heard from within `liveMs` and, when it has monitors, reporting results (not merely
 * connected). Results are owed at the agent's own cadence: at least once per its shortest check
 * interval, counted from its last results or from when it first had a monitor that often, whichever
 * is later, with `liveMs` to spare. (An agent whose only monitor checks every 5 minutes reports every
 * 5 minutes; one just given its first monitor owes nothing for one interval.) An agent that does not
 * report its cadence is judged as before: results within `liveMs`.
 */
export const isHealthy = (s: AgentSession, nowMs: number, liveMs: number) => {
  if (nowMs - s.last_seen_at.getTime() > liveMs) return false;
  const h = s.health;
  if (!h?.assigned) return true;
  const due = h.results_due_since ? Date.parse(h.results_due_since) : Number.NEGATIVE_INFINITY;
  const last = Math.max(s.last_result_at?.getTime() ?? Number.NEGATIVE_INFINITY, due);
  return nowMs - last <= liveMs + (h.shortest_interval_seconds ?? 0) * 1000;
};

export interface RegionHealth {
  region: string;
  /** Some agent of the region is healthy (see isHealthy). */
  healthy: boolean;
  /** The workspace's monitors (not paused) checked from the region. */
  monitors: number;
  /** The region's live agents (unnamed: agents belong to the operator), each with the check types it runs. */
  agents: { healthy: boolean; check_types: string[] }[];
  /**
   * The types of the workspace's monitors there that no live agent of the region can run: those
   * monitors are not checked there. Empty when the region has no live agent at all (`healthy` says so).
   */
  no_capable_agent: { monitor_type: string; monitors: number }[];
}

/**
 * What a workspace may know of the agents: for each region monitors may run from (the configured
 * ones, and any its monitors still name), whether it is being checked from (some agent healthy) and
 * how many of its monitors run there (0 for a region it does not use yet). Nothing that identifies an
 * agent (instance, host, version) — agents belong to the operator (`npx lookout agent list`).
 */
export const workspaceRegionHealth = async (
  store: AgentStore & AlertStore & MonitorStore,
  workspaceId: string,
  regions: readonly string[],
  now: Date,
  liveMs: number,
): Promise<RegionHealth[]> => {
  const counts = new Map<string, number>(regions.map((r) => [r, 0]));
  /** region → type → monitors (not paused). */
  const types = new Map<string, Map<string, number>>();
  let cursor: string | undefined;
  do {
    const page = await store.listMonitors(workspaceId, { limit: 100, cursor });
    for (const m of page.data)
      for (const region of m.check_locations) {
        counts.set(region, (counts.get(region) ?? 0) + (m.paused ? 0 : 1));
        if (m.paused) continue;
        const byType = types.get(region) ?? new Map<string, number>();
        byType.set(m.monitor_type, (byType.get(m.monitor_type) ?? 0) + 1);
        types.set(region, byType);
      }
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  const out: RegionHealth[] = [];
  const nowMs = now.getTime();
  for (const [region, monitors] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    const sessions = await store.listAgentSessions(region);
    const live = sessions.filter((s) => nowMs - s.last_seen_at.getTime() <= liveMs);
    const runnable = runnableTypes(live, nowMs, liveMs);
    out.push({
      region,
      healthy: sessions.some((s) => isHealthy(s, nowMs, liveMs)),
      monitors,
      agents: live.map((s) => ({ healthy: isHealthy(s, nowMs, liveMs), check_types: [...s.check_types] })),
      no_capable_agent:
        live.length === 0
          ? []
          : [...(types.get(region) ?? [])]
              .filter(([type]) => !runnable.has(type))
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([monitor_type, n]) => ({ monitor_type, monitors: n })),
    });
  }
  return out;
};

/** How many monitors the job counts between two returns to the event loop. */
export const REGION_SLICE = 2000;

/**
 * One alert per workspace and region while a region that has monitors has no healthy agent — never
 * one per monitor; resolved by the system when an agent is healthy again. Safe on every replica:
 * raising is deduplicated by the store, resolving is compare-and-set. In a region with a healthy
 * agent, one alert per workspace and type that no live agent there can run (capability-alerts.ts).
 */
export const checkRegions = async (
  store: AgentStore & AlertStore & MonitorStore & PolicyLookup & MaintenanceLookup,
  regions: readonly string[],
  now: Date,
  liveMs: number,
  /** The monitors that run in a region: the replica's catalog, or the store. */
  monitorsIn: (region: string) => Promise<Iterable<CatalogMonitor>> = (r) => store.listRegionMonitors(r),
  /** What this replica remembers of the type alerts between passes (the jobs keep one). */
  watch: CapabilityWatch = createCapabilityWatch(),
) => {
  for (const region of regions) {
    const workspaces = new Map<string, number>();
    /** workspace → type → monitors. */
    const types = new Map<string, Map<string, number>>();
    let seen = 0;
    for (const m of await monitorsIn(region)) {
      // Back to the event loop now and then: a region of 100,000 monitors is ~10 ms of this.
      if (++seen % REGION_SLICE === 0) await nextTurn();
      workspaces.set(m.workspace_id, (workspaces.get(m.workspace_id) ?? 0) + 1);
      const byType = types.get(m.workspace_id) ?? new Map<string, number>();
      types.set(m.workspace_id, byType);
      byType.set(m.monitor_type, (byType.get(m.monitor_type) ?? 0) + 1);
    }
    if (workspaces.size === 0 && watch.pairs(region).size === 0) continue;
    const sessions = await store.listAgentSessions(region);
    const healthy = sessions.some((s) => isHealthy(s, now.getTime(), liveMs));
    if (healthy) {
      const runnable = runnableTypes(sessions, now.getTime(), liveMs);
      await checkCapabilities(store, region, types, runnable, now, watch);
    }
    if (workspaces.size === 0) continue;
    const keyOf = (workspaceId: string) => ({
      workspace_id: workspaceId,
      source_type: 'region' as const,
      source_id: region,
      cause: 'no_healthy_agent',
      dedup_key: '',
    });
    if (healthy) {
      // One read for every workspace's open alert of this region; most of the time there is none.
      const open = await store.findOpenAlerts([...workspaces.keys()].map(keyOf));
      for (const a of open) await store.resolveAlert(a.workspace_id, a.id, { type: 'system' }, now);
      continue;
    }
    for (const [workspaceId, count] of workspaces) {
      const key = keyOf(workspaceId);
      await raiseAlert(
        store,
        {
          ...key,
          title: `No healthy agent in ${region}`,
          description: `${count} monitor(s) run from ${region}; none of them is being checked there until an agent reports again.`,
        },
        now,
      );
    }
  }
};
