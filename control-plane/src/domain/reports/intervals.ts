/**
 * Time as sets of half-open intervals [start, end) in epoch ms, kept sorted and disjoint ("a set"):
 * what downtime and maintenance are made of in a report. Pure; each operation is linear in its inputs
 * (after one sort in `union`).
 */
export type Interval = readonly [number, number];
export type IntervalSet = Interval[];

/** The union of any intervals (overlapping or touching ones merge; empty ones go): a set. */
export const union = (intervals: readonly Interval[]): IntervalSet => {
  const sorted = intervals.filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
};

/** The part of a set inside [from, to). */
export const clip = (set: IntervalSet, from: number, to: number): IntervalSet => {
  const out: Interval[] = [];
  for (const [s, e] of set) {
    const a = Math.max(s, from);
    const b = Math.min(e, to);
    if (b > a) out.push([a, b]);
  }
  return out;
};

/** `a` less `b` (both sets). */
export const subtract = (a: IntervalSet, b: IntervalSet): IntervalSet => {
  const out: Interval[] = [];
  let j = 0;
  for (const [s0, e] of a) {
    let s = s0;
    while (j < b.length && b[j]![1] <= s) j++;
    let k = j;
    while (k < b.length && b[k]![0] < e) {
      const [bs, be] = b[k]!;
      if (bs > s) out.push([s, bs]);
      s = Math.max(s, be);
      if (s >= e) break;
      k++;
    }
    if (s < e) out.push([s, e]);
  }
  return out;
};

/** What two sets have in common. */
export const intersect = (a: IntervalSet, b: IntervalSet): IntervalSet => {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const s = Math.max(a[i]![0], b[j]![0]);
    const e = Math.min(a[i]![1], b[j]![1]);
    if (e > s) out.push([s, e]);
    if (a[i]![1] < b[j]![1]) i++;
    else j++;
  }
  return out;
};

/** Total length of a set, in ms. */
export const total = (set: IntervalSet): number => set.reduce((sum, [s, e]) => sum + (e - s), 0);
