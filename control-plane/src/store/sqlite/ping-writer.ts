import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { PingTouch } from '../../domain/heartbeat-rules.js';

/**
 * Writes ping batches from a worker thread with its own connection to the same SQLite file, so the
 * inserts and the fsync of each commit never block the event loop that serves HTTP. One batch is in
 * flight at a time (the ping batcher waits for it), which is what makes group commit work.
 */
export interface PingWriter {
  /** `rows`: the values of each row in `columns` order, all rows end to end. */
  write(rows: unknown[], touches: PingTouch[]): Promise<void>;
  close(): Promise<void>;
}

// Plain CommonJS run by the worker (eval), so the same code works from src under vitest and from dist.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
db.pragma('wal_autocheckpoint = 10000'); // as the main connection (sqlite-store.ts)
const insert = db.prepare(workerData.insertSql);
const touch = db.prepare(workerData.touchSql);
const width = workerData.width;
const tx = db.transaction((rows, touches) => {
  for (let i = 0; i < rows.length; i += width) insert.run(rows.slice(i, i + width));
  for (const t of touches) touch.run(t);
});
parentPort.on('message', (m) => {
  if (m.close) { db.close(); parentPort.postMessage({ closed: true }); return; }
  try { const b = JSON.parse(m.batch); tx.immediate(b.rows, b.touches); parentPort.postMessage({ id: m.id }); }
  catch (e) { parentPort.postMessage({ id: m.id, error: String(e && e.message || e) }); }
});
`;

export const createPingWriter = (opts: {
  path: string;
  busyTimeoutMs: number;
  /** INSERT with positional parameters, `width` of them. */
  insertSql: string;
  width: number;
  touchSql: string;
}): PingWriter => {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { ...opts, driver } });
  worker.unref();
  const waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let next = 0;
  let failed: Error | null = null;
  let onClosed: (() => void) | null = null;

  worker.on('message', (m: { id?: number; error?: string; closed?: boolean }) => {
    if (m.closed) return onClosed?.();
    const w = waiting.get(m.id!);
    waiting.delete(m.id!);
    if (m.error) w?.reject(new Error(`ping write failed: ${m.error}`));
    else w?.resolve();
  });
  worker.on('error', (e) => {
    failed = e;
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  });

  return {
    write(rows, touches) {
      if (failed) return Promise.reject(failed);
      const id = next++;
      return new Promise<void>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        // One string crosses the thread boundary: far cheaper to clone than an array of objects.
        worker.postMessage({ id, batch: JSON.stringify({ rows, touches }) });
      });
    },
    async close() {
      if (!failed) {
        await new Promise<void>((resolve) => {
          onClosed = resolve;
          worker.postMessage({ close: true });
        });
      }
      await worker.terminate();
    },
  };
};
