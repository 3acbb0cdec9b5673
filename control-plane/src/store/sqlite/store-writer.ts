import type { PingTouch } from '../../domain/heartbeats/heartbeat-rules.js';
import { startModuleWorker } from '../../module-worker.js';
import type { StoreWriterReply, StoreWriterRequest, StoreWriterSetup } from './store-writer-worker.js';

/**
 * Writes ping and result batches from a worker thread (store-writer-worker.ts) with its own connection
 * to the same SQLite file, so the inserts and the fsync of each commit never block the event loop that
 * serves HTTP. Each stream has one batch in flight at a time (the ping batcher and the result writer
 * wait for it), which is what makes group commit work.
 */
export interface StoreWriter {
  /** `rows`: the values of each row in `columns` order, all rows end to end. */
  pings(rows: unknown[], touches: PingTouch[]): Promise<void>;
  /**
   * Appends result rows computed as of row id `after`; their row ids, or `stale` when the thread wrote
   * nothing (a row stored since `after`, or a replay: store-writer-worker.ts).
   */
  results(rows: unknown[], after: number): Promise<{ rids: number[] } | { stale: string }>;
  close(): Promise<void>;
}

export const createStoreWriter = (setup: StoreWriterSetup): StoreWriter => {
  const worker = startModuleWorker(new URL('./store-writer-worker.js', import.meta.url), {
    workerData: setup,
  });
  worker.unref();
  const send = (m: StoreWriterRequest) => worker.postMessage(m);
  const waiting = new Map<number, { resolve: (m: StoreWriterReply) => void; reject: (e: Error) => void }>();
  let next = 0;
  let failed: Error | null = null;
  let onClosed: (() => void) | null = null;

  worker.on('message', (m: StoreWriterReply) => {
    if ('closed' in m) return onClosed?.();
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    w?.resolve(m);
  });
  worker.on('error', (e) => {
    failed = e;
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  });

  const ask = (m: Omit<Extract<StoreWriterRequest, { id: number }>, 'id'>) =>
    failed
      ? Promise.reject(failed)
      : new Promise<StoreWriterReply>((resolve, reject) => {
          const id = next++;
          waiting.set(id, { resolve, reject });
          send({ ...m, id } as StoreWriterRequest);
        });

  return {
    async pings(rows, touches) {
      const m = await ask({ pings: JSON.stringify({ rows, touches }) });
      if ('error' in m && m.error) throw new Error(`ping write failed: ${m.error}`);
    },
    async results(rows, after) {
      const m = await ask({ results: JSON.stringify(rows), after });
      if ('error' in m && m.error) throw new Error(`result write failed: ${m.error}`);
      if ('stale' in m && m.stale) return { stale: m.stale };
      return { rids: (m as { rids: number[] }).rids };
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
