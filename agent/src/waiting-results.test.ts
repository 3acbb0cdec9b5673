import { create, fromBinary } from '@bufbuild/protobuf';
import { type CheckResult, CheckResultSchema, ReportResultsRequestSchema } from '@lookout/proto';
import { describe, expect, it } from 'vitest';
import { encodeRecord } from './result-encoder.js';
import { createWaitingResults, PER_RESULT_BYTES, type WaitingBatch } from './waiting-results.js';

const T = 1_800_000_000_000;
/** A result told apart by its slot (`i`); every seventh failed, with a message of its own. */
const result = (i: number): CheckResult =>
  create(CheckResultSchema, {
    monitorId: `m-${i % 50}`,
    monitorVersion: 1n,
    scheduledAtMs: BigInt(T + i),
    startedAtMs: BigInt(T + i),
    ok: i % 7 !== 0,
    errorKind: i % 7 === 0 ? 'timeout' : '',
    errorMessage: i % 7 === 0 ? `timed out after ${i} ms` : '',
    responseTimeMs: i % 900,
    statusCode: i % 7 === 0 ? 0 : 200,
  });
/** The slots of a batch's results, decoded as the control plane decodes the request. */
const slots = (batch: WaitingBatch | null) =>
  batch
    ? fromBinary(ReportResultsRequestSchema, batch.records).results.map((r) => Number(r.scheduledAtMs) - T)
    : [];
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
const recordBytes = (i: number) => encodeRecord(2, result(i)).length;

