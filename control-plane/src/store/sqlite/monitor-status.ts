import { isCovered } from '../../domain/maintenance/cover.js';
import {
  type MonitorChecksSummary,
  type MonitorStatusInfo,
  type MonitorStatusStore,
  type MonitorWithStatus,
  NO_CHECKS,
  RECENT_CHECKS,
  type RecentCheck,
  statusOf,
} from '../../domain/monitors/monitor-status.js';
import { dashboardWindows, percent } from '../../domain/results/uptime.js';
import type { MaintenanceCover, Monitor } from '../../domain/types.js';

/** A monitor with the group and tags a cover may name (where the record has them). */
type MonitorWithScope = Monitor & { group_id?: string | null; tags?: string[] };

import type { SqliteContext } from './db.js';
import { countMonitorRows, listMonitorRows } from './monitor-list.js';
import { WAITING_CTE, waitingAfter } from './rollups.js';
import type { SqliteStateBook } from './state-book.js';
import { fromRow, monitors } from './tables.js';

type Row = Record<string, unknown>;

/**
 * The monitors in `json_each(?)` of one workspace, by primary key: `+` keeps SQLite (which has no
 * statistics here) from walking the workspace's index instead, which costs the workspace's whole
 * monitor count on every create, update or pause.
 */
export const STATUSES_BY_ID_SQL = `SELECT m.* FROM monitors m
  WHERE m.id IN (SELECT value FROM json_each(?)) AND +m.workspace_id = ?`;

/**
 * The uptime of each monitor in `json_each(?)` over the dashboard's two windows
 * (domain/results/uptime.ts `dashboardWindows`), and its newest successful response time, from the
 * buckets. Each part is a range of a bucket table's key per monitor: the hourly buckets of the last
 * 24 h and of the hours before and after the whole days, the daily buckets of those whole days; the
 * newest hourly bucket with a success is found walking its key backwards. The results still waiting
 * for their buckets (rollups.ts) are added by the caller, from WAITING_SQL.
 */
const ROLLUPS_SQL = `WITH page(id) AS (SELECT value FROM json_each(@ids)),
  parts AS (
    SELECT monitor_id, total AS t30, ok AS o30, 0 AS t24, 0 AS o24 FROM uptime_rollups
      WHERE monitor_id IN (SELECT id FROM page) AND hour >= @from30d AND hour < @fullDaysFrom
    UNION ALL
    SELECT monitor_id, total, ok, 0, 0 FROM uptime_daily
      WHERE monitor_id IN (SELECT id FROM page) AND day >= @fullDaysFrom AND day < @fullDaysTo
    UNION ALL
    SELECT monitor_id,
        CASE WHEN hour >= @fullDaysTo THEN total ELSE 0 END, CASE WHEN hour >= @fullDaysTo THEN ok ELSE 0 END,
        CASE WHEN hour >= @from24h THEN total ELSE 0 END, CASE WHEN hour >= @from24h THEN ok ELSE 0 END
      FROM uptime_rollups WHERE monitor_id IN (SELECT id FROM page) AND hour >= min(@from24h, @fullDaysTo)),
  sums AS (
    SELECT monitor_id, sum(t30) AS total_30d, sum(o30) AS ok_30d, sum(t24) AS total_24h, sum(o24) AS ok_24h
    FROM parts GROUP BY monitor_id)
  SELECT p.id, coalesce(s.total_30d, 0) AS total_30d, coalesce(s.ok_30d, 0) AS ok_30d,
    coalesce(s.total_24h, 0) AS total_24h, coalesce(s.ok_24h, 0) AS ok_24h,
    (SELECT u.last_ok_ms FROM uptime_rollups u WHERE u.monitor_id = p.id AND u.hour =
        (SELECT h.hour FROM uptime_rollups h WHERE h.monitor_id = p.id AND h.ok > 0 ORDER BY h.hour DESC LIMIT 1)
      ORDER BY u.last_ok_at DESC LIMIT 1) AS last_ok_ms,
    (SELECT max(u.last_ok_at) FROM uptime_rollups u WHERE u.monitor_id = p.id AND u.hour =
        (SELECT h.hour FROM uptime_rollups h WHERE h.monitor_id = p.id AND h.ok > 0 ORDER BY h.hour DESC LIMIT 1))
      AS last_ok_at
  FROM page p LEFT JOIN sums s ON s.monitor_id = p.id`;

