import { setImmediate as nextTurn } from 'node:timers/promises';
import { createMonitorSlots, type MonitorSlots, widened } from '../../domain/monitors/monitor-slots.js';
import type { MonitorLocationState } from '../../domain/types.js';
import { type SqliteContext, withoutFsync } from './db.js';
import { createRecentIndex } from './recent-index.js';
import { createStateTable } from './state-table.js';
import { fromRow, insertSql, monitorStates, runWith } from './tables.js';

export interface StateSnapshotOptions {
  /** Location states per snapshot transaction (default 2,000: a few ms of the event loop each). */
  chunkStates?: number;
}

/** A location state as the log row after a result carries it (check_results_recent.state_*). */
interface LogRow {
  rid: number;
  monitor_id: string;
  location: string;
  scheduled_at: number;
  received_at: number;
  state_status: MonitorLocationState['status'] | null;
  state_failures: number;
  state_successes: number;
  state_slow: number;
}

/**
 * The location states, held in memory (compactly: state-table.ts): the recent check results are
 * their durable log. Each stored result
 * row carries the state of its (monitor, location) after it (`state_status`, `state_failures`,
 * `state_successes`, `state_slow`; all null when the result moved nothing), written in the results'
 * own transaction, so ingestion writes no random page for states: the rows are appended. When the
 * uptime flush has folded rows and before it deletes them (rollups.ts), and at close, the states
 * changed since the last snapshot are written to `monitor_states` (in key order, a dense table) and
 * `result_state_mark.upto` moves to the row id they are current at. A snapshot is needed only so
 * that the log's rows can go: each state is written once per flush (every 5 minutes), however often
 * it changed, where a snapshot of its own every 60 s wrote every state of a busy monitor five times
 * as often (10 % of the control plane's main thread at 100,000 monitors; docs/benchmarks.md,
 * "History": issue 27's eighteenth round). Opening a file loads the snapshot and replays the rows after the mark (it
 * reads every recent row for the recent index anyway); a crash loses nothing (the rows are durable,
 * the snapshot is derived).
 *
 * Several processes on one file: each one's book follows the log. `catchUp` reads the rows after the
 * last one it has seen (written by another process) and takes their states; recordResults runs it
 * inside its IMMEDIATE transaction, under the file's write lock, so every process evaluates a result
 * against exactly the states a single process would have. Replaying a row assigns its state (it is not
 * an increment), so a snapshot may hold states newer than its mark: replaying the rows after it ends
 * at the same states.
 *
 * The log is `check_results_recent` (results.ts), whose row ids only rise (AUTOINCREMENT); the
 * flush deletes only rows up to the mark (rollups.ts). Following the log, the book also keeps each
 * monitor's recent row ids (`recent`, recent-index.ts): the per-monitor path readers take into that
 * table. The
 * '*' rows (monitor-level status, changed by
 * compare-and-set in monitors.ts and alerts.ts) are not in the book: they are read from the table.
 */