describe('waiting results', () => {
  it('keeps results oldest first until a batch is acknowledged, as the records a request carries', () => {
    const w = createWaitingResults({ maxItems: 10, maxAgeMs: 1000, field: 2 });
    expect(w.peek(10, T)).toBeNull();
    for (let i = 0; i < 5; i++) w.push(T + i, result(i), T + i);
    const batch = w.peek(3, T + 5)!;
    expect([batch.first, batch.count, slots(batch)]).toEqual([0, 3, [0, 1, 2]]);
    expect(fromBinary(ReportResultsRequestSchema, batch.records).results).toEqual([0, 1, 2].map(result));
    // Peeking again gives the same batch: nothing goes before its acknowledgement.
    expect(slots(w.peek(3, T + 5))).toEqual([0, 1, 2]);
    w.ack(batch);
    expect(slots(w.peek(10, T + 5))).toEqual([3, 4]);
    expect([w.size, w.dropped]).toEqual([2, 0]);
  });

  it('drops the oldest when full and when too old, and counts them', () => {
    const w = createWaitingResults({ maxItems: 3, maxAgeMs: 100, field: 2 });
    for (let i = 0; i < 5; i++) w.push(T + i, result(i), T + i);
    expect(slots(w.peek(10, T + 5))).toEqual([2, 3, 4]);
    expect(w.dropped).toBe(2);
    expect(slots(w.peek(10, T + 103))).toEqual([3, 4]);
    expect(slots(w.peek(10, T + 104))).toEqual([4]);
    expect([w.size, w.dropped]).toEqual([1, 4]);
    // Pushing expires too.
    w.push(T + 300, result(300), T + 300);
    expect(slots(w.peek(10, T + 300))).toEqual([300]);
    expect(w.dropped).toBe(5);
  });

  it('acknowledges a batch whose oldest were dropped meanwhile, and one acknowledged twice', () => {
    const w = createWaitingResults({ maxItems: 4, maxAgeMs: 1000, field: 2 });
    for (let i = 0; i < 4; i++) w.push(T + i, result(i), T + i);
    const batch = w.peek(3, T + 4)!; // 0 1 2 in flight
    w.push(T + 4, result(4), T + 4); // full: 0 dropped
    w.ack(batch);
    expect(slots(w.peek(10, T + 5))).toEqual([3, 4]);
    w.ack(batch);
    expect(slots(w.peek(10, T + 5))).toEqual([3, 4]);
    expect(w.dropped).toBe(1);
    // A batch taken before everything in it expired leaves the newer results alone.
    const old = w.peek(1, T + 5)!;
    w.push(T + 2000, result(2000), T + 2000); // 3 and 4 expire
    w.ack(old);
    expect(slots(w.peek(10, T + 2000))).toEqual([2000]);
  });

  it('keeps order and counts through a long backlog acknowledged batch by batch', () => {
    const w = createWaitingResults({ maxItems: 3000, maxAgeMs: 1_000_000, field: 2 });
    let pushed = 0;
    const acked: number[] = [];
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 150; i++, pushed++) w.push(T + pushed, result(pushed), T + pushed);
      const batch = w.peek(100, T + pushed)!;
      acked.push(...slots(batch));
      w.ack(batch);
    }
    expect(acked).toEqual(range(0, 5000));
    expect(w.size).toBe(pushed - 5000);
    expect(slots(w.peek(1, T + pushed))).toEqual([5000]);
    // A full store drops its oldest, one per push.
    for (let i = 0; i < 1000; i++, pushed++) w.push(T + pushed, result(pushed), T + pushed);
    expect(w.size).toBe(3000);
    expect(w.dropped).toBe(pushed - 5000 - 3000);
    expect(slots(w.peek(3000, T + pushed))).toEqual(range(pushed - 3000, pushed));
  });

  it('counts its bytes exactly and holds a long backlog to the byte bound, dropping the oldest one by one', () => {
    const maxBytes = 200 * 1024;
    const w = createWaitingResults({ maxItems: 1_000_000, maxAgeMs: 3_600_000, maxBytes, field: 2 });
    const N = 5000;
    let most = 0;
    for (let i = 0; i < N; i++) {
      w.push(T + i, result(i), T + i);
      most = Math.max(most, w.bytes);
    }
    expect(most).toBeLessThanOrEqual(maxBytes);
    const kept = w.size;
    // The newest that fit: one more would not have.
    const exact = range(N - kept, N).reduce((n, i) => n + recordBytes(i) + PER_RESULT_BYTES, 0);
    expect(w.bytes).toBe(exact);
    expect(exact + recordBytes(N - kept - 1) + PER_RESULT_BYTES).toBeGreaterThan(maxBytes);
    expect(w.dropped).toBe(N - kept);
    expect(slots(w.peek(kept, T + N))).toEqual(range(N - kept, N));
    // Acknowledged, the bytes are given back.
    w.ack(w.peek(kept, T + N)!);
    expect([w.size, w.bytes]).toEqual([0, 0]);
  });

  it('always keeps the newest result, even one larger than the whole bound', () => {
    const w = createWaitingResults({ maxItems: 100, maxAgeMs: 1000, maxBytes: 1000, field: 2 });
    for (let i = 1; i <= 3; i++) w.push(T, result(i), T);
    const huge = create(CheckResultSchema, { monitorId: 'm', errorMessage: 'x'.repeat(5000) });
    w.push(T, huge, T);
    const batch = w.peek(10, T)!;
    expect(fromBinary(ReportResultsRequestSchema, batch.records).results).toEqual([huge]);
    expect(w.dropped).toBe(3);
    w.push(T, result(9), T);
    expect(slots(w.peek(10, T))).toEqual([9]);
  });

  it('in steady flow reuses its one buffer: records moved down in place stay whole, nothing grows', () => {
    const w = createWaitingResults({ maxItems: 1_000_000, maxAgeMs: 3_600_000, field: 2 });
    const initial = w.reserved;
    let pushed = 0;
    let acked = 0;
    // 200 waiting, then 200 rounds of 500 out and 500 acknowledged: several times the buffer's size
    // passes through it, so its records are moved down to its start again and again.
    for (; pushed < 200; pushed++) w.push(T + pushed, result(pushed), T + pushed);
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 500; i++, pushed++) w.push(T + pushed, result(pushed), T + pushed);
      const batch = w.peek(500, T + pushed)!;
      expect(slots(batch)).toEqual(range(acked, acked + 500));
      w.ack(batch);
      acked += 500;
      expect(w.reserved).toBe(initial);
    }
    expect(pushed * 60).toBeGreaterThan(4 * initial);
    for (let b = w.peek(1000, T + pushed); b; b = w.peek(1000, T + pushed)) {
      expect(slots(b)).toEqual(range(acked, acked + b.count));
      acked += b.count;
      w.ack(b);
    }
    expect(acked).toBe(pushed);
    expect(w.reserved).toBe(initial);
  });

  it('a batch taken out stays intact while the store grows, moves and shrinks its own bytes', () => {
    const w = createWaitingResults({ maxItems: 1_000_000, maxAgeMs: 3_600_000, field: 2 });
    const initial = w.reserved;
    for (let i = 0; i < 400; i++) w.push(T + i, result(i), T + i);
    const batch = w.peek(400, T + 400)!;
    const copy = Buffer.from(batch.records);
    // 60,000 more (several MB: the buffer doubles), then all acknowledged (it halves back).
    for (let i = 400; i < 60_400; i++) w.push(T + i, result(i), T + i);
    const grown = w.reserved;
    w.ack(batch);
    let seen = 400;
    for (let b = w.peek(1000, T); b; b = w.peek(1000, T)) {
      expect(slots(b)).toEqual(range(seen, seen + b.count));
      seen += b.count;
      w.ack(b);
    }
    expect(seen).toBe(60_400);
    expect(batch.records).toEqual(copy);
    expect(slots(batch)).toEqual(range(0, 400));
    expect(grown).toBeGreaterThan(4 * initial);
    // The memory a backlog took is given back once it is acknowledged.
    expect(w.reserved).toBe(initial);
  });
});

