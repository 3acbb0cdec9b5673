import { DAY_MS, HOUR_MS } from '../../domain/results/uptime.js';
import { type SqliteContext, withoutFsync } from './db.js';
import { periodic, type Schedule } from './periodic.js';

/**
 * The results of one flush chunk: those of the monitors in `@ids` with row ids in (@from, @to], found
 * by a walk of each monitor's (monitor_id, scheduled_at) index entries from `@since` (the earliest
 * scheduled time that may wait) on.
 */
const CHUNK_ROWS = `monitor_id IN (SELECT value FROM json_each(@ids)) AND scheduled_at >= @since
  AND +rowid > @from AND +rowid <= @to`;

/**
 * Adds the results of a chunk (CHUNK_ROWS) to their hourly buckets, grouped in SQL. The newest
 * success's response time is a bare column beside the one max() (SQLite takes it from that row).
 */
const ADD_TO_HOURLY = `INSERT INTO uptime_rollups (monitor_id, hour, location, workspace_id, total, ok,
    response_ms_sum, last_ok_at, last_ok_ms)
  SELECT monitor_id, scheduled_at - scheduled_at % ${HOUR_MS}, location, workspace_id, count(*), sum(ok != 0),
    sum(response_time_ms), max(CASE WHEN ok != 0 THEN scheduled_at END),
    CASE WHEN max(CASE WHEN ok != 0 THEN scheduled_at END) IS NULL THEN NULL ELSE response_time_ms END
  FROM check_results WHERE ${CHUNK_ROWS} GROUP BY 1, 2, 3
  ON CONFLICT (monitor_id, hour, location) DO UPDATE SET
    total = total + excluded.total, ok = ok + excluded.ok,
    response_ms_sum = response_ms_sum + excluded.response_ms_sum,
    last_ok_ms = CASE WHEN excluded.last_ok_at >= coalesce(last_ok_at, 0) THEN excluded.last_ok_ms ELSE last_ok_ms END,
    last_ok_at = coalesce(max(last_ok_at, excluded.last_ok_at), last_ok_at, excluded.last_ok_at)`;
const ADD_TO_DAILY = `INSERT INTO uptime_daily (monitor_id, day, location, workspace_id, total, ok, response_ms_sum)
  SELECT monitor_id, scheduled_at - scheduled_at % ${DAY_MS}, location, min(workspace_id), count(*), sum(ok != 0),
    sum(response_time_ms)
  FROM check_results WHERE ${CHUNK_ROWS} GROUP BY 1, 2, 3
  ON CONFLICT (monitor_id, day, location) DO UPDATE SET
    total = total + excluded.total, ok = ok + excluded.ok,
    response_ms_sum = response_ms_sum + excluded.response_ms_sum`;

export interface RollupFlushOptions {
  /** Between two flushes (default 5 min). */
  everyMs?: number;
  /** Monitors per flush transaction (default 250: a few ms of the event loop each). */
  chunkMonitors?: number;
  /** Arms the next flush; returns its cancel (default an unref'd setTimeout). */
  schedule?: Schedule;
  /** Resolves in a later macrotask: the flush gives the event loop back between chunks (default setImmediate). */
  nextTurn?: () => Promise<void>;
}

/**
 * The uptime buckets, kept off the ingestion transaction. recordResults stores results only; the
 * buckets are written from the stored results themselves every `everyMs` (and at open, before
 * pruning, on close). Every result with a row id up to the mark `uptime_rollup_mark.upto` is in the
 * buckets, no later one is, except during a flush:
 *
 * A flush takes the results up to `flush_to` (the newest row id when it began) monitor by monitor, in
 * monitor id order, `chunkMonitors` monitors a transaction: each chunk adds those monitors' results in
 * (upto, flush_to] to their buckets and moves `flush_done` to its last monitor id, in one transaction;
 * the last one moves `upto` to `flush_to`. So a bucket is written once per flush whatever the number
 * of results in it: with a 60 s check interval and a 5 min flush, a monitor's hourly and daily bucket
 * take a page write each per five results instead of one each per result (flushing by row-id ranges,
 * as before, wrote every bucket of the monitors a range held, i.e. every bucket once per minute of
 * results). The monitors are found by walking the distinct ids of the results' monitor index, so a
 * deleted monitor's results are flushed too. A crash anywhere loses nothing and counts nothing twice:
 * the next flush (at the latest the one at open) goes on from `flush_done`. Any process on the file may
 * flush, or go on with, another's: the mark is read and moved in IMMEDIATE transactions.
 *
 * Reads stay exact in every process: they add the results still waiting to the buckets, in the same
 * statement (one snapshot), where waiting means a row id after `upto`, or after `flush_to` for a
 * monitor at or before `flush_done` (WAITING_CTE, `waitingAfter`). `waiting_from` bounds the
 * scheduled times of the waiting results from below (recordResults lowers it, the end of a flush sets
 * it exactly), so a reader walks only a monitor's recent entries of the (monitor_id, scheduled_at)
 * index.
 *
 * Row ids only rise (results.ts `keepRowidsRising`), and pruning deletes only results in the buckets.
 */
