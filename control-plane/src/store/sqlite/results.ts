import { addLatency, decodeCounts } from '../../domain/results/latency-histogram.js';
import {
  byMonitorThenLocation,
  DAILY_ROLLUP_IDS,
  type DailyRollup,
  type ResultStore,
} from '../../domain/results/result-store.js';
import { DAY_MS } from '../../domain/results/uptime.js';
import type { CheckResultRecord, MonitorLocationState } from '../../domain/types.js';
import { decodeCursor, toPage } from '../cursor.js';
import type { SqliteContext } from './db.js';
import { sqliteResultExport } from './exports.js';
import type { MonitorLevels } from './monitor-levels.js';
import { type SqliteRollups, WAITING_CTE, waitingAfter } from './rollups.js';
import type { SqliteStateBook } from './state-book.js';
import { insertSql, recentResults, results, runWith } from './tables.js';

/**
 * Check results in SQLite, stored the way they arrive (issue 27; docs/decisions.md "The result store").
 *
 * `recordResults` is the ingestion step: the new results are appended to `check_results_recent`, each
 * row carrying the location state it moved (state-book.ts), in one IMMEDIATE transaction (one fsync
 * per batch). That table has no per-monitor index, so a stored result writes no page of its own: its
 * row and its entry in the time-ordered unique index land where the previous ones did. Each monitor's
 * recent rows are found through the in-memory index the state book keeps (recent-index.ts). Every few
 * minutes the uptime flush folds them into `check_results`, monitor by monitor, in monitor order
 * (rollups.ts): there a monitor's results sit together under its (monitor_id, scheduled_at) index, so
 * a monitor's history is one index range, and a fold writes each monitor's index page once for all the
 * results it took.
 *
 * A reader takes a monitor's results from both: the recent rows still waiting (WAITING_CTE,
 * `waitingAfter`: a recent row already folded is also in check_results, until the flush deletes it)
 * and its index range in check_results, in one read transaction.
 */
