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
});
