import { newId } from '@lookout/shared';
import type { AlertHold, AlertHoldStore, SourceEvent, SourceEventKind } from '../alerts/alert-hold-store.js';
import type { AlertStore } from '../alerts/alert-store.js';
import { raiseHeldHeartbeat } from '../heartbeats/heartbeat-deadlines.js';
import type { HeartbeatStore } from '../heartbeats/heartbeat-store.js';
import type { MaintenanceLookup, PolicyLookup } from '../lookups.js';
import type { DependencyGraphLookup, DependencyNode } from '../monitors/depends-on.js';
import type { MonitorStatusInfo, MonitorStatusStore } from '../monitors/monitor-status.js';
import type { MonitorStore } from '../monitors/monitor-store.js';
import { raiseHeldMonitor } from '../results/check-results.js';
import type { Heartbeat, MaintenanceCover, Monitor } from '../types.js';
import { decideHold, type SourceNow } from './dependency-rules.js';

/**
 * The dependency job: every hold that is due (an index, no scan) is decided by `decideHold`
 * (dependency-rules.ts) from its source and its DIRECT dependencies as they are now, and the outcome is
 * stored by compare-and-set, so every replica can run it at once. Per pass and workspace the reads are
 * batched: one read of the monitors involved, one of their statuses, one per heartbeat; a storm of
 * 5,000 dependents of one parent reads that parent once per pass. Nothing walks the graph.
 */

export type DependencyJobStore = AlertHoldStore &
  AlertStore &
  PolicyLookup &
  MaintenanceLookup &
  DependencyGraphLookup &
  Pick<MonitorStore, 'getMonitorsByIds'> &
  Pick<MonitorStatusStore, 'getMonitorStatuses'> &
  HeartbeatStore;

/** Waiting for a dependency is bounded by this, however long its interval or grace (15 minutes). */
export const MAX_SETTLE_MS = 15 * 60_000;

const monitorSettle = (m: Monitor) =>
  Math.min(
    MAX_SETTLE_MS,
    (m.check_interval_seconds + m.failure_threshold * m.retry_interval_seconds + m.timeout_seconds) * 1000,
  );

const monitorNow = (m: Monitor, info: MonitorStatusInfo | undefined): SourceNow => {
  const newest = info?.recent_checks.at(-1);
  return {
    id: m.id,
    status: info?.status ?? 'pending',
    checked_at: info?.last_checked_at ?? null,
    failing: info?.status !== 'down' && newest !== undefined && !newest.ok,
    settle_ms: monitorSettle(m),
  };
};

const heartbeatNow = (h: Heartbeat, now: Date): SourceNow => ({
  id: h.id,
  status: h.state,
  checked_at: now,
  current: true,
  failing: false,
  settle_ms: Math.min(MAX_SETTLE_MS, h.grace_seconds * 1000),
});

/** A group is down while any of its members (other than the dependent itself) is down. */
const groupNow = (id: string, members: SourceNow[]): SourceNow & { downMember: string | null } => {
  const down = members.find((m) => m.status === 'down');
  return {
    id,
    status: down ? 'down' : 'up',
    checked_at: members.reduce<Date | null>(
      (min, m) => (m.checked_at && (!min || m.checked_at < min) ? m.checked_at : min),
      null,
    ),
    failing: members.some((m) => m.failing || m.status === 'late'),
    settle_ms: Math.max(0, ...members.map((m) => m.settle_ms)),
    downMember: down?.id ?? null,
  };
};

const event = (
  h: AlertHold,
  kind: SourceEventKind,
  now: Date,
  message: string,
  dependency: string | null = null,
): SourceEvent => ({
  id: newId(),
  workspace_id: h.workspace_id,
  source_type: h.source_type,
  source_id: h.source_id,
  at: now,
  kind,
  dependency_id: dependency,
  message,
});

/**
 * The maintenance cover of a workspace at a moment (`coverNow` in domain/maintenance/cover.ts, a layer
 * above: the job's caller passes it), so a dependency's status means what the monitor list shows.
 */
export type CoverOf = (workspaceId: string, at: Date) => Promise<MaintenanceCover>;

/** One pass: up to `batch` × `rounds` due holds. Returns how many were raised, suppressed and dropped. */
export const decideDueHolds = async (
  store: DependencyJobStore,
  coverOf: CoverOf,
  now: Date,
  { batch = 500, rounds = 10 } = {},
) => {
  const done = { raised: 0, suppressed: 0, dropped: 0 };
  for (let round = 0; round < rounds; round++) {
    const due = await store.listDueAlertHolds(now, batch);
    const byWorkspace = new Map<string, AlertHold[]>();
    for (const h of due) {
      const list = byWorkspace.get(h.workspace_id);
      if (list) list.push(h);
      else byWorkspace.set(h.workspace_id, [h]);
    }
    for (const [ws, holds] of byWorkspace) {
      const r = await decideWorkspace(store, ws, holds, now, coverOf);
      done.raised += r.raised;
      done.suppressed += r.suppressed;
      done.dropped += r.dropped;
    }
    if (due.length < batch) break;
  }
  return done;
};