export const sqliteRollups = (ctx: SqliteContext, opts: RollupFlushOptions = {}) => {
  const { st } = ctx;
  const everyMs = opts.everyMs ?? 300_000;
  const chunkMonitors = opts.chunkMonitors ?? 250;
  const nextTurn = opts.nextTurn ?? (() => new Promise<void>((r) => setImmediate(r)));

  interface Mark {
    upto: number;
    flush_to: number | null;
    flush_done: string | null;
    waiting_from: number | null;
  }
  const markNow = () =>
    st('SELECT upto, flush_to, flush_done, waiting_from FROM uptime_rollup_mark').get() as Mark;
  const maxRowid = () =>
    (st('SELECT coalesce(max(rowid), 0) AS m FROM check_results').get() as { m: number }).m;
  /** The next `count` monitor ids after `after` that have results, from the monitor index. */
  const nextMonitors = (after: string, count: number): string[] => {
    const next = st('SELECT monitor_id FROM check_results WHERE monitor_id > ? ORDER BY monitor_id LIMIT 1');
    const ids: string[] = [];
    let id = after;
    while (ids.length < count) {
      const row = next.get(id) as { monitor_id: string } | undefined;
      if (!row) break;
      id = row.monitor_id;
      ids.push(id);
    }
    return ids;
  };
  /** Begins a flush of everything stored now, unless one is under way; false when nothing waits. */
  const begin = (): boolean =>
    withoutFsync(ctx, () => {
      const mark = markNow();
      if (mark.flush_to !== null) return true;
      const to = maxRowid();
      if (to <= mark.upto) return false;
      st("UPDATE uptime_rollup_mark SET flush_to = ?, flush_done = ''").run(to);
      return true;
    });
  /**
   * One transaction: the next `chunkMonitors` monitors' results after the mark, up to `flush_to`, into
   * the buckets; or, with no monitor left, the flush's end. True while there is more.
   */
  const chunk = (): boolean =>
    withoutFsync(ctx, () => {
      const mark = markNow();
      if (mark.flush_to === null) return false;
      const ids = nextMonitors(mark.flush_done ?? '', chunkMonitors);
      if (ids.length > 0) {
        const params = {
          ids: JSON.stringify(ids),
          since: mark.waiting_from ?? 0,
          from: mark.upto,
          to: mark.flush_to,
        };
        st(ADD_TO_HOURLY).run(params);
        st(ADD_TO_DAILY).run(params);
        st('UPDATE uptime_rollup_mark SET flush_done = ?').run(ids[ids.length - 1]);
        return true;
      }
      // The flush's end: what waits now arrived during it; its earliest time, exactly.
      st(
        `UPDATE uptime_rollup_mark SET upto = @to, flush_to = NULL, flush_done = NULL,
           waiting_from = (SELECT min(scheduled_at) FROM check_results WHERE rowid > @to)`,
      ).run({ to: mark.flush_to });
      return false;
    });

  let flushing: Promise<void> | null = null;
  let started = false;
  /** Writes every result stored before it starts, a chunk of monitors per turn of the event loop. */
  const flush = (): Promise<void> => {
    flushing ??= (async () => {
      // One under way (another process's, or one a crash left) is finished first, then one more
      // takes what came before this call.
      const until = maxRowid();
      while (begin()) {
        await nextTurn();
        while (chunk()) await nextTurn();
        if (markNow().upto >= until) break;
      }
    })().finally(() => {
      flushing = null;
    });
    return flushing;
  };
  const timer = periodic(flush, everyMs, opts.schedule);

  return {
    /** At open, after the migrations: writes what a crash left waiting, then every `everyMs`. */
    async start() {
      started = true;
      await flush();
      timer.arm();
    },
    /** Stops the timer and writes what is waiting (close). */
    async stop() {
      timer.stop();
      if (started) await flush();
    },
    /** Stops the timer only (what a crash leaves; tests). */
    abandon() {
      timer.stop();
    },
    flush,
    /** In recordResults' transaction, after its inserts: the earliest scheduled time stored now (ms). */
    stored(earliest: number) {
      st('UPDATE uptime_rollup_mark SET waiting_from = min(coalesce(waiting_from, @t), @t)').run({
        t: earliest,
      });
    },
  };
};

export type SqliteRollups = ReturnType<typeof sqliteRollups>;

/**
 * SQL for readers: `w.upto`, `w.flush_to` and `w.done` (see above) and `w.since` (the earliest
 * scheduled time that may wait; far in the future when nothing does), read in the same statement as
 * the buckets it completes. Use them as scalar subqueries (`(SELECT since FROM w)`): constants to the
 * planner, so they bound index ranges.
 */
export const WAITING_CTE = `w AS (SELECT upto, coalesce(flush_to, upto) AS flush_to, coalesce(flush_done, '') AS done,
  coalesce(waiting_from, 9007199254740991) AS since FROM uptime_rollup_mark)`;

/** SQL: whether result `r` still waits for its bucket (with WAITING_CTE in the statement). */
export const waitingAfter = (r: string) =>
  `${r}.rowid > CASE WHEN ${r}.monitor_id <= (SELECT done FROM w) THEN (SELECT flush_to FROM w) ELSE (SELECT upto FROM w) END`;
