import type { AlertKey, AlertStore } from '../alerts/alert-store.js';
import { raiseAlert } from '../alerts/alerts.js';
import type { MaintenanceLookup, PolicyLookup } from '../lookups.js';
import type { AgentSession } from './agent-store.js';

/** The cause of the alert for a region where no agent can run a type its monitors have (dedup key: the type). */
export const NO_CAPABLE_AGENT = 'no_capable_agent';

/** The check types the live agents of a region run together (a type placement can give to someone). */
export const runnableTypes = (sessions: readonly AgentSession[], nowMs: number, liveMs: number) => {
  const out = new Set<string>();
  for (const s of sessions) {
    if (nowMs - s.last_seen_at.getTime() > liveMs) continue;
    for (const t of s.check_types) out.add(t);
  }
  return out;
};

/**
 * What a replica remembers between passes of the region job: for each region, the (workspace, type)
 * pairs it found with no capable agent. They are looked at again for resolution even after their
 * monitors are gone (deleted, paused, moved to another region), which the pass over the region's
 * monitors alone would never see. At most `max` pairs: past that a pair is not remembered, and its
 * alert resolves when a capable agent comes (while its monitors remain) or by hand.
 */
export const createCapabilityWatch = (max = 10_000) => {
  const byRegion = new Map<string, Set<string>>();
  let size = 0;
  return {
    pairs: (region: string): ReadonlySet<string> => byRegion.get(region) ?? new Set(),
    remember(region: string, pair: string) {
      const set = byRegion.get(region) ?? new Set<string>();
      if (set.has(pair) || size >= max) return;
      byRegion.set(region, set);
      set.add(pair);
      size++;
    },
    forget(region: string, pair: string) {
      if (byRegion.get(region)?.delete(pair)) size--;
    },
  };
};
export type CapabilityWatch = ReturnType<typeof createCapabilityWatch>;

const pairOf = (workspaceId: string, type: string) => `${workspaceId}\0${type}`;

/**
 * One alert per workspace, region and type while the region has monitors of that type and none of
 * its live agents can run it ("No agent in eu-west can run ping checks") — never one per monitor; the
 * system resolves it once an agent that runs the type is live there, or no monitor of the type runs
 * there any more. Only called for a region with a healthy agent: a region nobody checks has its own
 * alert (no_healthy_agent), which says more. Safe on every replica, like that one.
 */
export const checkCapabilities = async (
  store: AlertStore & PolicyLookup & MaintenanceLookup,
  region: string,
  /** The region's monitors: workspace → type → how many. */
  counts: ReadonlyMap<string, ReadonlyMap<string, number>>,
  runnable: ReadonlySet<string>,
  now: Date,
  watch: CapabilityWatch,
) => {
  const keyOf = (workspaceId: string, type: string): AlertKey => ({
    workspace_id: workspaceId,
    source_type: 'region',
    source_id: region,
    cause: NO_CAPABLE_AGENT,
    dedup_key: type,
  });
  const settled: AlertKey[] = [];
  for (const [workspaceId, types] of counts) {
    for (const [type, n] of types) {
      if (runnable.has(type)) {
        settled.push(keyOf(workspaceId, type));
        continue;
      }
      watch.remember(region, pairOf(workspaceId, type));
      await raiseAlert(
        store,
        {
          ...keyOf(workspaceId, type),
          title: `No agent in ${region} can run ${type} checks`,
          description: `${n} ${type} monitor(s) run from ${region}, but no agent there can run ${type} checks, so they are not checked there until one that can registers (\`npx lookout agent list\` shows what each agent runs).`,
        },
        now,
      );
    }
  }
  for (const pair of [...watch.pairs(region)]) {
    const [workspaceId = '', type = ''] = pair.split('\0');
    const present = counts.get(workspaceId)?.has(type) ?? false;
    if (present && !runnable.has(type)) continue;
    watch.forget(region, pair);
    // A pair whose monitors remain was settled above already.
    if (!present) settled.push(keyOf(workspaceId, type));
  }
  if (settled.length === 0) return;
  for (const a of await store.findOpenAlerts(settled))
    await store.resolveAlert(a.workspace_id, a.id, { type: 'system' }, now);
};
