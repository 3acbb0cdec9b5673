import type { PingTouch } from '../../domain/heartbeats/heartbeat-rules.js';
import { startModuleWorker } from '../../process/module-worker.js';
import type { PingWriterReply, PingWriterRequest, PingWriterSetup } from './ping-writer-worker.js';

/**
 * Writes ping batches from a worker thread (ping-writer-worker.ts) with its own connection to the same
 * SQLite file, so the inserts and the fsync of each commit never block the event loop that serves
 * HTTP. One batch is in flight at a time (the ping batcher waits for it), which is what makes group
 * commit work.
 */
export interface PingWriter {
  /** `rows`: the values of each row in `columns` order, all rows end to end. */
  write(rows: unknown[], touches: PingTouch[]): Promise<void>;
  close(): Promise<void>;
}

export const createPingWriter = (setup: PingWriterSetup): PingWriter => {
  const worker = startModuleWorker(new URL('./ping-writer-worker.js', import.meta.url), {
    workerData: setup,
  });
  worker.unref();
  const send = (m: PingWriterRequest) => worker.postMessage(m);
  const waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let next = 0;
  let failed: Error | null = null;
  let onClosed: (() => void) | null = null;

  worker.on('message', (m: PingWriterReply) => {
    if ('closed' in m) return onClosed?.();
    const w = waiting.get(m.id);
    waiting.delete(m.id);
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
        send({ id, batch: JSON.stringify({ rows, touches }) });
      });
    },
    async close() {
      if (!failed) {
        await new Promise<void>((resolve) => {
          onClosed = resolve;
          send({ close: true });
        });
      }
      await worker.terminate();
    },
  };
};
