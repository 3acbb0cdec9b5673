import { startModuleWorker } from '../../process/module-worker.js';
import type { CheckpointerReply, CheckpointerRequest, CheckpointerSetup } from './checkpoint-worker.js';

/**
 * Checkpoints the store's write-ahead log from a worker thread (checkpoint-worker.ts), so copying the
 * log back into the database and its fsync never run on the event loop. `onStop` is called if the
 * thread fails, so the caller can checkpoint on the event loop again.
 */
export interface Checkpointer {
  /** Checkpoints run so far (tests). */
  readonly runs: number;
  close(): Promise<void>;
}

export const startCheckpointer = (setup: CheckpointerSetup, onStop: (err: Error) => void): Checkpointer => {
  const worker = startModuleWorker(new URL('./checkpoint-worker.js', import.meta.url), {
    workerData: setup,
  });
  worker.unref();
  let runs = 0;
  let failed = false;
  let onClosed: (() => void) | null = null;
  const fail = (e: Error) => {
    if (failed) return;
    failed = true;
    void worker.terminate();
    onStop(e);
    onClosed?.();
  };
  worker.on('message', (m: CheckpointerReply) => {
    if ('closed' in m) onClosed?.();
    else if ('error' in m) fail(new Error(`checkpoint failed: ${m.error}`));
    else runs++;
  });
  worker.on('error', fail);
  return {
    get runs() {
      return runs;
    },
    async close() {
      if (!failed) {
        await new Promise<void>((resolve) => {
          onClosed = resolve;
          worker.postMessage({ close: true } satisfies CheckpointerRequest);
        });
      }
      await worker.terminate();
    },
  };
};
