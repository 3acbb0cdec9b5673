import type { HeartbeatStore } from '../heartbeats/heartbeat-store.js';
import {
  type CoveredSource,
  coverNow,
  currentOrNext,
  describeRecurrence,
  MAX_WINDOWS,
  scopeCovers,
} from '../maintenance/cover.js';
import type { MaintenanceWindowStore } from '../maintenance/maintenance-store.js';
import type { GroupStore } from '../monitors/group-store.js';
import type { MonitorStatus, MonitorStatusInfo, MonitorStatusStore } from '../monitors/monitor-status.js';
import type { MonitorStore } from '../monitors/monitor-store.js';
import { DAY_MS, dayOf, percent } from '../results/uptime.js';
import type { HeartbeatState } from '../types.js';
import {
  componentStatus,
  type Indicator,
  type LiveStatus,
  overallStatus,
  statusOfHeartbeat,
  statusOfMonitor,
} from './component-status.js';
import type { Incident, StatusComponent, StatusPage, StatusPageStore } from './status-page-store.js';

export const HISTORY_DAYS = 90;
/** The days of bars a phone shows (the newest ones); the uptime beside them is over the same days. */
export const PHONE_DAYS = 30;
/** Resolved incidents the page lists: those of the last weeks. */
export const RECENT_INCIDENT_DAYS = 14;
const MAX_INCIDENTS = 50;

export interface DayBar {
  /** The UTC day's first ms. */
  day: number;
  /** Percent of successful checks that day; null: no checks (no data). */
  uptime: number | null;
}

/** Uptime over the days of a window that have checks (days without any are left out, not counted as up). */
export interface UptimeOver {
  /** Percent of successful checks on those days; null: no day has any. */
  uptime: number | null;
  /** How many days of the window have checks. */
  days_with_data: number;
}

export interface ComponentView {
  id: string;
  name: string;
  description: string | null;
  group: string | null;
  status: LiveStatus;
  /** Oldest first, HISTORY_DAYS of them, today last; empty for a component without a monitor. */
  days: DayBar[];
  /** Over the HISTORY_DAYS (what a wide screen shows); null without a monitor. */
  uptime: UptimeOver | null;
  /** Over the newest PHONE_DAYS (what a phone shows); null without a monitor. */
  recent_uptime: UptimeOver | null;
}

export interface MaintenanceView {
  id: string;
  name: string;
  status: 'scheduled' | 'in_progress';
  /** The occurrence in progress, else the next (a one-off window's only one). */
  starts_at: Date;
  ends_at: Date;
  /** A recurring window's rule in words ("At 02:00, only on Sunday, Europe/Berlin, for 2 hours"). */
  recurrence: string | null;
  component_ids: string[];
}

/**
 * Everything a public page and its machine-readable forms show, and nothing else: only what the
 * page's author chose (component names, incidents), never a monitor's URL, headers or name.
 */
export interface StatusView {
  page: Pick<StatusPage, 'id' | 'name' | 'slug' | 'accent_color' | 'custom_domain'> & { updated_at: Date };
  status: { indicator: Indicator; description: string };
  components: ComponentView[];
  /** Open published incidents, newest first. */
  active: Incident[];
  /** Published incidents resolved in the last RECENT_INCIDENT_DAYS, newest first. */
  history: Incident[];
  maintenances: MaintenanceView[];
  generated_at: Date;
}

export type ViewStore = Pick<StatusPageStore, 'listPublicIncidents' | 'dailyUptime'> &
  Pick<MonitorStatusStore, 'getMonitorStatuses'> &
  Pick<GroupStore, 'listGroupMembers'> &
  Pick<HeartbeatStore, 'getHeartbeat'> &
  Pick<MonitorStore, 'getMonitor'> &
  Pick<MaintenanceWindowStore, 'listLiveMaintenanceWindows' | 'findActiveMaintenanceWindow'>;

/** A monitor or heartbeat record as a maintenance scope sees it (its group and tags, where it has them). */
export const coveredSource = (
  type: 'monitor' | 'heartbeat',
  r: { id: string; group_id?: string | null; tags?: string[] },
): CoveredSource => ({ type, id: r.id, group_id: r.group_id ?? null, tags: r.tags ?? [] });

/**
 * The most members of a page's group components read per render, of each kind (all its groups
 * together): one bounded read. A group larger than this is judged by its first GROUP_MEMBERS_READ
 * monitors and heartbeats (docs/decisions.md, "Groups and tags").
 */
export const GROUP_MEMBERS_READ = 1000;

/** A monitor paused before its first check says as much as one never checked: no data yet. */
const monitorStatus = (m: MonitorStatusInfo | undefined): MonitorStatus | undefined =>
  m?.status === 'paused' && m.last_checked_at === null ? 'pending' : m?.status;