export const sqliteResults = (
  ctx: SqliteContext,
  rollups: SqliteRollups,
  book: SqliteStateBook,
  levels: MonitorLevels,
): ResultStore => {
  const { st, immediate, many, read } = ctx;
  return {
    ...sqliteResultExport(ctx, book),
    async listResults(workspaceId, monitorId, q) {
      const where = ['workspace_id = @ws'];
      if (q.location) where.push('location = @location');
      if (q.since) where.push('scheduled_at >= @since');
      if (q.until) where.push('scheduled_at < @until');
      const cur = decodeCursor(q.cursor);
      if (cur) where.push('(scheduled_at < @t OR (scheduled_at = @t AND id < @id))');
      const params = {
        m: monitorId,
        ws: workspaceId,
        rids: book.recentRowIds([monitorId]),
        location: q.location ?? null,
        since: q.since?.getTime() ?? null,
        until: q.until?.getTime() ?? null,
        t: cur?.t ?? null,
        id: cur?.id ?? null,
        n: q.limit + 1,
      };
      const order = 'ORDER BY scheduled_at DESC, id DESC LIMIT @n';
      const rows = read(() => [
        ...many<CheckResultRecord>(
          results,
          `WITH ${WAITING_CTE} SELECT r.* FROM check_results_recent r
           WHERE r.rid IN (SELECT value FROM json_each(@rids)) AND ${waitingAfter('r')} AND ${where.join(' AND ')} ${order}`,
          params,
        ),
        ...many<CheckResultRecord>(
          results,
          `SELECT * FROM check_results WHERE monitor_id = @m AND ${where.join(' AND ')} ${order}`,
          params,
        ),
      ]);
      rows.sort(newestFirst);
      return toPage(rows.slice(0, q.limit + 1), q.limit, (r) => r.scheduled_at);
    },
    async countResults(workspaceId, monitorId, since, until) {
      return st(
        `WITH ${WAITING_CTE} SELECT count(*) total, coalesce(sum(ok), 0) ok FROM (
           SELECT r.ok FROM check_results_recent r WHERE r.rid IN (SELECT value FROM json_each(@rids))
             AND ${waitingAfter('r')} AND r.workspace_id = @ws AND r.scheduled_at >= @since AND r.scheduled_at < @until
           UNION ALL
           SELECT ok FROM check_results
             WHERE monitor_id = @m AND scheduled_at >= @since AND scheduled_at < @until AND workspace_id = @ws)`,
      ).get({
        m: monitorId,
        ws: workspaceId,
        rids: book.recentRowIds([monitorId]),
        since: since.getTime(),
        until: until.getTime(),
      }) as { total: number; ok: number };
    },
    async pruneResults(before, limit) {
      // Recent rows received before `before` are folded (and deleted from the recent table) first,
      // by `foldAll`. Row ids follow arrival, so the oldest recent row says whether there are any:
      // usually none (retention is days, the flush runs every few minutes), so the flush keeps its own
      // 5-minute period. Folding with every prune (each minute) had written each monitor's page five
      // times as often (docs/benchmarks.md, "History": issue 27's fifth round).
      const oldest = st('SELECT received_at FROM check_results_recent ORDER BY rid LIMIT 1').get() as
        | { received_at: number }
        | undefined;
      if (oldest && oldest.received_at < before.getTime()) await rollups.foldAll();
      // check_results is in fold order, so its oldest results come first by row id: look at the first
      // rows only (a bounded read), and delete those received before `before`.
      return st(
        `DELETE FROM check_results WHERE rowid IN (SELECT rowid FROM
           (SELECT rowid, received_at FROM check_results ORDER BY rowid LIMIT @scan)
         WHERE received_at < @before LIMIT @limit)`,
      ).run({ before: before.getTime(), limit, scan: limit * PRUNE_SCAN }).changes;
    },
    async sumRollups(workspaceId, monitorId, fromHour, toHour) {
      // The buckets and the results still waiting for them (rollups.ts), in one snapshot.
      return st(
        `WITH ${WAITING_CTE}
       SELECT coalesce(sum(total), 0) total, coalesce(sum(ok), 0) ok FROM (
         SELECT total, ok FROM uptime_rollups
           WHERE monitor_id = @m AND hour >= @from AND hour < @to AND workspace_id = @ws
         UNION ALL
         SELECT 1, r.ok != 0 FROM check_results_recent r
           WHERE r.rid IN (SELECT value FROM json_each(@rids)) AND r.scheduled_at >= @from AND r.scheduled_at < @to
             AND ${waitingAfter('r')} AND r.workspace_id = @ws)`,
      ).get({
        m: monitorId,
        rids: book.recentRowIds([monitorId]),
        from: fromHour.getTime(),
        to: toHour.getTime(),
        ws: workspaceId,
      }) as {
        total: number;
        ok: number;
      };
    },
    async pruneRollups(before, limit, dailyBefore = before) {
      const hourly = st(
        `DELETE FROM uptime_rollups WHERE (monitor_id, hour, location) IN
         (SELECT monitor_id, hour, location FROM uptime_rollups WHERE hour < ? LIMIT ?)`,
      ).run(before.getTime(), limit).changes;
      // A day goes once all of it is before `dailyBefore`.
      const daily = st(
        `DELETE FROM uptime_daily WHERE (monitor_id, day, location) IN
         (SELECT monitor_id, day, location FROM uptime_daily WHERE day <= ? LIMIT ?)`,
      ).run(dailyBefore.getTime() - DAY_MS, limit).changes;
      return hourly + daily;
    },
    async dailyRollups(workspaceId, monitorIds, fromDay, toDay) {
      const out: DailyRollup[] = [];
      const ids = [...new Set(monitorIds)].sort();
      const read = st(DAILY_ROLLUP_ROWS);
      for (let i = 0; i < ids.length; i += DAILY_ROLLUP_IDS) {
        const slice = ids.slice(i, i + DAILY_ROLLUP_IDS);
        // Summed here, not by GROUP BY: each bucket's histogram is decoded once, straight into its day's
        // (an SQL aggregate decoded, re-encoded and the caller decoded again: 2 × the bare read).
        const rows = read.raw(true).all({
          ids: JSON.stringify(slice),
          rids: book.recentRowIds(slice),
          from: fromDay,
          to: toDay,
          ws: workspaceId,
        }) as [string, number, number, number, number, number, number, Uint8Array | null, number | null][];
        const days = new Map<string, DailyRollup>();
        for (const [monitor_id, day, total, ok, maint_total, maint_ok, ms_sum, latency, ms] of rows) {
          const key = `${monitor_id}\u0000${day}`;
          let d = days.get(key);
          if (!d) {
            d = {
              monitor_id,
              day,
              total: 0,
              ok: 0,
              maint_total: 0,
              maint_ok: 0,
              response_ms_sum: 0,
              latency: new Map(),
            };
            days.set(key, d);
          }
          d.total += total;
          d.ok += ok;
          d.maint_total += maint_total;
          d.maint_ok += maint_ok;
          d.response_ms_sum += ms_sum;
          if (latency) decodeCounts(latency, d.latency);
          else if (ms !== null) addLatency(d.latency, ms);
        }
        out.push(
          ...[...days.values()].sort((a, b) =>
            a.monitor_id < b.monitor_id ? -1 : a.monitor_id > b.monitor_id ? 1 : a.day - b.day,
          ),
        );
      }
      return out;
    },

    async recordResults(batch, step) {
      if (batch.length === 0) return { stored: [], states: [] };
      // Each result's monitor number (monitor-slots.ts), looked up once: every table below is by number.
      const slots = batch.map((r) => book.slot(r.monitor_id));
      const touched = [...new Set(slots)];
      const out = immediate(() => {
        // Under the write lock: what other processes stored since, so every step sees the newest state.
        book.catchUp();
        const insert = st(INSERT_RECENT);
        // A replayed result whose first copy was folded already: looked for in check_results, but only
        // when it is not newer than everything folded (a fresh result never is there).
        const foldedThrough =
          (st('SELECT folded_through AS t FROM uptime_rollup_mark').get() as { t: number | null }).t ?? -1;
        const folded = st('SELECT 1 FROM check_results WHERE monitor_id = ? AND scheduled_at = ? AND id = ?');
        const foldedRun = st('SELECT 1 FROM check_results WHERE id = ? AND run_now_request_id IS NOT NULL');
        const stored: string[] = [];
        /** The monitor number of each row stored (`rids[i]`). */
        const storedSlots: number[] = [];
        const rids: number[] = [];
        /**
         * States moved by this batch, by location (`locations[i]`: a batch comes from one agent, so
         * nearly always from one) and then monitor number: the book takes them once it commits.
         */
        const moved: Map<number, MonitorLocationState>[] = [];
        const locations: string[] = [];
        let last = 0;
        for (let i = 0; i < batch.length; i++) {
          const r = batch[i]!;
          if (
            (r.scheduled_at.getTime() <= foldedThrough &&
              folded.get(r.monitor_id, r.scheduled_at.getTime(), r.id) !== undefined) ||
            (r.run_now_request_id && foldedRun.get(r.id) !== undefined)
          )
            continue;
          const slot = slots[i]!;
          let loc = locations.indexOf(r.location);
          if (loc < 0) {
            loc = locations.push(r.location) - 1;
            moved.push(new Map());
          }
          const movedHere = moved[loc]!;
          // The state after this result rides in its own row: the log the book is rebuilt from. A
          // result already stored (a replay) moves nothing, so its step is dropped.
          const next = step(movedHere.get(slot) ?? book.getAt(slot, r.location), r);
          const info = runWith(recentResults, insert, r, {
            state_status: next?.status ?? null,
            state_failures: next?.consecutive_failures ?? null,
            state_successes: next?.consecutive_successes ?? null,
            state_slow: next?.consecutive_slow ?? null,
          });
          if (info.changes !== 1) continue;
          stored.push(r.id);
          last = Number(info.lastInsertRowid);
          storedSlots.push(slot);
          rids.push(last);
          if (next) movedHere.set(slot, next);
        }
        // The monitors' '*' rows, from this process's copy while no process has written one since.
        const stars = levels.currentAt(touched);
        return { stored, moved, last, stars, storedSlots, rids };
      });
      const movedStates: MonitorLocationState[] = [];
      const movedSlots: number[] = [];
      for (const here of out.moved)
        for (const [slot, state] of here) {
          movedSlots.push(slot);
          movedStates.push(state);
        }
      book.committed(movedStates, movedSlots, out.last, out.storedSlots, out.rids);
      const after = out.stars;
      for (const slot of touched) for (const s of book.locationsAt(slot)) after.push(s);
      after.sort(byMonitorThenLocation);
      return { stored: out.stored, states: after };
    },
  };
};