/**
 * The columns of a check as WAITING_SQL and RECENT_SQL read it, in order. Both are read as arrays
 * (better-sqlite3's raw mode): an object per row cost more than the query (3,000 rows of a page of 100
 * monitors: 7.7 ms as objects, 3.8 as arrays, 1.2 counting them in SQL alone; docs/benchmarks.md,
 * "History": issue 27's nineteenth round).
 */
const MONITOR = 0;
const AT = 1;
const OK = 2;
const LOCATION = 3;
const RESPONSE_MS = 4;
const STATUS_CODE = 5;
const ID = 6;
type CheckRow = [string, number, number, string, number, number | null, string];

/**
 * The page's results still waiting in the recent table (results.ts), by row id (`@rids`): read once
 * (they are scattered over that table, a page each), for both the uptime they add and the recent checks.
 */
const WAITING_SQL = `WITH ${WAITING_CTE}
  SELECT r.monitor_id, r.scheduled_at, r.ok, r.location, r.response_time_ms, r.status_code, r.id
    FROM check_results_recent r WHERE r.rid IN (SELECT value FROM json_each(@rids)) AND ${waitingAfter('r')}`;

/**
 * The RECENT_CHECKS newest folded results of each monitor in `json_each(@ids)`: per monitor, a walk of
 * check_results' (monitor_id, scheduled_at) index that stops after RECENT_CHECKS rows. (A window
 * function, row_number() OVER (PARTITION BY monitor_id), would read every result of the page's
 * monitors first.) The caller adds the waiting ones and keeps the newest.
 */
const RECENT_SQL = `SELECT r.monitor_id, r.scheduled_at, r.ok, r.location, r.response_time_ms, r.status_code, r.id
  FROM json_each(@ids) j JOIN check_results r ON r.rowid IN
    (SELECT rowid FROM check_results WHERE monitor_id = j.value ORDER BY scheduled_at DESC LIMIT ${RECENT_CHECKS})`;

/** Newest first, ties by id (as the results' own order). */
const newestFirst = (a: CheckRow, b: CheckRow) =>
  b[AT] - a[AT] || (a[ID] < b[ID] ? 1 : a[ID] > b[ID] ? -1 : 0);

/** What a check shows as its response time: none when no response arrived. */
export const recentResponseTime = (ok: boolean, ms: number, statusCode: number | null) =>
  ok || statusCode !== null ? ms : null;

/**
 * Monitor status in SQLite: a page is one query per status bucket it reaches (monitor-list.ts), then
 * two for the checks.
 */
