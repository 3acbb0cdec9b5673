import { AppError } from '@lookout/shared';
import type { Ping } from '../types.js';

/**
 * Group commit for pings. Each ping waits for the batch that carries it to be durable; batches are
 * written one at a time, each taking everything queued meanwhile (up to `maxBatch`). Under load this
 * turns thousands of requests into a few dozen transactions a second; idle, a ping waits for nothing.
 * The queue is bounded: past `maxQueued` a ping is refused (503) instead of growing memory.
 */
export interface PingBatcher {
  record(ping: Ping): Promise<void>;
  /** Resolves when everything queued so far is written. */
  flush(): Promise<void>;
  readonly queued: number;
}

export const createPingBatcher = (
  write: (batch: Ping[]) => Promise<void>,
  opts: { maxBatch: number; maxQueued: number; onBatch?: (size: number) => void },
): PingBatcher => {
  let queue: { ping: Ping; done: (e?: unknown) => void }[] = [];
  let writing: Promise<void> | null = null;

  const drain = async () => {
    while (queue.length > 0) {
      const batch = queue.slice(0, opts.maxBatch);
      queue = queue.slice(batch.length);
      try {
        await write(batch.map((b) => b.ping));
        opts.onBatch?.(batch.length);
        for (const b of batch) b.done();
      } catch (e) {
        for (const b of batch) b.done(e);
      }
    }
  };

  const kick = () => {
    if (writing) return;
    writing = new Promise<void>((r) => setImmediate(r)).then(drain).finally(() => {
      writing = null;
      if (queue.length > 0) kick();
    });
  };

  return {
    record(ping) {
      if (queue.length >= opts.maxQueued) {
        return Promise.reject(
          new AppError('unavailable', 'Too many pings are waiting to be written; retry shortly.'),
        );
      }
      return new Promise<void>((resolve, reject) => {
        queue.push({ ping, done: (e) => (e ? reject(e) : resolve()) });
        kick();
      });
    },
    async flush() {
      while (writing || queue.length > 0) {
        kick();
        await writing;
      }
    },
    get queued() {
      return queue.length;
    },
  };
};
