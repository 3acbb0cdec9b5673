/**
 * The monitor list's queries on SQLite: filters, the maintenance cover as SQL, the status order as a
 * walk of buckets, the other orders, and the counts. What a page costs:
 * - `status` (the default): each bucket of STATUS_ORDER (down, pending, maintenance, paused, up) is one
 *   range of the index monitors_status_order (workspace_id, paused, verdict, name_key, id) in name
 *   order after the cursor, walked until the page is full; the maintenance bucket is the covered
 *   monitors (the cover is read in code, domain/maintenance/cover.ts), left out of their verdict's.
 * - `name`: monitors_name_order; `last_change`: monitors_change_order (newest first): keyset ranges.
 * - `response_time`: the newest successful check's response time as the hourly buckets hold it (the
 *   results still waiting for their fold, ≤ 5 min, are not counted), one probe of uptime_rollups per
 *   monitor that matches the filters, then a sort: a cost that grows with the workspace
 *   (docs/benchmarks.md, "Monitor list at 100,000 monitors").
 * - counts: without a filter, the workspace's counters per (paused, verdict) (monitor_status_counts,
 *   kept by triggers); with one, a GROUP BY over monitors_status_order; then the covered monitors by
 *   rowid when a window covers part of the workspace.
 */
import type {
  MonitorCounts,
  MonitorFilter,
  MonitorSort,
  MonitorStatus,
} from '../../domain/monitors/monitor-status.js';
import { STATUS_ORDER } from '../../domain/monitors/monitor-status.js';
import type { MaintenanceCover } from '../../domain/types.js';
import { decodeMonitorCursor, encodeMonitorCursor, type MonitorCursor } from '../monitor-cursor.js';
import type { SqliteContext } from './db.js';

type Row = Record<string, unknown>;

/** SQL and its parameters, in order. */
interface Sql {
  sql: string;
  params: unknown[];
}
const and = (parts: Sql[]): Sql => ({
  sql: parts.map((p) => p.sql).join(' AND '),
  params: parts.flatMap((p) => p.params),
});

/**
 * The filters but status, on `m`. Tag and group need the columns of groups and tags. `byRowids`: the
 * query is driven by a rowid list (a partial cover), so the workspace's indexes are kept out (`+`).
 */
export const filterSql = (workspaceId: string, f: MonitorFilter, byRowids = false): Sql[] => {
  const w: Sql[] = [{ sql: `${byRowids ? '+' : ''}m.workspace_id = ?`, params: [workspaceId] }];
  if (f.monitor_type) w.push({ sql: 'm.monitor_type = ?', params: [f.monitor_type] });
  if (f.paused !== undefined) w.push({ sql: 'm.paused = ?', params: [f.paused ? 1 : 0] });
  if (f.search) {
    const s = f.search.toLowerCase();
    w.push({
      sql: '(instr(fold_case(m.display_name), ?) > 0 OR instr(fold_case(m.url), ?) > 0)',
      params: [s, s],
    });
  }
  if (f.region)
    w.push({
      sql: 'EXISTS (SELECT 1 FROM json_each(m.check_locations) WHERE value = ?)',
      params: [f.region],
    });
  if (f.group_id === 'none') w.push({ sql: 'm.group_id IS NULL', params: [] });
  else if (f.group_id) w.push({ sql: 'm.group_id = ?', params: [f.group_id] });
  if (f.tag)
    w.push({
      sql: 'm.id IN (SELECT t.monitor_id FROM monitor_tags t WHERE t.workspace_id = ? AND t.tag = ?)',
      params: [workspaceId, f.tag],
    });
  return w;
};

/** Whether `cover` takes in `m`, as SQL (isCovered in domain/monitors/monitor-status.ts). */
export const coveredSql = (workspaceId: string, cover: MaintenanceCover): Sql => {
  if (cover.workspace) return { sql: '1', params: [] };
  const any: Sql[] = [];
  if (cover.monitorIds.length)
    any.push({ sql: 'm.id IN (SELECT value FROM json_each(?))', params: [JSON.stringify(cover.monitorIds)] });
  if (cover.groupIds.length)
    any.push({
      sql: 'm.group_id IN (SELECT value FROM json_each(?))',
      params: [JSON.stringify(cover.groupIds)],
    });
  if (cover.tags.length)
    any.push({
      sql: `m.id IN (SELECT t.monitor_id FROM monitor_tags t WHERE t.workspace_id = ?
              AND t.tag IN (SELECT value FROM json_each(?)))`,
      params: [workspaceId, JSON.stringify(cover.tags)],
    });
  if (any.length === 0) return { sql: '0', params: [] };
  return { sql: `(${any.map((a) => a.sql).join(' OR ')})`, params: any.flatMap((a) => a.params) };
};

const isNothing = (s: Sql) => s.sql === '0';

/**
 * The rowids of the monitors a partial cover names, for the maintenance bucket: found from the cover's
 * side (by primary key, by group, by tag), never by walking the workspace to test each monitor.
 */