/** The live status of each component of `page` at `now` (what the API's record shows too). */
export const liveComponentStatuses = async (
  store: Omit<ViewStore, 'dailyUptime' | 'getMonitor'>,
  page: StatusPage,
  now: Date,
  openIncidents?: Incident[],
): Promise<Map<string, LiveStatus>> => {
  const groupIds = [...new Set(page.components.flatMap((c) => (c.group_id ? [c.group_id] : [])))];
  // Group components: their members in one bounded read, and one maintenance lookup per group (the
  // workspace's windows and the group's own; a monitor member's own cover is in its status).
  const [members, groupWindows] = await Promise.all([
    store.listGroupMembers(page.workspace_id, groupIds, GROUP_MEMBERS_READ),
    Promise.all(
      groupIds.map((id) =>
        store
          .findActiveMaintenanceWindow(page.workspace_id, { type: 'group', id, group_id: id }, now)
          .then((w) => [id, w !== null] as const),
      ),
    ),
  ]);
  const groupInMaintenance = new Map(groupWindows);
  const monitorIds = [
    ...new Set([
      ...page.components.flatMap((c) => (c.monitor_id ? [c.monitor_id] : [])),
      ...members.monitors.map((m) => m.id),
    ]),
  ];
  const [monitors, incidents, beats] = await Promise.all([
    monitorIds.length > 0
      ? coverNow(store, page.workspace_id, now).then((cover) =>
          store.getMonitorStatuses(page.workspace_id, monitorIds, now, cover),
        )
      : new Map(),
    openIncidents ??
      store
        .listPublicIncidents(page.workspace_id, page.id, new Date(8.64e15), MAX_INCIDENTS)
        .then((l) => l.filter((i) => i.resolved_at === null)),
    Promise.all(
      page.components.flatMap((c) =>
        c.heartbeat_id
          ? [
              store
                .getHeartbeat(page.workspace_id, c.heartbeat_id)
                .then(
                  async (h) =>
                    [
                      h,
                      await store.findActiveMaintenanceWindow(
                        page.workspace_id,
                        h ? coveredSource('heartbeat', h) : { type: 'heartbeat', id: c.heartbeat_id! },
                        now,
                      ),
                    ] as const,
                )
                .then(
                  ([h, w]) =>
                    [
                      c.heartbeat_id!,
                      // Paused before its first ping: as never pinged (no data), not operational.
                      {
                        state: h?.state === 'paused' && h.last_ping_at === null ? 'new' : h?.state,
                        maintenance: w !== null,
                      },
                    ] as const,
                ),
            ]
          : [],
      ),
    ),
  ]);
  const beatOf = new Map<string, { state: HeartbeatState | undefined; maintenance: boolean }>(beats);
  const memberStatuses = new Map<string, LiveStatus[]>(groupIds.map((id) => [id, []]));
  for (const m of members.monitors)
    memberStatuses.get(m.group_id)?.push(statusOfMonitor(monitorStatus(monitors.get(m.id))));
  for (const h of members.heartbeats)
    memberStatuses
      .get(h.group_id)
      ?.push(
        statusOfHeartbeat(
          h.state === 'paused' && h.last_ping_at === null ? 'new' : h.state,
          groupInMaintenance.get(h.group_id) ?? false,
        ),
      );
  return new Map(
    page.components.map((c) => [
      c.id,
      componentStatus(
        c,
        {
          monitor: c.monitor_id ? monitorStatus(monitors.get(c.monitor_id)) : undefined,
          heartbeat: c.heartbeat_id ? beatOf.get(c.heartbeat_id)?.state : undefined,
          heartbeatInMaintenance: c.heartbeat_id ? beatOf.get(c.heartbeat_id)?.maintenance : false,
          members: c.group_id ? memberStatuses.get(c.group_id) : undefined,
        },
        incidents,
      ),
    ]),
  );
};

/** What a component's monitor or heartbeat is, as a maintenance scope sees it. */
type SourceOf = (c: StatusComponent) => Promise<CoveredSource | null>;

/**
 * Upcoming and current maintenance over the page's components: each window not ended that covers one
 * of them (the whole workspace, its monitor or heartbeat, their group or tags), with its occurrence in
 * progress or next to come, and for a recurring window its rule in words.
 */
