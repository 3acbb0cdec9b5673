import { setImmediate as immediate } from 'node:timers/promises';
import { DAY_MS, HOUR_MS } from '../../domain/results/uptime.js';
import { type SqliteContext, withoutFsync } from './db.js';
import { periodic, type Schedule } from './periodic.js';
import type { SqliteStateBook } from './state-book.js';
import { results } from './tables.js';

/**
 * The rows of one flush chunk, copied from the recent table (by row id, `@rids`, from the state book's
 * recent index) into a temporary table first: they are scattered over the recent table, a page each,
 * and three statements read them.
 */
const TAKE_CHUNK = `INSERT INTO temp.flush_chunk SELECT * FROM check_results_recent
  WHERE rid IN (SELECT value FROM json_each(@rids))`;

/**
 * Adds the results of a chunk (TAKE_CHUNK) to their hourly buckets, grouped in SQL. The newest
 * success's response time is a bare column beside the one max() (SQLite takes it from that row).
 */
const ADD_TO_HOURLY = `INSERT INTO uptime_rollups (monitor_id, hour, location, workspace_id, total, ok,
    response_ms_sum, last_ok_at, last_ok_ms)
  SELECT monitor_id, scheduled_at - scheduled_at % ${HOUR_MS}, location, workspace_id, count(*), sum(ok != 0),
    sum(response_time_ms), max(CASE WHEN ok != 0 THEN scheduled_at END),
    CASE WHEN max(CASE WHEN ok != 0 THEN scheduled_at END) IS NULL THEN NULL ELSE response_time_ms END
  FROM temp.flush_chunk GROUP BY 1, 2, 3
  ON CONFLICT (monitor_id, hour, location) DO UPDATE SET
    total = total + excluded.total, ok = ok + excluded.ok,
    response_ms_sum = response_ms_sum + excluded.response_ms_sum,
    last_ok_ms = CASE WHEN excluded.last_ok_at >= coalesce(last_ok_at, 0) THEN excluded.last_ok_ms ELSE last_ok_ms END,
    last_ok_at = coalesce(max(last_ok_at, excluded.last_ok_at), last_ok_at, excluded.last_ok_at)`;
/**
 * The same per day, with the results in maintenance counted apart and the response times' histogram
 * (latency-sql.ts: built by one aggregate over the chunk's rows, merged into the bucket's by one call).
 */
const ADD_TO_DAILY = `INSERT INTO uptime_daily (monitor_id, day, location, workspace_id, total, ok, response_ms_sum,
    maint_total, maint_ok, latency)
  SELECT monitor_id, scheduled_at - scheduled_at % ${DAY_MS}, location, min(workspace_id), count(*), sum(ok != 0),
    sum(response_time_ms), sum(in_maintenance != 0), sum(in_maintenance != 0 AND ok != 0),
    latency_counts(NULL, response_time_ms)
  FROM temp.flush_chunk GROUP BY 1, 2, 3
  ON CONFLICT (monitor_id, day, location) DO UPDATE SET
    total = total + excluded.total, ok = ok + excluded.ok,
    response_ms_sum = response_ms_sum + excluded.response_ms_sum,
    maint_total = maint_total + excluded.maint_total, maint_ok = maint_ok + excluded.maint_ok,
    latency = latency_merge(latency, excluded.latency)`;
const COLUMNS = Object.keys(results.columns).join(', ');
/**
 * Folds a chunk's rows into check_results: each monitor's new index entries go in together, beside its
 * older ones, in one transaction (so each index page is written once). `@rids` lists them monitor by
 * monitor, so no sort is asked for. A row already there (a crash between a fold and its mark) is
 * skipped.
 */
const FOLD = `INSERT INTO check_results (${COLUMNS})
  SELECT ${COLUMNS} FROM temp.flush_chunk WHERE true
  ON CONFLICT DO NOTHING`;
/** Recent rows deleted per transaction once folded (a few ms of the event loop). */
const DELETE_CHUNK = 2_000;