const coveredRowidsSql = (workspaceId: string, cover: MaintenanceCover): Sql => {
  const parts: Sql[] = [];
  if (cover.monitorIds.length)
    parts.push({
      sql: 'SELECT c.rowid FROM monitors c WHERE c.id IN (SELECT value FROM json_each(?))',
      params: [JSON.stringify(cover.monitorIds)],
    });
  if (cover.groupIds.length)
    parts.push({
      sql: 'SELECT c.rowid FROM monitors c WHERE c.workspace_id = ? AND c.group_id IN (SELECT value FROM json_each(?))',
      params: [workspaceId, JSON.stringify(cover.groupIds)],
    });
  if (cover.tags.length)
    parts.push({
      sql: `SELECT c.rowid FROM monitor_tags t JOIN monitors c ON c.id = t.monitor_id
              WHERE t.workspace_id = ? AND t.tag IN (SELECT value FROM json_each(?))`,
      params: [workspaceId, JSON.stringify(cover.tags)],
    });
  return { sql: parts.map((p) => p.sql).join(' UNION '), params: parts.flatMap((p) => p.params) };
};

/** The rows of one status bucket (statusOf's precedence: paused, then maintenance, then the verdict). */
const bucketSql = (
  status: MonitorStatus,
  workspaceId: string,
  cover: MaintenanceCover,
  covered: Sql,
): Sql | null => {
  if (status === 'paused') return { sql: 'm.paused = 1', params: [] };
  if (status === 'maintenance') {
    if (isNothing(covered)) return null;
    if (cover.workspace) return { sql: 'm.paused = 0', params: [] };
    const rowids = coveredRowidsSql(workspaceId, cover);
    return { sql: `+m.paused = 0 AND m.rowid IN (${rowids.sql})`, params: rowids.params };
  }
  if (covered.sql === '1') return null;
  const verdict = { sql: 'm.paused = 0 AND m.verdict = ?', params: [status] };
  return isNothing(covered) ? verdict : and([verdict, { sql: `NOT ${covered.sql}`, params: covered.params }]);
};

/** The status of `m` as SQL, for a status filter on the other orders. */
const statusSql = (covered: Sql): Sql => ({
  sql: `(CASE WHEN m.paused = 1 THEN 'paused' WHEN ${covered.sql} THEN 'maintenance' ELSE m.verdict END)`,
  params: covered.params,
});

const inList = (values: string[]) => values.map(() => '?').join(', ');

/** The response time the `response_time` order sorts on (see the header). */
const RESPONSE_SQL = `(SELECT u.last_ok_ms FROM uptime_rollups u WHERE u.monitor_id = m.id AND u.ok > 0
    ORDER BY u.hour DESC, u.last_ok_at DESC LIMIT 1)`;

export interface ListedRows {
  rows: Row[];
  next_cursor: string | null;
}

