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
});