export interface RollupFlushOptions {
  /** Between two flushes (default 5 min). */
  everyMs?: number;
  /** Monitors per flush transaction, at most (default 250). */
  chunkMonitors?: number;
  /**
   * Results per flush transaction: a chunk takes monitors until their rows reach it (default 1,000).
   * What bounds a chunk's turn of the event loop: 250 monitors of 5 minutes at 60 s in two regions
   * (2,500 results) took ~55 ms a chunk in a profile at 100,000 monitors.
   */
  chunkRows?: number;
  /** Arms the next flush; returns its cancel (default an unref'd setTimeout). */
  schedule?: Schedule;
  /** Resolves in a later macrotask: the flush gives the event loop back between chunks (default setImmediate). */
  nextTurn?: () => Promise<void>;
}

/**
 * The uptime buckets, and the fold of the recent results into check_results (results.ts), both kept
 * off the ingestion transaction. recordResults appends results to check_results_recent only; every
 * `everyMs` (and at open, before pruning, on close) the flush adds them to their buckets and copies
 * them into check_results, monitor by monitor. Every recent row with a row id up to the mark
 * `uptime_rollup_mark.upto` is in the buckets and in check_results, no later one is, except during a
 * flush:
 *
 * A flush takes the rows up to `flush_to` (the newest row id when it began) monitor by monitor, in
 * monitor id order, `chunkMonitors` monitors or `chunkRows` results a transaction: each chunk adds those monitors' rows in
 * (upto, flush_to] to their buckets, folds them into check_results and moves `flush_done` to its last
 * monitor id, in one transaction; the last one moves `upto` to `flush_to`. So a bucket, and a monitor's
 * page of the check_results index, is written once per flush whatever the number of results in it:
 * with a 60 s check interval and a 5 min flush, once per five results or more instead of once per
 * result. A chunk's rows are found by row id through the state book's recent index (the recent table
 * has no per-monitor index). A crash anywhere loses nothing and counts nothing twice: the next flush (at
 * the latest the one at open) goes on from `flush_done`. Any process on the file may flush, or go on
 * with, another's: the mark is read and moved in IMMEDIATE transactions, after the book has read every
 * row stored.
 *
 * After a flush, the location states are snapshotted (state-book.ts) and the recent rows up to both
 * marks (this one and the snapshot's, `result_state_mark`) are deleted, oldest first, a slice per
 * transaction.
 *
 * Reads stay exact in every process: they add the recent rows still waiting to the buckets (or to the
 * monitor's range of check_results), in the same statement or read transaction, where waiting means a
 * row id after `upto`, or after `flush_to` for a monitor at or before `flush_done` (WAITING_CTE,
 * `waitingAfter`).
 */
