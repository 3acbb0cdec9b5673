import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { pagedBody } from './body.js';

/** Pages 0..n-1 of `size` bytes each, counting the reads. */
const source = (n: number, size = 10_000) => {
  const reads: (number | null)[] = [];
  const read = async (after: number | null) => {
    reads.push(after);
    const at = after === null ? 0 : after + 1;
    return { text: `${String(at).padEnd(size - 1, '.')}\n`, next: at + 1 < n ? at : null };
  };
  return { reads, read };
};

describe('pagedBody', () => {
  it('reads every page once, in order, after the head', async () => {
    const { reads, read } = source(5, 10);
    let out = '';
    await pipeline(
      pagedBody('head\n', read),
      new Writable({
        write(chunk, _e, cb) {
          out += chunk;
          cb();
        },
      }),
    );
    expect(reads).toEqual([null, 0, 1, 2, 3]);
    expect(out.split('\n').slice(0, 3)).toEqual(['head', '0........', '1........']);
    expect(out.split('\n')).toHaveLength(7);
  });

  it('goes on past empty pages, a page a turn of the event loop', async () => {
    let n = 0;
    const body = pagedBody<number>('', async (after) => {
      n++;
      return {
        text: (after ?? 0) === 999 ? 'end\n' : '',
        next: (after ?? 0) === 999 ? null : (after ?? 0) + 1,
      };
    });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const chunks: string[] = [];
    for await (const c of body) chunks.push(String(c));
    clearInterval(timer);
    expect(chunks.join('')).toBe('end\n');
    expect(n).toBe(1000);
    // Timers ran meanwhile: the loop was not held for the thousand reads.
    expect(ticks).toBeGreaterThan(0);
  });

  it('reads no further than its buffer while nobody reads, and stops once destroyed', async () => {
    const { reads, read } = source(1000);
    const body = pagedBody('', read);
    body.resume();
    body.pause();
    await sleep(50);
    // 64 KiB of buffer: a few 10 kB pages, never the thousand.
    expect(reads.length).toBeLessThan(15);
    const seen = reads.length;
    await sleep(50);
    expect(reads.length).toBe(seen);
    body.destroy();
    await sleep(50);
    expect(reads.length).toBe(seen);
  });

  it('destroys the body with the error of a page that failed', async () => {
    const body = pagedBody<number>('', async (after) => {
      if (after === 1) throw new Error('store gone');
      return { text: 'x\n', next: (after ?? -1) + 1 };
    });
    await expect(async () => {
      for await (const _ of body);
    }).rejects.toThrow('store gone');
  });
});
