import { setFlagsFromString } from 'node:v8';

/** V8 before 12 (Node 20) gives objects built by a spread followed by new keys a class each. */
export const spreadMakesClassEach = Number(process.versions.v8.split('.')[0]) < 12;

let sameMap: ((a: object, b: object) => boolean) | null = null;

/**
 * How many hidden classes (V8 maps) the objects `make(0)` … `make(n - 1)` have among them, counted up
 * to 101. Objects built on a hot path should share one or two: on Node 20 a spread followed by keys it
 * lacks gives every object one of its own, which only a full collection frees (docs/decisions.md,
 * "Objects on hot paths"). Uses V8's `%HaveSameMap`, compiled after allowing natives syntax here.
 */
export const hiddenClasses = (make: (i: number) => object, n = 200): number => {
  if (!sameMap) {
    setFlagsFromString('--allow-natives-syntax');
    sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
  }
  const same = sameMap;
  const seen: object[] = [];
  for (let i = 0; i < n && seen.length <= 100; i++) {
    const o = make(i);
    if (!seen.some((s) => same(o, s))) seen.push(o);
  }
  return seen.length;
};