export const sqliteRollups = (ctx: SqliteContext, book: SqliteStateBook, opts: RollupFlushOptions = {}) => {
  const { st, db } = ctx;
  let chunkTable = false;
  /** The chunk's rows, in memory (temp_store = MEMORY, sqlite-store.ts): made once, after the migrations. */
  const ensureChunkTable = () => {
    if (chunkTable) return;
    db.exec('CREATE TEMP TABLE IF NOT EXISTS flush_chunk AS SELECT * FROM main.check_results_recent WHERE 0');
    chunkTable = true;
  };
  const everyMs = opts.everyMs ?? 300_000;
  const chunkMonitors = opts.chunkMonitors ?? 250;
  const chunkRows = opts.chunkRows ?? 1000;
  const nextTurn = opts.nextTurn ?? immediate;

  interface Mark {
    upto: number;
    flush_to: number | null;
    flush_done: string | null;
  }
  const markNow = () => st('SELECT upto, flush_to, flush_done FROM uptime_rollup_mark').get() as Mark;
  const maxRowid = () =>
    (st('SELECT coalesce(max(rid), 0) AS m FROM check_results_recent').get() as { m: number }).m;
  /** Begins a flush of everything stored now, unless one is under way; false when nothing waits. */
  const begin = (): boolean =>
    withoutFsync(ctx, () => {
      const mark = markNow();
      if (mark.flush_to !== null) return true;
      const to = maxRowid();
      if (to <= mark.upto) return false;
      // What this flush folds is scheduled at most at the newest scheduled time stored now (one index
      // read): a replay of any of it is looked for in check_results from now on (results.ts).
      st(
        `UPDATE uptime_rollup_mark SET flush_to = ?, flush_done = '', folded_through = max(coalesce(folded_through, 0),
           (SELECT coalesce(max(scheduled_at), 0) FROM check_results_recent))`,
      ).run(to);
      return true;
    });
  /**
   * One transaction: the next `chunkMonitors` monitors' rows after the mark, up to `flush_to`, into
   * the buckets and check_results; or, with no monitor left, the flush's end. True while there is more.
   */
  const chunk = (): boolean =>
    withoutFsync(ctx, () => {
      const mark = markNow();
      if (mark.flush_to === null) return false;
      // Every row up to flush_to, whichever process stored it, is in the recent index.
      book.catchUp();
      const ids = book.recent.nextMonitors(
        mark.upto,
        mark.flush_to,
        mark.flush_done ?? '',
        chunkMonitors,
        chunkRows,
      );
      if (ids.length > 0) {
        ensureChunkTable();
        st('DELETE FROM temp.flush_chunk').run();
        st(TAKE_CHUNK).run({ rids: JSON.stringify(book.recent.ofAll(ids, mark.upto, mark.flush_to)) });
        st(ADD_TO_HOURLY).run();
        st(ADD_TO_DAILY).run();
        st(FOLD).run();
        st('UPDATE uptime_rollup_mark SET flush_done = ?').run(ids[ids.length - 1]);
        return true;
      }
      st('UPDATE uptime_rollup_mark SET upto = flush_to, flush_to = NULL, flush_done = NULL').run();
      return false;
    });
  /**
   * One transaction: deletes the oldest recent rows up to both marks (folded, and their states in the
   * snapshot), at most DELETE_CHUNK row ids. Returns how far rows are gone from the table (deleted by
   * this process or another), and whether some up to the marks are left.
   */
  const deleteFolded = (): { gone: number; more: boolean } =>
    withoutFsync(ctx, () => {
      const { lo, upto } = st(
        `SELECT (SELECT min(rid) FROM check_results_recent) AS lo,
           min((SELECT upto FROM uptime_rollup_mark), (SELECT upto FROM result_state_mark)) AS upto`,
      ).get() as { lo: number | null; upto: number };
      if (lo === null || lo > upto) return { gone: lo === null ? upto : lo - 1, more: false };
      const through = Math.min(upto, lo + DELETE_CHUNK - 1);
      st('DELETE FROM check_results_recent WHERE rid <= ?').run(through);
      return { gone: through, more: through < upto };
    });
  /**
   * Deletes what the flush folded, a slice per turn, then lets the recent index forget what is gone,
   * also what another process deleted (this one's index would grow otherwise).
   */
  const deleteAllFolded = async () => {
    let d = deleteFolded();
    while (d.more) {
      await nextTurn();
      d = deleteFolded();
    }
    if (!book.recent.forget(d.gone)) return;
    while (!book.recent.sweep(5000)) await nextTurn();
  };

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
      // The folded rows go once their states are in the snapshot too: this is when it is taken.
      await book.snapshot();
      await deleteAllFolded();
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
    /**
     * Flushes: everything stored now is folded and, its states being in the flush's snapshot too,
     * deleted from the recent table (a prune's first step; tests, benches).
     */
    foldAll: () => flush(),
  };
};

export type SqliteRollups = ReturnType<typeof sqliteRollups>;

/**
 * SQL for readers: `w.upto`, `w.flush_to` and `w.done` (see above), read in the same statement as the
 * buckets or check_results rows it completes. Use them as scalar subqueries (`(SELECT upto FROM w)`).
 */
export const WAITING_CTE = `w AS (SELECT upto, coalesce(flush_to, upto) AS flush_to, coalesce(flush_done, '') AS done
  FROM uptime_rollup_mark)`;

/** SQL: whether recent row `r` still waits for its bucket and its fold (with WAITING_CTE in the statement). */
export const waitingAfter = (r: string) =>
  `${r}.rid > CASE WHEN ${r}.monitor_id <= (SELECT done FROM w) THEN (SELECT flush_to FROM w) ELSE (SELECT upto FROM w) END`;
