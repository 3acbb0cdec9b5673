import { open } from 'node:fs/promises';

/** Flushes the file at `path` to the disk (fdatasync), off the event loop. */
export type Datasync = (path: string) => Promise<void>;

const datasyncFile: Datasync = async (path) => {
  const file = await open(path, 'r');
  try {
    await file.datasync();
  } finally {
    await file.close();
  }
};

/**
 * Group fsync of a SQLite file's write-ahead log, on libuv's thread pool instead of the event loop.
 *
 * A transaction committed with `synchronous = NORMAL` in WAL mode has its frames written to the log
 * (`write`, into the kernel's page cache) but not flushed: it already survives the process being
 * killed, not yet a power loss. `fdatasync` of the log then makes every frame written before it durable,
 * whichever connection or descriptor wrote it (Linux flushes the file, not the descriptor). That is
 * what `synchronous = FULL` does inside the commit, blocking the event loop for the disk's flush time;
 * here the commit returns at once, and the caller waits for `durable()` before it acknowledges.
 *
 * `durable()` resolves after a flush that began after the call. One flush runs at a time; every call
 * made while one runs shares the next, so N commits in a flush's time cost one more flush, not N.
 * A failed flush rejects its callers (they acknowledge nothing; what they wrote is committed, so a
 * retry lands once by its idempotent ids).
 */
export const createWalSync = (walPath: string, datasync: Datasync = datasyncFile) => {
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const durable = (): Promise<void> => {
    if (!running) {
      running = datasync(walPath).finally(() => {
        running = null;
      });
      return running;
    }
    // The flush under way may have begun before this caller's commit: wait for it, then one more.
    next ??= running
      .catch(() => {})
      .then(() => {
        next = null;
        return durable();
      });
    return next;
  };
  return { durable };
};
