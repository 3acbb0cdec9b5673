import { DAY_MS, HOUR_MS } from '../../domain/results/uptime.js';
import { type SqliteContext, withoutFsync } from './db.js';

/**
 * Adds the results with row ids in (@from, @to] to their hourly buckets, grouped in SQL. The newest
 * success's response time is a bare column beside the one max() (SQLite takes it from that row).
 */
const ADD_TO_HOURLY = `INSERT INTO uptime_rollups (monitor_id, hour, location, workspace_id, total, ok,
    response_ms_sum, last_ok_at, last_ok_ms)
  SELECT monitor_id, scheduled_at - scheduled_at % ${HOUR_MS}, location, workspace_id, count(*), sum(ok != 0),
    sum(response_time_ms), max(CASE WHEN ok != 0 THEN scheduled_at END),
    CASE WHEN max(CASE WHEN ok != 0 THEN scheduled_at END) IS NULL THEN NULL ELSE response_time_ms END
  FROM check_results WHERE rowid > @from AND rowid <= @to GROUP BY 1, 2, 3
  ON CONFLICT (monitor_id, hour, location) DO UPDATE SET
    total = total + excluded.total, ok = ok + excluded.ok,
    response_ms_sum = response_ms_sum + excluded.response_ms_sum,
    last_ok_ms = CASE WHEN excluded.last_ok_at >= coalesce(last_ok_at, 0) THEN excluded.last_ok_ms ELSE last_ok_ms END,
    last_ok_at = coalesce(max(last_ok_at, excluded.last_ok_at), last_ok_at, excluded.last_ok_at)`;
const ADD_TO_DAILY = `INSERT INTO uptime_daily (monitor_id, day, location, workspace_id, total, ok, response_ms_sum)
  SELECT monitor_id, scheduled_at - scheduled_at % ${DAY_MS}, location, min(workspace_id), count(*), sum(ok != 0),
    sum(response_time_ms)
  FROM check_results WHERE rowid > @from AND rowid <= @to GROUP BY 1, 2, 3
  ON CONFLICT (monitor_id, day, location) DO UPDATE SET
    total = total + excluded.total, ok = ok + excluded.ok,
    response_ms_sum = response_ms_sum + excluded.response_ms_sum`;

export interface RollupFlushOptions {
  /** Between two flushes (default 60 s). */
  everyMs?: number;
  /** Results per flush transaction (default 500: a few ms of the event loop each). */
  chunkRows?: number;
  /** Arms the next flush; returns its cancel (default an unref'd setTimeout). */
  schedule?: (fn: () => void, ms: number) => () => void;
  /** Resolves in a later macrotask: the flush gives the event loop back between chunks (default setImmediate). */
  nextTurn?: () => Promise<void>;
}

const defaultSchedule = (fn: () => void, ms: number) => {
  const t = setTimeout(fn, ms);
  t.unref();
  return () => clearTimeout(t);
};

/**
 * The uptime buckets, kept off the ingestion transaction. recordResults stores results only; the
 * buckets are written from the stored results themselves, by row id, every `everyMs` (and at open,
 * before pruning, on close) in transactions of `chunkRows` results, each of which also moves the mark
 * `uptime_rollup_mark.upto`: every result with a row id up to the mark is in the buckets, no later one
 * is. Adding to the buckets and moving the mark commit together, so a crash anywhere loses nothing and
 * counts nothing twice: the next flush (at the latest the one at open) starts at the mark. Any process
 * on the file may flush any process's results: the mark is read and moved in the IMMEDIATE
 * transaction, and SQLite hands out row ids in commit order (max + 1 under the write lock).
 *
 * Reads stay exact in every process: they add the results after the mark ("waiting") to the buckets,
 * in the same statement (one snapshot). `waiting_from` bounds the scheduled times of the waiting
 * results from below (recordResults lowers it, the end of a flush sets it exactly), so a reader walks
 * only a monitor's recent entries of the (monitor_id, scheduled_at) index.
 *
 * Row ids only rise (results.ts `keepRowidsRising`), and pruning deletes only results in the buckets.
 */
export const sqliteRollups = (ctx: SqliteContext, opts: RollupFlushOptions = {}) => {
  const { st } = ctx;
  const everyMs = opts.everyMs ?? 60_000;
  const chunkRows = opts.chunkRows ?? 500;
  const schedule = opts.schedule ?? defaultSchedule;
  const nextTurn = opts.nextTurn ?? (() => new Promise<void>((r) => setImmediate(r)));

  const markNow = () => (st('SELECT upto FROM uptime_rollup_mark').get() as { upto: number }).upto;
  const maxRowid = () =>
    (st('SELECT coalesce(max(rowid), 0) AS m FROM check_results').get() as { m: number }).m;
  /**
   * One transaction: the results after the mark, up to `chunkRows` row ids and at most `until`, into
   * the buckets (results after the mark are never deleted: pruning stops at the mark).
   */
  const chunk = (until: number): boolean =>
    withoutFsync(ctx, () => {
      const from = markNow();
      const to = Math.min(until, from + chunkRows);
      if (to > from) {
        st(ADD_TO_HOURLY).run({ from, to });
        st(ADD_TO_DAILY).run({ from, to });
      }
      const more = to < until;
      // The flush's end: what waits now arrived during it; its earliest time, exactly.
      if (more) st('UPDATE uptime_rollup_mark SET upto = ?').run(to);
      else
        st(
          `UPDATE uptime_rollup_mark SET upto = @to,
             waiting_from = (SELECT min(scheduled_at) FROM check_results WHERE rowid > @to)`,
        ).run({ to: Math.max(from, to) });
      return more;
    });

  let flushing: Promise<void> | null = null;
  let cancel: (() => void) | null = null;
  let started = false;
  let stopped = false;
  /** Writes every result stored before it starts, a chunk per turn of the event loop. */
  const flush = (): Promise<void> => {
    flushing ??= (async () => {
      const until = maxRowid();
      while (chunk(until)) await nextTurn();
    })().finally(() => {
      flushing = null;
    });
    return flushing;
  };
  const arm = () => {
    if (stopped) return;
    cancel = schedule(() => {
      cancel = null;
      // A failed flush (the file busy beyond busy_timeout) leaves the mark where it was: the next one
      // starts there.
      flush().then(arm, arm);
    }, everyMs);
  };

  return {
    /** At open, after the migrations: writes what a crash left waiting, then every `everyMs`. */
    async start() {
      started = true;
      await flush();
      arm();
    },
    /** Stops the timer and writes what is waiting (close). */
    async stop() {
      stopped = true;
      cancel?.();
      if (started) await flush();
    },
    /** Stops the timer only (what a crash leaves; tests). */
    abandon() {
      stopped = true;
      cancel?.();
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
 * SQL for readers: `w.upto` and `w.since` (the earliest scheduled time that may wait; far in the
 * future when nothing does), read in the same statement as the buckets it completes. Use them as
 * scalar subqueries (`(SELECT since FROM w)`): constants to the planner, so they bound index ranges.
 */
export const WAITING_CTE = `w AS (SELECT upto, coalesce(waiting_from, 9007199254740991) AS since FROM uptime_rollup_mark)`;
