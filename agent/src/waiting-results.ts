import type { CheckResult } from '@lookout/proto';
import { encodeRecord } from './result-encoder.js';

/**
 * Results waiting for the control plane's acknowledgement, oldest first, kept as the bytes they
 * travel in. A result is encoded once, when its run ends, as one record of ReportResults' `results`
 * field (tag, length, the CheckResult's bytes) at the end of one buffer; its end offset and time go in
 * two number columns. So a waiting result is no object on the JS heap: a batch is one contiguous run
 * of bytes, copied out once as the request's body, and nothing a check made outlives the check.
 * (As messages, results waited ~0.3 s for a batch to fill and then for its call: long enough for the
 * young-generation collector to copy them twice and promote them, ~40 % of what the agent spent
 * beyond the floor's loop; docs/benchmarks.md, "History": issue 27's eighteenth round.)
 *
 * Bounded by count, by bytes and by age: when full, or when a result is too old to matter, the
 * oldest go first and are counted as dropped (reported in the agent's health). Results are removed
 * only when acknowledged, a batch at a time, by the sequence numbers `peek` gave.
 *
 * Bytes are counted exactly: a result's record plus the 16 bytes of its two column entries. The
 * buffer and the columns double when full (the buffer keeps room to move its records down, so it
 * holds up to twice the bytes kept) and halve when a quarter used, down to their first size, so after
 * a backlog the agent gives the memory back.
 */
export interface WaitingResultsOptions {
  maxItems: number;
  maxAgeMs: number;
  /** Bound on the bytes kept (records plus their column entries); the newest result is always kept. */
  maxBytes?: number;
  /** The ReportResults request's field number for its results (each record's tag). */
  field: number;
  /**
   * How many waiting results may keep a screenshot (a failed browser run's, up to 256 KiB each;
   * default MAX_SCREENSHOTS): a result pushed beyond that is kept without it, counted in
   * `droppedScreenshots`.
   */
  maxScreenshots?: number;
}

/** What a batch carries: the sequence number of its first result, how many, and their records. */
export interface WaitingBatch {
  first: number;
  count: number;
  /** The records, back to back (a copy: the store may move its own bytes meanwhile). */
  records: Buffer;
  /** True when the batch stopped short of `max` results to stay within `maxBytes`. */
  cut: boolean;
}

/** Waiting results that keep their screenshot, at most: 16 × 256 KiB = 4 MiB. */
export const MAX_SCREENSHOTS = 16;

const hasScreenshot = (r: CheckResult) => (r.script?.screenshot.length ?? 0) > 0;
/** The same result without its screenshot (the run's other findings kept). */
const withoutScreenshot = (r: CheckResult): CheckResult => ({
  ...r,
  script: { ...r.script!, screenshot: new Uint8Array(0), screenshotType: '' },
});

/** A result's two column entries (its end offset and its time, 8 bytes each). */
export const PER_RESULT_BYTES = 16;
/**
 * What the store never shrinks below: 1 MiB of records and 8,192 results, more than the batches of
 * normal flow (500 results of ~90–150 bytes every ~0.3 s), so emptying the store after each
 * acknowledgement moves no memory.
 */
const MIN_BYTES = 1 << 20;
const MIN_SLOTS = 8192;

