import { AppError, validationError } from '@lookout/shared';
import type { GroupStore } from '../monitors/group-store.js';
import type { MonitorQuery, MonitorStore } from '../monitors/monitor-store.js';
import type { StatusPageStore } from '../status-pages/status-page-store.js';
import type { Monitor, Workspace } from '../types.js';
import { MAX_REPORT_MONITORS, type ReportScopeType } from './sla-report.js';

/** What a report is about: one monitor, a group, a tag, a status page's monitors, or the workspace (id null). */
export interface ReportScope {
  type: ReportScopeType;
  id: string | null;
}

export type ScopeStore = Pick<MonitorStore, 'getMonitor' | 'listMonitors' | 'getMonitorsByIds'> &
  Pick<GroupStore, 'getGroup'> &
  Pick<StatusPageStore, 'getStatusPage'>;

/** The request field that names each kind of scope (a 404 or a 422 names it). */
export const SCOPE_FIELD: Record<ReportScopeType, string> = {
  monitor: 'monitor_id',
  group: 'group_id',
  tag: 'tag',
  status_page: 'status_page_id',
  workspace: 'scope',
};

const PAGE = 1_000;

const tooMany = (type: ReportScopeType) =>
  validationError([
    {
      field: SCOPE_FIELD[type],
      message: `takes in more than ${MAX_REPORT_MONITORS} monitors: report on a group, a tag or a status page`,
    },
  ]);

/** Every monitor a list query finds, a page of 1,000 at a time, refused past MAX_REPORT_MONITORS. */
const allMonitors = async (
  store: ScopeStore,
  workspaceId: string,
  q: Omit<MonitorQuery, 'limit' | 'cursor'>,
  type: ReportScopeType,
): Promise<Monitor[]> => {
  const out: Monitor[] = [];
  let cursor: string | undefined;
  do {
    const p = await store.listMonitors(workspaceId, { ...q, limit: PAGE, cursor });
    out.push(...p.data);
    if (out.length > MAX_REPORT_MONITORS) throw tooMany(type);
    cursor = p.next_cursor ?? undefined;
  } while (cursor);
  return out;
};

const notFound = (what: string) => new AppError('not_found', `No ${what} with this id in the workspace.`);

/**
 * The scope's name and its monitors (by name), read in the caller's workspace: an id of another
 * workspace is a 404 as an unknown one is. A status page takes in the monitors of its components and
 * the members of its group components.
 */
export const resolveScope = async (
  store: ScopeStore,
  workspace: Pick<Workspace, 'id' | 'name'>,
  scope: ReportScope,
): Promise<{ name: string; monitors: Monitor[] }> => {
  const ws = workspace.id;
  const id = scope.id ?? '';
  let name: string;
  let monitors: Monitor[];
  if (scope.type === 'monitor') {
    const m = await store.getMonitor(ws, id);
    if (!m) throw notFound('monitor');
    name = m.display_name;
    monitors = [m];
  } else if (scope.type === 'group') {
    const g = await store.getGroup(ws, id);
    if (!g) throw notFound('group');
    name = g.name;
    monitors = await allMonitors(store, ws, { group_id: g.id }, 'group');
  } else if (scope.type === 'tag') {
    name = id;
    monitors = await allMonitors(store, ws, { tag: id }, 'tag');
  } else if (scope.type === 'status_page') {
    const p = await store.getStatusPage(ws, id);
    if (!p) throw notFound('status page');
    name = p.name;
    const direct = [...new Set(p.components.flatMap((c) => (c.monitor_id ? [c.monitor_id] : [])))];
    const groups = [...new Set(p.components.flatMap((c) => (c.group_id ? [c.group_id] : [])))];
    const byId = new Map<string, Monitor>();
    for (const m of await store.getMonitorsByIds(direct)) if (m.workspace_id === ws) byId.set(m.id, m);
    for (const g of groups)
      for (const m of await allMonitors(store, ws, { group_id: g }, 'status_page')) byId.set(m.id, m);
    if (byId.size > MAX_REPORT_MONITORS) throw tooMany('status_page');
    monitors = [...byId.values()];
  } else {
    name = workspace.name;
    monitors = await allMonitors(store, ws, {}, 'workspace');
  }
  monitors.sort((a, b) => a.display_name.localeCompare(b.display_name) || (a.id < b.id ? -1 : 1));
  return { name, monitors };
};
