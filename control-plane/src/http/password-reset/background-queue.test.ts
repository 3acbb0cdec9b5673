import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { createBackgroundQueue } from './background-queue.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('createBackgroundQueue', () => {
  it('runs at most `concurrency` jobs at once, the rest in order, and drops beyond `maxPending`', async () => {
    const errors: unknown[] = [];
    let dropped = 0;
    const q = createBackgroundQueue({
      concurrency: 2,
      maxPending: 3,
      onError: (e) => errors.push(e),
      onDropped: () => dropped++,
    });
    const started: number[] = [];
    const release: (() => void)[] = [];
    for (let i = 0; i < 4; i++)
      q.push(async () => {
        started.push(i);
        await new Promise<void>((r) => release.push(r));
        if (i === 0) throw new Error('boom');
      });
    expect(dropped).toBe(1); // three waiting at most: the fourth was not taken
    await tick();
    expect(started).toEqual([0, 1]);
    release[0]!();
    await tick();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    expect(errors).toHaveLength(1);
    release[1]!();
    release[2]!();
    await tick();
    await tick();
    expect(q.size).toBe(0);
  });

  it("runs a job outside the async context of whoever pushed it (a request's scope ends with it)", async () => {
    const als = new AsyncLocalStorage<string>();
    const q = createBackgroundQueue({
      concurrency: 1,
      maxPending: 10,
      onError: () => {},
      onDropped: () => {},
    });
    const seen = await new Promise<string | undefined>((resolve) =>
      als.run('request 1', () => q.push(async () => resolve(als.getStore()))),
    );
    expect(seen).toBeUndefined();
  });
});
