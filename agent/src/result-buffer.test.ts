import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fromBinary } from '@bufbuild/protobuf';
import { CheckResultSchema } from '@lookout/proto';
import { describe, expect, it } from 'vitest';
import { createResultBuffer } from './result-buffer.js';
import { ENCODED_RESULT_OVERHEAD, encodedBytes, encodeResult, resultOf } from './wire.js';

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

  it('drops the oldest when their estimated bytes exceed the bound, and counts them', () => {
    const b = createResultBuffer<string>({
      maxItems: 1000,
      maxAgeMs: 1000,
      maxBytes: 100,
      sizeOf: (v) => v.length,
    });
    for (let i = 0; i < 4; i++) b.push(`r${i}`, i, 'x'.repeat(30), i); // 120 bytes: r0 goes
    expect(b.peek(10, 4).map((x) => x.id)).toEqual(['r1', 'r2', 'r3']);
    expect(b.bytes).toBe(90);
    expect(b.dropped).toBe(1);
    // A large one pushes out as many of the oldest as it takes.
    b.push('big', 4, 'x'.repeat(70), 4);
    expect(b.peek(10, 4).map((x) => x.id)).toEqual(['r3', 'big']);
    expect(b.bytes).toBe(100);
    expect(b.dropped).toBe(3);
    // One larger than the whole bound is still kept, alone.
    b.push('huge', 5, 'x'.repeat(500), 5);
    expect(b.peek(10, 5).map((x) => x.id)).toEqual(['huge']);
    expect(b.dropped).toBe(5);
    expect(b.bytes).toBe(500);
  });

  it('gives back the bytes of what is acknowledged, dropped for age, in order or not', () => {
    const b = createResultBuffer<string>({
      maxItems: 1000,
      maxAgeMs: 100,
      maxBytes: 1000,
      sizeOf: (v) => v.length,
    });
    for (let i = 0; i < 10; i++) b.push(`r${i}`, i, 'x'.repeat(10 * (i + 1)), i); // 10 + 20 + … + 100
    expect(b.bytes).toBe(550);
    b.ack(['r0', 'r1']); // the oldest, in order
    expect(b.bytes).toBe(520);
    b.ack(['r5', 'r3']); // from the middle
    expect(b.bytes).toBe(420);
    expect(b.peek(1, 105)[0]!.id).toBe('r6'); // r2 and r4 too old (at 2 and 4; bound 100)
    expect(b.bytes).toBe(340);
    expect(b.dropped).toBe(2);
    // Room freed is room for new results: 340 + 660 fits, one more byte does not.
    b.push('a', 105, 'x'.repeat(660), 105);
    expect(b.dropped).toBe(2);
    b.push('b', 105, 'x', 105);
    expect(b.peek(10, 105).map((x) => x.id)).toEqual(['r7', 'r8', 'r9', 'a', 'b']);
    expect(b.dropped).toBe(3);
    b.ack(['r7', 'r8', 'r9', 'a', 'b']);
    expect([b.size, b.bytes]).toEqual([0, 0]);
  });

  it('holds a long backlog of real results to the byte bound, dropping the oldest one by one', () => {
    const maxBytes = 200 * 1024;
    const b = createResultBuffer({
      maxItems: 1_000_000,
      maxAgeMs: 3_600_000,
      maxBytes,
      sizeOf: encodedBytes,
    });
    const T = 1_800_000_000_000;
    let kept = 0;
    let most = 0;
    for (let i = 0; i < 5000; i++) {
      const id = `m-${i % 50}:eu-west:${T + i}`;
      const failed = i % 7 === 0;
      const r = resultOf({
        monitorId: `m-${i % 50}`,
        version: 1n,
        scheduledAt: T + i,
        startedAt: T + i,
        outcome: failed
          ? { ok: false, error: { kind: 'timeout', message: `timed out after ${i} ms` }, response_time_ms: i }
          : { ok: true, error: null, response_time_ms: 3, status_code: 200 },
      });
      b.push(id, T + i, encodeResult(r), T + i);
      most = Math.max(most, b.bytes);
      kept = b.size;
    }
    expect(most).toBeLessThanOrEqual(maxBytes);
    // Roughly the bound over a result's estimate (250-odd bytes), and the newest of them, in order.
    expect(kept).toBeGreaterThan(maxBytes / 350);
    expect(kept).toBeLessThan(maxBytes / ENCODED_RESULT_OVERHEAD);
    expect(b.dropped).toBe(5000 - kept);
    const all = b.peek(kept, T + 5000).map((x) => fromBinary(CheckResultSchema, x.value).scheduledAtMs);
    expect(all).toEqual(Array.from({ length: kept }, (_, j) => BigInt(T + 5000 - kept + j)));
  });

  it('lets go of what it drops (a full buffer does not hold the dropped results until it compacts)', async () => {
    const b = createResultBuffer<object>({ maxItems: 10, maxAgeMs: 1_000_000 });
    const registry = new FinalizationRegistry<string>((id) => collected.add(id));
    const collected = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const value = { i };
      registry.register(value, `r${i}`);
      b.push(`r${i}`, i, value, i);
    }
    expect(b.size).toBe(10);
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    for (let i = 0; i < 10 && collected.size < 10; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 10));
    }
    expect([...collected].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `r${i}`).sort());
  });
});
