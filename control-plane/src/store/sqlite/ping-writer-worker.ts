import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { PingTouch } from '../../domain/heartbeats/heartbeat-rules.js';

/**
 * The ping writer's thread (started by ping-writer.ts): its own connection to the store's SQLite file,
 * one IMMEDIATE transaction per batch (the pings, then the heartbeats they touch), one batch at a time.
 */

/** What the thread is started with (`workerData`). */
export interface PingWriterSetup {
  path: string;
  busyTimeoutMs: number;
  /** INSERT with positional parameters, `width` of them. */
  insertSql: string;
  width: number;
  touchSql: string;
}

/** A batch as it crosses the thread boundary: one JSON string is far cheaper to clone than an array of objects. */
export type PingWriterRequest = { id: number; batch: string } | { close: true };
export interface PingWriterBatch {
  /** The values of each row in the INSERT's order, all rows end to end. */
  rows: unknown[];
  touches: PingTouch[];
}
export type PingWriterReply = { id: number; error?: string } | { closed: true };

const setup = workerData as PingWriterSetup;
const port = parentPort!;

const db = new Database(setup.path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma(`busy_timeout = ${setup.busyTimeoutMs}`);
db.pragma('wal_autocheckpoint = 10000'); // as the main connection (sqlite-store.ts)
const insert = db.prepare(setup.insertSql);
const touch = db.prepare(setup.touchSql);
const write = db.transaction((rows: unknown[], touches: PingTouch[]) => {
  for (let i = 0; i < rows.length; i += setup.width) insert.run(rows.slice(i, i + setup.width));
  for (const t of touches) touch.run(t);
});

const reply = (m: PingWriterReply) => port.postMessage(m);

port.on('message', (m: PingWriterRequest) => {
  if ('close' in m) {
    db.close();
    reply({ closed: true });
    return;
  }
  try {
    const b = JSON.parse(m.batch) as PingWriterBatch;
    write.immediate(b.rows, b.touches);
    reply({ id: m.id });
  } catch (e) {
    reply({ id: m.id, error: e instanceof Error ? e.message : String(e) });
  }
});
