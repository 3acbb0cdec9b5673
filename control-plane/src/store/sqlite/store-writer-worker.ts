import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { PingTouch } from '../../domain/heartbeats/heartbeat-rules.js';

/**
 * The store writer's thread (started by store-writer.ts): its own connection to the store's SQLite
 * file, one IMMEDIATE transaction per batch, one batch at a time. It writes the two streams that
 * arrive all the time: ping batches (the pings, then the heartbeats they touch) and result batches
 * (rows of `check_results_recent`, appended; results.ts). The fsync of each commit happens here, not
 * on the event loop that serves HTTP and the agents.
 */

/** What the thread is started with (`workerData`). */
export interface StoreWriterSetup {
  path: string;
  busyTimeoutMs: number;
  pings: {
    /** INSERT with positional parameters, `width` of them. */
    insertSql: string;
    width: number;
    touchSql: string;
  };
  results: {
    /** INSERT … ON CONFLICT DO NOTHING with positional parameters, `width` of them. */
    insertSql: string;
    width: number;
    /** Where id, monitor_id, scheduled_at and run_now_request_id sit in a row. */
    at: { id: number; monitor: number; scheduled: number; runNow: number };
  };
}

/** A batch as it crosses the thread boundary: one JSON string is far cheaper to clone than an array of objects. */
export type StoreWriterRequest =
  | { id: number; pings: string }
  | { id: number; results: string; after: number }
  | { close: true };
export interface PingBatch {
  /** The values of each row in the INSERT's order, all rows end to end. */
  rows: unknown[];
  touches: PingTouch[];
}
export type StoreWriterReply =
  | { id: number; error?: string }
  /** A result batch: the row ids given, in order; `stale` when it wrote nothing (see `writeResults`). */
  | { id: number; rids?: number[]; stale?: string }
  | { closed: true };

const setup = workerData as StoreWriterSetup;
const port = parentPort!;

const db = new Database(setup.path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma(`busy_timeout = ${setup.busyTimeoutMs}`);
db.pragma('wal_autocheckpoint = 10000'); // as the main connection (sqlite-store.ts)

const insertPing = db.prepare(setup.pings.insertSql);
const touch = db.prepare(setup.pings.touchSql);
const writePings = db.transaction((rows: unknown[], touches: PingTouch[]) => {
  const w = setup.pings.width;
  for (let i = 0; i < rows.length; i += w) insertPing.run(rows.slice(i, i + w));
  for (const t of touches) touch.run(t);
});

/** Thrown inside the transaction to roll it back: the batch goes back to the event loop's own path. */
class Stale extends Error {}

const r = setup.results;
const insertResult = db.prepare(r.insertSql);
const sequence = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'check_results_recent'").pluck();
const foldedThrough = db.prepare('SELECT folded_through FROM uptime_rollup_mark').pluck();
const folded = db.prepare('SELECT 1 FROM check_results WHERE monitor_id = ? AND scheduled_at = ? AND id = ?');
const foldedRun = db.prepare('SELECT 1 FROM check_results WHERE id = ? AND run_now_request_id IS NOT NULL');

/**
 * Appends a batch whose location states the event loop computed from its state book as of row id
 * `after` (state-book.ts). Under the write lock it holds only if no row was stored since (by another
 * process), and if every row is new (no replay, folded or not): then the states are exactly what the
 * in-thread path would compute. Otherwise nothing is written (`Stale`), and results.ts runs the batch
 * on its own connection, which catches up under the lock first.
 */
const writeResults = db.transaction((rows: unknown[], after: number): number[] => {
  const seq = (sequence.get() as number | undefined) ?? 0;
  if (seq !== after) throw new Stale(`rows up to ${seq} stored, the book is at ${after}`);
  const through = (foldedThrough.get() as number | null) ?? -1;
  const rids: number[] = [];
  for (let i = 0; i < rows.length; i += r.width) {
    const scheduled = rows[i + r.at.scheduled] as number;
    const id = rows[i + r.at.id];
    if (
      (scheduled <= through && folded.get(rows[i + r.at.monitor], scheduled, id) !== undefined) ||
      (rows[i + r.at.runNow] !== null && foldedRun.get(id) !== undefined)
    )
      throw new Stale('a replayed result (already folded)');
    const info = insertResult.run(rows.slice(i, i + r.width));
    if (info.changes !== 1) throw new Stale('a replayed result');
    rids.push(Number(info.lastInsertRowid));
  }
  return rids;
});

const reply = (m: StoreWriterReply) => port.postMessage(m);
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

port.on('message', (m: StoreWriterRequest) => {
  if ('close' in m) {
    db.close();
    reply({ closed: true });
    return;
  }
  if ('pings' in m) {
    try {
      const b = JSON.parse(m.pings) as PingBatch;
      writePings.immediate(b.rows, b.touches);
      reply({ id: m.id });
    } catch (e) {
      reply({ id: m.id, error: message(e) });
    }
    return;
  }
  try {
    reply({ id: m.id, rids: writeResults.immediate(JSON.parse(m.results) as unknown[], m.after) });
  } catch (e) {
    reply(e instanceof Stale ? { id: m.id, stale: e.message } : { id: m.id, error: message(e) });
  }
});
