import { AsyncResource } from 'node:async_hooks';

/**
 * Work done after the answer, in this replica's memory: at most `concurrency` jobs at once and
 * `maxPending` waiting; a job pushed onto a full queue is dropped (`onDropped`). Jobs are not durable:
 * one lost in a restart is asked for again by its user. Jobs run in the async context the queue was
 * made in, not the request's that pushed them: what a request scopes (its AsyncLocalStorage stores,
 * such as its audit draft) ends with its answer.
 */
export const createBackgroundQueue = (opts: {
  concurrency: number;
  maxPending: number;
  onError(err: unknown): void;
  onDropped(): void;
}) => {
  const pending: (() => Promise<void>)[] = [];
  const outside = AsyncResource.bind((job: () => Promise<void>) => job());
  let running = 0;
  const next = () => {
    while (running < opts.concurrency && pending.length > 0) {
      const job = pending.shift()!;
      running++;
      outside(job)
        .catch(opts.onError)
        .finally(() => {
          running--;
          next();
        });
    }
  };
  return {
    push(job: () => Promise<void>) {
      if (pending.length >= opts.maxPending) {
        opts.onDropped();
        return;
      }
      pending.push(job);
      // Not in the caller's turn: the answer goes out first.
      setImmediate(outside, async () => next());
    },
    get size() {
      return pending.length + running;
    },
  };
};