/** A failed browser run's result with a screenshot of `kb` KiB (a PNG's first bytes). */
const shotResult = (i: number, kb = 200): CheckResult => {
  const data = new Uint8Array(kb * 1024).fill(i % 251);
  data.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return create(CheckResultSchema, {
    monitorId: `b-${i}`,
    scheduledAtMs: BigInt(T + i),
    ok: false,
    script: { failedStep: 1, screenshot: data, screenshotType: 'image/png', consoleErrors: [`e${i}`] },
  });
};

describe('waiting results with screenshots', () => {
  it('at most 16 waiting results keep their screenshot; the others keep the rest of their report, counted', () => {
    const w = createWaitingResults({ maxItems: 1000, maxAgeMs: 60_000, field: 2 });
    for (let i = 0; i < 20; i++) w.push(T + i, shotResult(i), T + i);
    const all = fromBinary(ReportResultsRequestSchema, w.peek(100, T + 20)!.records).results;
    expect(all.map((r) => r.script!.screenshot.length > 0)).toEqual(range(0, 20).map((i) => i < 16));
    expect(all[19]!.script!.consoleErrors).toEqual(['e19']);
    expect(all[19]!.script!.screenshotType).toBe('');
    expect(Buffer.from(all[3]!.script!.screenshot).equals(shotResult(3).script!.screenshot)).toBe(true);
    expect(w.droppedScreenshots).toBe(4);
    // Counted whole: the bytes held include the screenshots.
    expect(w.bytes).toBeGreaterThan(16 * 200 * 1024);
    // Once some are acknowledged, new ones keep theirs again.
    w.ack({ first: 0, count: 10 });
    w.push(T + 20, shotResult(20), T + 20);
    const last = fromBinary(ReportResultsRequestSchema, w.peek(100, T + 21)!.records).results.at(-1)!;
    expect(last.script!.screenshot.length).toBe(200 * 1024);
    expect(w.droppedScreenshots).toBe(4);
  });

  it('the byte bound counts screenshots: the oldest go when they do not fit', () => {
    const w = createWaitingResults({ maxItems: 1000, maxAgeMs: 60_000, maxBytes: 1024 * 1024, field: 2 });
    for (let i = 0; i < 8; i++) w.push(T + i, shotResult(i), T + i);
    // Five of ~200 KiB fit in 1 MiB.
    expect(slots(w.peek(100, T + 8))).toEqual([3, 4, 5, 6, 7]);
    expect(w.dropped).toBe(3);
  });

  it('a batch stops short of its count to stay within maxBytes (the first result whatever its size)', () => {
    const w = createWaitingResults({ maxItems: 1000, maxAgeMs: 60_000, field: 2 });
    for (let i = 0; i < 3; i++) w.push(T + i, result(i), T + i);
    for (let i = 3; i < 9; i++) w.push(T + i, shotResult(i), T + i);
    const batch = w.peek(500, T + 9, 500 * 1024)!;
    expect([slots(batch), batch.cut]).toEqual([[0, 1, 2, 3, 4], true]);
    expect(batch.records.length).toBeLessThanOrEqual(500 * 1024);
    w.ack(batch);
    const big = w.peek(500, T + 9, 1024)!;
    expect([slots(big), big.cut]).toEqual([[5], true]);
    const rest = w.peek(500, T + 9)!;
    expect([slots(rest), rest.cut]).toEqual([[5, 6, 7, 8], false]);
  });
});