/**
 * The daily buckets of `@ids` in [@from, @to) (a row per location) and the results still waiting for
 * them (rollups.ts, a row each: `ms` its response time, `latency` NULL), in one snapshot; summed per
 * (monitor, day) by `dailyRollups`.
 */
const DAILY_ROLLUP_ROWS = `WITH ${WAITING_CTE}, ids(id) AS (SELECT value FROM json_each(@ids))
  SELECT monitor_id, day, total, ok, maint_total, maint_ok, response_ms_sum, latency, NULL AS ms FROM uptime_daily
    WHERE monitor_id IN (SELECT id FROM ids) AND day >= @from AND day < @to AND workspace_id = @ws
  UNION ALL
  SELECT r.monitor_id, r.scheduled_at - r.scheduled_at % ${DAY_MS}, 1, r.ok != 0, r.in_maintenance != 0,
      r.in_maintenance != 0 AND r.ok != 0, r.response_time_ms, NULL, r.response_time_ms
    FROM check_results_recent r
    WHERE r.rid IN (SELECT value FROM json_each(@rids)) AND r.scheduled_at >= @from AND r.scheduled_at < @to
      AND ${waitingAfter('r')} AND r.workspace_id = @ws`;

const INSERT_RECENT = `${insertSql(recentResults, [], 'positional')} ON CONFLICT DO NOTHING`;

/** Rows pruneResults looks at per row it may delete (fold order is time order only roughly). */
const PRUNE_SCAN = 4;

const newestFirst = (a: CheckResultRecord, b: CheckResultRecord) =>
  b.scheduled_at.getTime() - a.scheduled_at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
