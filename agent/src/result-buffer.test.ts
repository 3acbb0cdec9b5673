import { describe, expect, it } from 'vitest';
import { createResultBuffer } from './result-buffer.js';

describe('result buffer', () => {
  it('keeps results oldest first until acknowledged', () => {
    const b = createResultBuffer<string>({ maxItems: 10, maxAgeMs: 1000 });
    for (let i = 0; i < 5; i++) b.push(`r${i}`, i, `v${i}`, i);
    expect(b.peek(3, 5).map((x) => x.id)).toEqual(['r0', 'r1', 'r2']);
    b.ack(['r0', 'r2']);
    expect(b.peek(10, 5).map((x) => x.id)).toEqual(['r1', 'r3', 'r4']);
    expect(b.dropped).toBe(0);
  });

  it('drops the oldest when full and when too old, and counts them', () => {
    const b = createResultBuffer<string>({ maxItems: 3, maxAgeMs: 100 });
    for (let i = 0; i < 5; i++) b.push(`r${i}`, i, 'v', i);
    expect(b.peek(10, 5).map((x) => x.id)).toEqual(['r2', 'r3', 'r4']);
    expect(b.dropped).toBe(2);
    expect(b.peek(10, 103).map((x) => x.id)).toEqual(['r3', 'r4']);
    expect(b.peek(10, 104).map((x) => x.id)).toEqual(['r4']);
    expect(b.dropped).toBe(4);
    expect(b.size).toBe(1);
  });

  it('acknowledges a batch whose oldest were dropped meanwhile, and ids in any order', () => {
    const b = createResultBuffer<string>({ maxItems: 4, maxAgeMs: 1000 });
    for (let i = 0; i < 4; i++) b.push(`r${i}`, i, 'v', i);
    const batch = b.peek(3, 4).map((x) => x.id); // r0 r1 r2 in flight
    b.push('r4', 4, 'v', 4); // full: r0 dropped
    b.ack(batch);
    expect(b.peek(10, 5).map((x) => x.id)).toEqual(['r3', 'r4']);
    b.ack(['r4', 'nope']);
    expect(b.peek(10, 5).map((x) => x.id)).toEqual(['r3']);
    expect(b.dropped).toBe(1);
  });

  it('keeps order and counts through a long backlog acknowledged batch by batch', () => {
    const b = createResultBuffer<number>({ maxItems: 3000, maxAgeMs: 1_000_000 });
    let pushed = 0;
    const acked: number[] = [];
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 150; i++, pushed++) b.push(`r${pushed}`, pushed, pushed, pushed);
      const batch = b.peek(100, pushed);
      acked.push(...batch.map((x) => x.value));
      b.ack(batch.map((x) => x.id));
    }
    expect(acked).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(b.size).toBe(pushed - 5000);
    expect(b.peek(1, pushed)[0]!.value).toBe(5000);
    // A full buffer drops its oldest, one per push.
    for (let i = 0; i < 1000; i++, pushed++) b.push(`r${pushed}`, pushed, pushed, pushed);
    expect(b.size).toBe(3000);
    expect(b.dropped).toBe(pushed - 5000 - 3000);
    expect(b.peek(1, pushed)[0]!.value).toBe(pushed - 3000);
  });
});
