import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createWalSync } from './wal-sync.js';

const dir = mkdtempSync(join(tmpdir(), 'lookout-wal-sync-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A flush the test finishes by hand: each call is recorded with its resolve and reject. */
const manualFlush = () => {
  const calls: { path: string; done: () => void; fail: (e: Error) => void }[] = [];
  const datasync = (path: string) =>
    new Promise<void>((done, fail) => {
      calls.push({ path, done, fail });
    });
  return { calls, datasync };
};
const settled = async <T>(p: Promise<T>) => {
  let state = 'pending';
  p.then(
    () => {
      state = 'resolved';
    },
    () => {
      state = 'rejected';
    },
  );
  await new Promise((r) => setImmediate(r));
  return state;
};

it('a caller is answered only by a flush that began after its call; callers meanwhile share one more', async () => {
  const { calls, datasync } = manualFlush();
  const wal = createWalSync('/data/lookout.db-wal', datasync);
  const first = wal.durable();
  expect(calls.map((c) => c.path)).toEqual(['/data/lookout.db-wal']);
  // Two commits land while the first flush runs: it may have begun before their frames were written.
  const second = wal.durable();
  const third = wal.durable();
  expect(calls).toHaveLength(1);
  calls[0]!.done();
  expect(await settled(first)).toBe('resolved');
  expect(await settled(second)).toBe('pending');
  expect(await settled(third)).toBe('pending');
  // One flush for both of them.
  expect(calls).toHaveLength(2);
  calls[1]!.done();
  expect(await settled(second)).toBe('resolved');
  expect(await settled(third)).toBe('resolved');
  // Nothing in flight: the next caller starts its own at once.
  const fourth = wal.durable();
  expect(calls).toHaveLength(3);
  calls[2]!.done();
  expect(await settled(fourth)).toBe('resolved');
});

it('a failed flush rejects its callers, and the next callers get a flush of their own', async () => {
  const { calls, datasync } = manualFlush();
  const wal = createWalSync('/data/lookout.db-wal', datasync);
  const first = wal.durable();
  const second = wal.durable();
  calls[0]!.fail(new Error('EIO'));
  await expect(first).rejects.toThrow('EIO');
  expect(await settled(second)).toBe('pending');
  calls[1]!.done();
  expect(await settled(second)).toBe('resolved');
});

it('flushes a real file through the thread pool, and fails when the log is missing', async () => {
  const path = join(dir, 'store.db-wal');
  writeFileSync(path, 'frames');
  await createWalSync(path).durable();
  expect(statSync(path).size).toBe(6);
  await expect(createWalSync(join(dir, 'missing.db-wal')).durable()).rejects.toThrow(/ENOENT/);
});