export const sqliteStateBook = (
  ctx: SqliteContext,
  opts: StateSnapshotOptions = {},
  monitors: MonitorSlots = createMonitorSlots(),
) => {
  const { st } = ctx;
  const chunkStates = opts.chunkStates ?? 2000;

  const book = createStateTable(monitors);
  const recent = createRecentIndex(monitors);
  /**
   * By monitor slot, 1: a location state changed since the last snapshot began. A byte a monitor, not a
   * set of ids: at 100,000 monitors a set was a 2.6 MB table on the heap for the process's life.
   */
  let dirty = new Uint8Array(0);
  const mark = (slot: number) => {
    if (slot >= dirty.length) dirty = widened(dirty, slot + 1);
    dirty[slot] = 1;
  };
  /** The newest row id whose state the book holds. */
  let seen = 0;

  const put = (s: MonitorLocationState) => {
    mark(book.put(s));
  };
  /** `put` for a state whose monitor number is known (`slot`). */
  const putAt = (slot: number, s: MonitorLocationState) => {
    book.putAt(slot, s);
    mark(slot);
  };

  const take = (r: LogRow) => {
    if (r.state_status === null) return;
    put({
      monitor_id: r.monitor_id,
      location: r.location,
      status: r.state_status,
      consecutive_failures: r.state_failures,
      consecutive_successes: r.state_successes,
      consecutive_slow: r.state_slow,
      last_result_at: new Date(r.received_at),
      last_scheduled_at: new Date(r.scheduled_at),
      version: book.version(r.monitor_id, r.location) + 1,
    });
  };

  /** Reads the log after row id `after`: each row into the recent index, its state into the book when newer than `statesAfter`. */
  const follow = (after: number, statesAfter: number) => {
    const rows = st(
      `SELECT rid, monitor_id, location, scheduled_at, received_at, state_status, state_failures,
         state_successes, state_slow FROM check_results_recent WHERE rid > ? ORDER BY rid`,
    ).all(after) as LogRow[];
    for (const r of rows) {
      recent.add(r.monitor_id, r.rid);
      if (r.rid > statesAfter) take(r);
    }
    if (rows.length > 0 && rows[rows.length - 1]!.rid > seen) seen = rows[rows.length - 1]!.rid;
  };

  /** The snapshot's location states, as current as its mark (which it returns). */
  const loadSnapshot = (): number => {
    const mark = (st('SELECT upto FROM result_state_mark').get() as { upto: number }).upto;
    const rows = st("SELECT * FROM monitor_states WHERE location != '*'").all() as Record<string, unknown>[];
    for (const r of rows) book.put(fromRow<MonitorLocationState>(monitorStates, r));
    return mark;
  };

  /**
   * Takes the rows stored (by any process) after the last one seen. The flush deletes folded rows once
   * the snapshot holds their states (rollups.ts): a process that saw none of them since (it neither
   * stored nor read for minutes) starts again from the snapshot instead.
   */
  const catchUp = () => {
    const { marks } = st(
      'SELECT min((SELECT upto FROM uptime_rollup_mark), (SELECT upto FROM result_state_mark)) AS marks',
    ).get() as { marks: number };
    if (seen < marks) {
      // The snapshot holds what this book would have read (or newer: replaying assigns).
      follow(seen, loadSnapshot());
      // Every row up to the marks is now in the book, whether or not any is left in the log: with
      // none (the flush deleted all it folded and nothing came since) `seen` would stay behind the
      // marks, and every read after would load the whole snapshot again.
      if (seen < marks) seen = marks;
      return;
    }
    follow(seen, seen);
  };

  const upsert = () =>
    st(
      `${insertSql(monitorStates, [], 'positional')} ON CONFLICT (monitor_id, location) DO UPDATE SET ${Object.keys(
        monitorStates.columns,
      )
        .filter((c) => c !== 'monitor_id' && c !== 'location')
        .map((c) => `${c} = excluded.${c}`)
        .join(', ')}`,
    );

  let snapshotting: Promise<void> | null = null;
  /**
   * Writes the states changed since the last snapshot, in chunks of `chunkStates` (one transaction
   * each, a turn of the event loop between them), then moves the mark to the row id the book had
   * caught up to when it began: every state as of that row is then in the table or newer.
   */
  const snapshot = (): Promise<void> => {
    snapshotting ??= (async () => {
      catchUp();
      const target = seen;
      const taken: number[] = [];
      for (let slot = 0; slot < dirty.length; slot++) if (dirty[slot] === 1) taken.push(slot);
      dirty.fill(0);
      // In id order, as the table's primary key is: each chunk's upserts walk the B-tree forward.
      const slots = taken.sort((a, b) => (monitors.id(a) < monitors.id(b) ? -1 : 1));
      try {
        for (let i = 0; i < slots.length || i === 0; i += chunkStates) {
          const last = i + chunkStates >= slots.length;
          withoutFsync(ctx, () => {
            const put = upsert();
            for (const slot of slots.slice(i, i + chunkStates)) {
              for (const s of book.locationsAt(slot)) runWith(monitorStates, put, s);
            }
            if (last) st('UPDATE result_state_mark SET upto = max(upto, ?)').run(target);
          });
          if (!last) await nextTurn();
        }
      } catch (e) {
        // Written again by the next snapshot.
        for (const slot of taken) mark(slot);
        throw e;
      }
    })().finally(() => {
      snapshotting = null;
    });
    return snapshotting;
  };

  let started = false;
  let stopped = false;

  return {
    /** At open, after the migrations: the snapshot, then the rows after its mark. */
    start() {
      started = true;
      // Every recent row into the index; the states of those after the snapshot's mark.
      follow(0, loadSnapshot());
    },
    /** Writes a last snapshot (close); none after it. */
    async stop() {
      if (started && !stopped) await (snapshotting ?? Promise.resolve()).then(snapshot, snapshot);
      stopped = true;
    },
    /** No snapshot from now on, not even at close (what a crash leaves; tests). */
    abandon() {
      stopped = true;
    },
    /** Writes the states changed since the last one (the flush, before it deletes folded rows). */
    snapshot: () => (stopped ? Promise.resolve() : snapshot()),
    catchUp,
    /** The location states of a monitor (no '*' row), as of the last row seen. */
    locations(monitorId: string): MonitorLocationState[] {
      return book.locations(monitorId);
    },
    get(monitorId: string, location: string): MonitorLocationState | null {
      return book.get(monitorId, location);
    },
    /**
     * The monitor's number (monitor-slots.ts), given one if it has none: recordResults looks it up once
     * a result and uses the forms by number below, where each call by id looked it up again.
     */
    slot: (monitorId: string) => monitors.slot(monitorId),
    locationsAt: (slot: number) => book.locationsAt(slot),
    getAt: (slot: number, location: string) => book.getAt(slot, location),
    /**
     * After recordResults' transaction committed: its states (`states[i]` of the monitor numbered
     * `stateSlots[i]`), current as of row id `upto`, and its rows (the monitor numbered `slots[i]` at row
     * id `rids[i]`).
     */
    committed(
      states: readonly MonitorLocationState[],
      stateSlots: readonly number[],
      upto: number,
      slots: readonly number[],
      rids: readonly number[],
    ) {
      for (let i = 0; i < states.length; i++) putAt(stateSlots[i]!, states[i]!);
      for (let i = 0; i < rids.length; i++) recent.addAt(slots[i]!, rids[i]!);
      if (upto > seen) seen = upto;
    },
    /** Each monitor's recent rows (recent-index.ts), as of the last row seen. */
    recent,
    /**
     * The recent row ids of these monitors as of the newest row any process stored, as JSON for a
     * statement's `json_each` (readers, results.ts).
     */
    recentRowIds(monitorIds: Iterable<string>): string {
      catchUp();
      return JSON.stringify(recent.ofAll(monitorIds));
    },
    /** The newest result time of the monitor at any location; null when it has none. */
    lastResultAt(monitorId: string): Date | null {
      return book.lastResultAt(monitorId);
    },
  };
};

export type SqliteStateBook = ReturnType<typeof sqliteStateBook>;