/** A page of raw monitors rows (with `verdict`) in `sort`'s order after `cursor`. */
export const listMonitorRows = (
  { st }: SqliteContext,
  workspaceId: string,
  q: MonitorFilter & {
    sort?: MonitorSort | 'created' | undefined;
    cursor?: string | undefined;
    limit: number;
  },
  cover: MaintenanceCover,
): ListedRows => {
  const sort = q.sort ?? 'status';
  const cur = decodeMonitorCursor(q.cursor, sort);
  const filter = filterSql(workspaceId, q);
  const covered = coveredSql(workspaceId, cover);
  const want = q.limit + 1;
  const statuses = q.status?.length ? new Set(q.status) : null;

  if (sort === 'status') {
    const c = cur as Extract<MonitorCursor, { s: 'status' }> | null;
    const rows: Row[] = [];
    const bucketOf: number[] = [];
    for (let b = c?.b ?? 0; b < STATUS_ORDER.length && rows.length < want; b++) {
      const status = STATUS_ORDER[b]!;
      if (statuses && !statuses.has(status)) continue;
      const bucket = bucketSql(status, workspaceId, cover, covered);
      if (!bucket) continue;
      // A partial cover's maintenance bucket is found from the cover's side, then sorted (few rows).
      const byRowids = status === 'maintenance' && !cover.workspace;
      const where = [...(byRowids ? filterSql(workspaceId, q, true) : filter), bucket];
      if (c && c.b === b) where.push({ sql: '(m.name_key, m.id) > (?, ?)', params: [c.k, c.id] });
      const w = and(where);
      const order = byRowids ? '+m.name_key, +m.id' : 'm.name_key, m.id';
      const got = st(`SELECT m.* FROM monitors m WHERE ${w.sql} ORDER BY ${order} LIMIT ?`).all(
        ...w.params,
        want - rows.length,
      ) as Row[];
      for (const r of got) {
        rows.push(r);
        bucketOf.push(b);
      }
    }
    const more = rows.length > q.limit;
    const data = more ? rows.slice(0, q.limit) : rows;
    const last = data[data.length - 1];
    return {
      rows: data,
      next_cursor:
        more && last
          ? encodeMonitorCursor({
              s: 'status',
              b: bucketOf[data.length - 1]!,
              k: last.name_key as string,
              id: last.id as string,
            })
          : null,
    };
  }

  const where = [...filter];
  if (statuses) {
    const s = statusSql(covered);
    where.push({ sql: `${s.sql} IN (${inList([...statuses])})`, params: [...s.params, ...statuses] });
  }
  let order: string;
  let select = 'm.*';
  let keyset: Sql | null = null;
  let position: (r: Row) => MonitorCursor;
  if (sort === 'name') {
    order = 'm.name_key, m.id';
    const c = cur as Extract<MonitorCursor, { s: 'name' }> | null;
    if (c) keyset = { sql: '(m.name_key, m.id) > (?, ?)', params: [c.k, c.id] };
    position = (r) => ({ s: 'name', k: r.name_key as string, id: r.id as string });
  } else if (sort === 'last_change' || sort === 'created') {
    const col = sort === 'created' ? 'm.created_at' : 'm.status_changed_at';
    order = `${col} DESC, m.id DESC`;
    const c = cur as { t: number; id: string } | null;
    if (c) keyset = { sql: `(${col}, m.id) < (?, ?)`, params: [c.t, c.id] };
    position = (r) =>
      sort === 'created'
        ? { s: 'created', t: r.created_at as number, id: r.id as string }
        : { s: 'last_change', t: r.status_changed_at as number, id: r.id as string };
  } else {
    // response_time: slowest first, those without one last.
    select = `m.*, ${RESPONSE_SQL} AS sort_rt`;
    order = 'sort_rt IS NULL, sort_rt DESC, id';
    const c = cur as Extract<MonitorCursor, { s: 'response_time' }> | null;
    if (c)
      keyset =
        c.r === null
          ? { sql: 'sort_rt IS NULL AND id > ?', params: [c.id] }
          : {
              sql: '(sort_rt IS NULL OR sort_rt < ? OR (sort_rt = ? AND id > ?))',
              params: [c.r, c.r, c.id],
            };
    position = (r) => ({ s: 'response_time', r: (r.sort_rt as number | null) ?? null, id: r.id as string });
  }
  const w = and(where);
  const sql =
    sort === 'response_time'
      ? `SELECT * FROM (SELECT ${select} FROM monitors m WHERE ${w.sql}) ${keyset ? `WHERE ${keyset.sql}` : ''}
         ORDER BY ${order} LIMIT ?`
      : `SELECT ${select} FROM monitors m WHERE ${w.sql}${keyset ? ` AND ${keyset.sql}` : ''}
         ORDER BY ${order} LIMIT ?`;
  const rows = st(sql).all(...w.params, ...(keyset?.params ?? []), want) as Row[];
  const more = rows.length > q.limit;
  const data = more ? rows.slice(0, q.limit) : rows;
  const last = data[data.length - 1];
  return { rows: data, next_cursor: more && last ? encodeMonitorCursor(position(last)) : null };
};

/** How many monitors matching `f` have each status under `cover`: one or two grouped index reads. */
export const countMonitorRows = (
  { st }: SqliteContext,
  workspaceId: string,
  f: MonitorFilter,
  cover: MaintenanceCover,
): MonitorCounts => {
  const counts: MonitorCounts = { up: 0, down: 0, pending: 0, paused: 0, maintenance: 0, total: 0 };
  const filter = and(filterSql(workspaceId, f));
  // Without a filter (but status), the workspace's counters (migration 36) say it in a few rows.
  const whole = filterSql(workspaceId, f).length === 1;
  const groups = (
    whole
      ? st('SELECT paused, verdict, n FROM monitor_status_counts WHERE workspace_id = ?').all(workspaceId)
      : st(
          `SELECT m.paused, m.verdict, count(*) AS n FROM monitors m WHERE ${filter.sql} GROUP BY m.paused, m.verdict`,
        ).all(...filter.params)
  ) as { paused: number; verdict: 'up' | 'down' | 'pending'; n: number }[];
  for (const g of groups) {
    if (g.paused) counts.paused += g.n;
    else if (cover.workspace) counts.maintenance += g.n;
    else counts[g.verdict] += g.n;
  }
  const covered = coveredSql(workspaceId, cover);
  if (!cover.workspace && !isNothing(covered)) {
    const rowids = coveredRowidsSql(workspaceId, cover);
    const w = and([
      ...filterSql(workspaceId, f, true),
      { sql: `+m.paused = 0 AND m.rowid IN (${rowids.sql})`, params: rowids.params },
    ]);
    const moved = st(`SELECT m.verdict, count(*) AS n FROM monitors m WHERE ${w.sql} GROUP BY m.verdict`).all(
      ...w.params,
    ) as { verdict: 'up' | 'down' | 'pending'; n: number }[];
    for (const g of moved) {
      counts[g.verdict] -= g.n;
      counts.maintenance += g.n;
    }
  }
  if (f.status?.length) for (const s of STATUS_ORDER) if (!f.status.includes(s)) counts[s] = 0;
  counts.total = STATUS_ORDER.reduce((n, s) => n + counts[s], 0);
  return counts;
};