const decideWorkspace = async (
  store: DependencyJobStore,
  ws: string,
  holds: AlertHold[],
  now: Date,
  coverOf: CoverOf,
) => {
  const done = { raised: 0, suppressed: 0, dropped: 0 };
  // The dependents, then their direct dependencies (and a group's members), each read once.
  const monitors = new Map<string, Monitor>();
  const heartbeats = new Map<string, Heartbeat>();
  const readMonitors = async (ids: string[]) => {
    const want = ids.filter((id) => !monitors.has(id));
    if (want.length === 0) return;
    for (const m of await store.getMonitorsByIds(want)) if (m.workspace_id === ws) monitors.set(m.id, m);
  };
  const readHeartbeat = async (id: string) => {
    if (heartbeats.has(id)) return;
    const h = await store.getHeartbeat(ws, id);
    if (h) heartbeats.set(id, h);
  };
  await readMonitors(holds.filter((h) => h.source_type === 'monitor').map((h) => h.source_id));
  for (const h of holds) if (h.source_type === 'heartbeat') await readHeartbeat(h.source_id);
  const dependsOn = (h: AlertHold) =>
    (h.source_type === 'monitor' ? monitors.get(h.source_id) : heartbeats.get(h.source_id))?.depends_on ?? [];
  const depIds = [...new Set(holds.flatMap(dependsOn))];
  const nodes = new Map<string, DependencyNode>(
    (depIds.length > 0 ? await store.getDependencyNodes(ws, depIds) : []).map((n) => [n.id, n]),
  );
  const memberIds = [...nodes.values()].filter((n) => n.kind === 'group').flatMap((n) => n.depends_on);
  const monitorIds = [...nodes.values()].filter((n) => n.kind === 'monitor').map((n) => n.id);
  await readMonitors([...monitorIds, ...memberIds]);
  for (const n of nodes.values()) if (n.kind === 'heartbeat') await readHeartbeat(n.id);
  for (const id of memberIds) if (!monitors.has(id)) await readHeartbeat(id);
  const statuses = await store.getMonitorStatuses(ws, [...monitors.keys()], now, await coverOf(ws, now));
  const sourceNow = (id: string): SourceNow | null => {
    const m = monitors.get(id);
    if (m) return monitorNow(m, statuses.get(id));
    const h = heartbeats.get(id);
    return h ? heartbeatNow(h, now) : null;
  };
  const nameOf = (id: string) =>
    nodes.get(id)?.name ?? monitors.get(id)?.display_name ?? heartbeats.get(id)?.display_name ?? id;

  for (const hold of holds) {
    const self = sourceNow(hold.source_id);
    const deps: (SourceNow & { downMember?: string | null })[] = [];
    for (const id of dependsOn(hold)) {
      const n = nodes.get(id);
      if (n?.kind === 'group') {
        const members = n.depends_on
          .filter((m) => m !== hold.source_id)
          .map(sourceNow)
          .filter((s): s is SourceNow => s !== null);
        deps.push(groupNow(id, members));
      } else {
        const s = sourceNow(id);
        if (s) deps.push(s);
      }
    }
    const d = decideHold(hold, self, deps, now);
    if (d.action === 'drop') {
      const message =
        hold.state === 'held'
          ? 'Recovered before its dependencies were checked; no alert was raised.'
          : 'Recovered while held back by its dependency; no alert was raised.';
      if (await store.deleteAlertHold(hold, hold.version, event(hold, 'cleared', now, message)))
        done.dropped++;
    } else if (d.action === 'suppress') {
      const same = hold.state === 'suppressed' && hold.suppressed_by === d.by;
      const dep = deps.find((x) => x.id === d.by);
      const counted = dep?.downMember ?? d.by;
      const countType = monitors.has(counted) ? ('monitor' as const) : ('heartbeat' as const);
      const ok = await store.updateAlertHold(
        d.next,
        hold.version,
        same
          ? {}
          : {
              event: event(
                hold,
                'suppressed',
                now,
                `Held back: its dependency ${nameOf(d.by)} is down.`,
                d.by,
              ),
              countOn: { source_type: countType, source_id: counted },
            },
      );
      if (ok && !same) done.suppressed++;
    } else if (d.action === 'hold') {
      await store.updateAlertHold(
        d.next,
        hold.version,
        d.released
          ? {
              event: event(
                hold,
                'released',
                now,
                `Its dependency ${nameOf(hold.suppressed_by ?? '')} recovered; its own next check decides.`,
                hold.suppressed_by,
              ),
            }
          : {},
      );
    } else {
      const reason =
        hold.state === 'released'
          ? 'Still down after its dependency recovered.'
          : `Down while its dependencies (${dependsOn(hold).map(nameOf).join(', ')}) are not.`;
      let raised = false;
      if (hold.source_type === 'monitor') {
        const m = monitors.get(hold.source_id);
        if (m) {
          await raiseHeldMonitor(store, m, reason, now);
          raised = true;
        }
      } else {
        const h = heartbeats.get(hold.source_id);
        // One with an alert open already (raised by a step in between) needs nothing more.
        if (h) raised = h.alert_id !== null || (await raiseHeldHeartbeat(store, h, now));
      }
      if (raised || !self) {
        await store.deleteAlertHold(
          hold,
          hold.version,
          event(hold, 'raised', now, `Alert raised: ${reason}`),
        );
        done.raised++;
      }
    }
  }
  return done;
};