const maintenancesOf = async (
  store: Pick<MaintenanceWindowStore, 'listLiveMaintenanceWindows'>,
  sourceOf: SourceOf,
  page: StatusPage,
  now: Date,
) => {
  const windows = await store.listLiveMaintenanceWindows(page.workspace_id, now, MAX_WINDOWS);
  if (windows.length === 0) return [];
  // Group and tag scopes need the sources' groups and tags: read once per component, only then.
  const needSources = windows.some((w) => w.scope_type === 'group' || w.scope_type === 'tag');
  const sources = await Promise.all(
    page.components.map(async (c) => {
      // A group component: windows over the workspace or over its group.
      if (c.group_id) return { type: 'group', id: c.group_id, group_id: c.group_id };
      if (!c.monitor_id && !c.heartbeat_id) return null;
      const id = (c.monitor_id ?? c.heartbeat_id)!;
      const type = c.monitor_id ? 'monitor' : 'heartbeat';
      return needSources ? ((await sourceOf(c)) ?? { type, id }) : { type, id };
    }),
  );
  const out: MaintenanceView[] = [];
  for (const w of windows) {
    const o = currentOrNext(w, now);
    if (!o) continue;
    const covered = page.components.filter((_, i) => sources[i] && scopeCovers(w, sources[i]));
    if (covered.length === 0) continue;
    out.push({
      id: w.id,
      name: w.name,
      status: o.starts_at <= now ? 'in_progress' : 'scheduled',
      starts_at: o.starts_at,
      ends_at: o.ends_at,
      recurrence: describeRecurrence(w),
      component_ids: covered.map((c) => c.id),
    });
  }
  return out.sort((a, b) => a.starts_at.getTime() - b.starts_at.getTime());
};

/** The maintenance shown on `page` at `now` (the public page, its JSON and the API's record). */
export const pageMaintenances = (
  store: Pick<ViewStore, 'listLiveMaintenanceWindows' | 'getMonitor' | 'getHeartbeat'>,
  page: StatusPage,
  now: Date,
) =>
  maintenancesOf(
    store,
    async (c) => {
      if (c.monitor_id) {
        const m = await store.getMonitor(page.workspace_id, c.monitor_id);
        return m ? coveredSource('monitor', m) : null;
      }
      const h = c.heartbeat_id ? await store.getHeartbeat(page.workspace_id, c.heartbeat_id) : null;
      return h ? coveredSource('heartbeat', h) : null;
    },
    page,
    now,
  );

/** Reads what the page shows at `now`: a bounded number of store reads, whatever its readers. */
export const loadStatusView = async (store: ViewStore, page: StatusPage, now: Date): Promise<StatusView> => {
  const today = dayOf(now);
  const from = today - (HISTORY_DAYS - 1) * DAY_MS;
  const monitorIds = [...new Set(page.components.flatMap((c) => (c.monitor_id ? [c.monitor_id] : [])))];
  const [incidents, daily, maintenances] = await Promise.all([
    store.listPublicIncidents(
      page.workspace_id,
      page.id,
      new Date(now.getTime() - RECENT_INCIDENT_DAYS * DAY_MS),
      MAX_INCIDENTS,
    ),
    store.dailyUptime(page.workspace_id, monitorIds, from, today + DAY_MS),
    pageMaintenances(store, page, now),
  ]);
  const active = incidents.filter((i) => i.resolved_at === null);
  const statuses = await liveComponentStatuses(store, page, now, active);
  const byMonitor = new Map<string, Map<number, { total: number; ok: number }>>();
  for (const d of daily) {
    let m = byMonitor.get(d.monitor_id);
    if (!m) {
      m = new Map();
      byMonitor.set(d.monitor_id, m);
    }
    m.set(d.day, d);
  }
  const components = page.components.map((c): ComponentView => {
    const status = statuses.get(c.id) ?? 'unknown';
    if (!c.monitor_id)
      return {
        id: c.id,
        name: c.name,
        description: c.description,
        group: c.group,
        status,
        days: [],
        uptime: null,
        recent_uptime: null,
      };
    const m = byMonitor.get(c.monitor_id);
    const days: DayBar[] = [];
    for (let day = from; day <= today; day += DAY_MS) {
      const d = m?.get(day);
      days.push({ day, uptime: d && d.total > 0 ? percent(d.ok, d.total) : null });
    }
    const over = (since: number): UptimeOver => {
      let total = 0;
      let ok = 0;
      let withData = 0;
      for (let day = since; day <= today; day += DAY_MS) {
        const d = m?.get(day);
        if (!d || d.total === 0) continue;
        total += d.total;
        ok += d.ok;
        withData++;
      }
      return { uptime: percent(ok, total), days_with_data: withData };
    };
    return {
      id: c.id,
      name: c.name,
      description: c.description,
      group: c.group,
      status,
      days,
      uptime: over(from),
      recent_uptime: over(today - (PHONE_DAYS - 1) * DAY_MS),
    };
  });
  return {
    page: {
      id: page.id,
      name: page.name,
      slug: page.slug,
      accent_color: page.accent_color,
      custom_domain: page.custom_domain,
      updated_at: page.updated_at,
    },
    status: overallStatus(components.map((c) => c.status)),
    components,
    active,
    history: incidents.filter((i) => i.resolved_at !== null),
    maintenances,
    generated_at: now,
  };
};