export const sqliteMonitorStatus = (ctx: SqliteContext, book: SqliteStateBook): MonitorStatusStore => {
  const { st, read } = ctx;
  /** The record, its status under `cover`, and when it was last checked: its newest location state (state-book.ts). */
  const withStatus = (row: Row, cover: MaintenanceCover) => {
    const m = fromRow<Monitor>(monitors, row);
    return Object.assign(m, {
      status: statusOf(
        { paused: m.paused, verdict: row.verdict as 'up' | 'down' | 'pending' },
        isCovered(cover, { type: 'monitor', ...(m as MonitorWithScope) }),
      ),
      last_checked_at: book.lastResultAt(m.id),
    });
  };
  /** The checks summary of these monitors at `at`: two reads, whatever their number. */
  const checksOf = (ids: string[], at: Date): Map<string, MonitorChecksSummary> => {
    const out = new Map<string, MonitorChecksSummary>();
    if (ids.length === 0) return out;
    const json = JSON.stringify(ids);
    const rids = JSON.stringify(book.recent.ofAll(ids));
    const windows = dashboardWindows(at);
    const { rollups, waiting, folded } = read(() => ({
      rollups: st(ROLLUPS_SQL).all({ ids: json, ...windows }) as Row[],
      waiting: st(WAITING_SQL).raw(true).all({ rids }) as CheckRow[],
      folded: st(RECENT_SQL).raw(true).all({ ids: json }) as CheckRow[],
    }));
    /** Each monitor's results (waiting and newest folded), and what its waiting ones add to its uptime. */
    const results = new Map<string, CheckRow[]>();
    const added = new Map<
      string,
      { t30: number; o30: number; t24: number; o24: number; okAt: number; okMs: number }
    >();
    for (const w of waiting) {
      const t = w[AT];
      if (t < windows.from30d) continue;
      const id = w[MONITOR];
      let a = added.get(id);
      if (!a) {
        a = { t30: 0, o30: 0, t24: 0, o24: 0, okAt: -1, okMs: 0 };
        added.set(id, a);
      }
      const ok = w[OK] === 1 ? 1 : 0;
      a.t30++;
      a.o30 += ok;
      if (t >= windows.from24h) {
        a.t24++;
        a.o24 += ok;
      }
      if (ok && t >= a.okAt) {
        a.okAt = t;
        a.okMs = w[RESPONSE_MS];
      }
    }
    const byMonitor = (r: CheckRow) => {
      const list = results.get(r[MONITOR]);
      if (list) list.push(r);
      else results.set(r[MONITOR], [r]);
    };
    waiting.forEach(byMonitor);
    folded.forEach(byMonitor);
    for (const r of rollups) {
      const a = added.get(r.id as string);
      // The newest success: from the buckets, or a result still waiting for them when newer.
      let lastOkMs = (r.last_ok_ms as number | null) ?? null;
      if (a && a.okAt >= 0 && a.okAt >= ((r.last_ok_at as number | null) ?? 0)) lastOkMs = a.okMs;
      const mine = results.get(r.id as string) ?? [];
      // The RECENT_CHECKS newest of both, oldest first.
      const recent = mine.sort(newestFirst).slice(0, RECENT_CHECKS).reverse();
      out.set(r.id as string, {
        uptime_24h: percent((r.ok_24h as number) + (a?.o24 ?? 0), (r.total_24h as number) + (a?.t24 ?? 0)),
        uptime_30d: percent((r.ok_30d as number) + (a?.o30 ?? 0), (r.total_30d as number) + (a?.t30 ?? 0)),
        last_response_time_ms: lastOkMs,
        recent_checks: recent.map(
          (c): RecentCheck => ({
            at: new Date(c[AT]),
            ok: c[OK] === 1,
            location: c[LOCATION],
            response_time_ms: recentResponseTime(c[OK] === 1, c[RESPONSE_MS], c[STATUS_CODE]),
          }),
        ),
      });
    }
    return out;
  };
  const withChecks = <T extends { id: string }>(
    rows: T[],
    at: Date,
    checks: boolean,
  ): (T & MonitorChecksSummary)[] => {
    const summary = checks
      ? checksOf(
          rows.map((r) => r.id),
          at,
        )
      : new Map<string, MonitorChecksSummary>();
    // Object.assign, not `{ ...r, ...summary }`: see monitorJson (http/monitors/responses.ts).
    return rows.map((r) => Object.assign({}, r, summary.get(r.id) ?? NO_CHECKS));
  };

  return {
    async listMonitorsWithStatus(workspaceId, q, at, cover) {
      book.catchUp();
      const { rows, next_cursor } = read(() => listMonitorRows(ctx, workspaceId, q, cover));
      const data = rows.map((r) => withStatus(r, cover));
      return { data: withChecks(data, at, q.checks !== false) as MonitorWithStatus[], next_cursor };
    },
    async countMonitorsByStatus(workspaceId, filter, cover) {
      return read(() => countMonitorRows(ctx, workspaceId, filter, cover));
    },
    async getMonitorStatuses(workspaceId, ids, at, cover) {
      if (ids.length === 0) return new Map();
      book.catchUp();
      const rows = st(STATUSES_BY_ID_SQL).all(JSON.stringify(ids), workspaceId) as Row[];
      const infos = withChecks(
        rows.map((r) => {
          const { status, last_checked_at } = withStatus(r, cover);
          return { id: r.id as string, status, last_checked_at };
        }),
        at,
        true,
      );
      return new Map(infos.map(({ id, ...info }) => [id, info as MonitorStatusInfo]));
    },
  };
};
