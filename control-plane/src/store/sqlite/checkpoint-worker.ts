import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/**
 * The checkpointer's thread (started by checkpointer.ts): its own connection to the store's SQLite
 * file, copying the write-ahead log's frames back into the database every `everyMs`
 * (`wal_checkpoint(PASSIVE)`: it never waits for a lock and never blocks a reader or the writer).
 * A checkpoint by another connection leaves the event loop's page cache as it is (a commit by
 * another connection would empty it: docs/decisions.md, "Checkpoints on a thread").
 */

/** What the thread is started with (`workerData`). */
export interface CheckpointerSetup {
  path: string;
  busyTimeoutMs: number;
  everyMs: number;
}
export type CheckpointerRequest = { close: true };
export type CheckpointerReply = { checkpointed: number } | { error: string } | { closed: true };

const setup = workerData as CheckpointerSetup;
const port = parentPort!;
const db = new Database(setup.path, { fileMustExist: true });
db.pragma(`busy_timeout = ${setup.busyTimeoutMs}`);
// This connection never commits: nothing of its own to checkpoint.
db.pragma('wal_autocheckpoint = 0');

const timer = setInterval(() => {
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)') as { checkpointed: number }[];
    port.postMessage({ checkpointed: r?.checkpointed ?? 0 } satisfies CheckpointerReply);
  } catch (e) {
    port.postMessage({ error: e instanceof Error ? e.message : String(e) } satisfies CheckpointerReply);
  }
}, setup.everyMs);

port.on('message', (m: CheckpointerRequest) => {
  if ('close' in m) {
    clearInterval(timer);
    db.close();
    port.postMessage({ closed: true } satisfies CheckpointerReply);
  }
});