export const createWaitingResults = (opts: WaitingResultsOptions) => {
  const maxBytes = opts.maxBytes ?? Number.POSITIVE_INFINITY;
  /** The records of results `head`..`tail - 1`, from byte `start` to byte `end` of `buf`. */
  let buf = Buffer.allocUnsafe(MIN_BYTES);
  let start = 0;
  let end = 0;
  /** Per result, by sequence number modulo the columns' length (a power of two): end offset in `buf`, time. */
  let ends = new Float64Array(MIN_SLOTS);
  let ats = new Float64Array(MIN_SLOTS);
  let mask = MIN_SLOTS - 1;
  /** Sequence numbers: the oldest result kept, and the next one to be pushed. */
  let head = 0;
  let tail = 0;
  let dropped = 0;
  const maxScreenshots = opts.maxScreenshots ?? MAX_SCREENSHOTS;
  /** Sequence numbers of the waiting results that carry a screenshot, oldest first. */
  const shots: number[] = [];
  let droppedScreenshots = 0;

  const size = () => tail - head;
  /** The bytes results `from`..`tail - 1` take. */
  const bytesFrom = (from: number) =>
    end - (from === head ? start : ends[(from - 1) & mask]!) + (tail - from) * PER_RESULT_BYTES;

  /** The columns at `slots` entries (a power of two ≥ the results kept), in sequence order. */
  const resizeColumns = (slots: number) => {
    const nextEnds = new Float64Array(slots);
    const nextAts = new Float64Array(slots);
    for (let s = head; s < tail; s++) {
      nextEnds[s & (slots - 1)] = ends[s & mask]!;
      nextAts[s & (slots - 1)] = ats[s & mask]!;
    }
    ends = nextEnds;
    ats = nextAts;
    mask = slots - 1;
  };
  /** The live records moved to the start of a buffer of `length` bytes (the same one, or a new one). */
  const moveBytes = (length: number) => {
    const shift = start;
    if (length === buf.length) buf.copyWithin(0, start, end);
    else {
      const next = Buffer.allocUnsafe(length);
      buf.copy(next, 0, start, end);
      buf = next;
    }
    for (let s = head; s < tail; s++) ends[s & mask] = ends[s & mask]! - shift;
    end -= shift;
    start = 0;
  };
  /** Room for `n` more bytes at the end: the live records moved down, or a buffer twice the size. */
  const room = (n: number) => {
    if (end + n <= buf.length) return;
    let length = buf.length;
    while (end - start + n > length / 2) length *= 2;
    moveBytes(length);
  };
  /** After results went: memory back once the buffer or the columns are a quarter used. */
  const shrink = () => {
    if (size() === 0) {
      start = 0;
      end = 0;
    }
    let length = buf.length;
    while (length > MIN_BYTES && (end - start) * 4 < length) length /= 2;
    if (length < buf.length) moveBytes(length);
    let slots = mask + 1;
    while (slots > MIN_SLOTS && size() * 4 < slots) slots /= 2;
    if (slots < mask + 1) resizeColumns(slots);
  };
  /** Forgets the oldest results up to sequence number `to` (exclusive); their bytes are free. */
  const forget = (to: number) => {
    if (to <= head) return;
    head = Math.min(to, tail);
    start = head === tail ? end : ends[(head - 1) & mask]!;
    let gone = 0;
    while (gone < shots.length && shots[gone]! < head) gone++;
    if (gone > 0) shots.splice(0, gone);
  };
  const expire = (nowMs: number) => {
    let s = head;
    while (s < tail && nowMs - ats[s & mask]! > opts.maxAgeMs) s++;
    if (s === head) return;
    dropped += s - head;
    forget(s);
    shrink();
  };

  return {
    /** A finished run's result, encoded now; the oldest go if the bounds say so. */
    push(at: number, result: CheckResult, nowMs: number) {
      expire(nowMs);
      let r = result;
      if (hasScreenshot(r)) {
        if (shots.length < maxScreenshots) shots.push(tail);
        else {
          r = withoutScreenshot(r);
          droppedScreenshots++;
        }
      }
      const record = encodeRecord(opts.field, r);
      room(record.length);
      record.copy(buf, end);
      end += record.length;
      if (size() === mask + 1) resizeColumns(2 * (mask + 1));
      ends[tail & mask] = end;
      ats[tail & mask] = at;
      tail++;
      let s = head;
      while (tail - s > opts.maxItems) s++;
      // The newest is always kept, whatever its size.
      while (s < tail - 1 && bytesFrom(s) > maxBytes) s++;
      if (s > head) {
        dropped += s - head;
        forget(s);
      }
    },
    /**
     * The oldest `max` results' records, left in place until `ack`; null when none wait. At most
     * `maxBytes` of records (the first result whatever its size): fewer results then, `cut`.
     */
    peek(max: number, nowMs: number, maxBytes = Number.POSITIVE_INFINITY): WaitingBatch | null {
      expire(nowMs);
      let count = Math.min(max, size());
      if (count === 0) return null;
      const full = count;
      // The records' ends grow with the sequence: the most that fit, by bisection.
      if (ends[(head + count - 1) & mask]! - start > maxBytes) {
        let lo = 1;
        let hi = count - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (ends[(head + mid - 1) & mask]! - start <= maxBytes) lo = mid;
          else hi = mid - 1;
        }
        count = lo;
      }
      const last = ends[(head + count - 1) & mask]!;
      return { first: head, count, records: Buffer.from(buf.subarray(start, last)), cut: count < full };
    },
    /** A batch the control plane acknowledged (results already dropped meanwhile are skipped). */
    ack(batch: Pick<WaitingBatch, 'first' | 'count'>) {
      forget(batch.first + batch.count);
      shrink();
    },
    get size() {
      return size();
    },
    /** The bytes kept: records plus their column entries (the bound `maxBytes` holds them to). */
    get bytes() {
      return bytesFrom(head);
    },
    get dropped() {
      return dropped;
    },
    /** Screenshots left out of results pushed while MAX_SCREENSHOTS waiting results had one. */
    get droppedScreenshots() {
      return droppedScreenshots;
    },
    /** The memory the store holds, used or not: its buffer and its columns. */
    get reserved() {
      return buf.length + (mask + 1) * PER_RESULT_BYTES;
    },
  };
};

export type WaitingResults = ReturnType<typeof createWaitingResults>;
