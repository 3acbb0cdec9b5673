import { RE2JS } from 're2js';

/**
 * `matches` runs through re2js, a pure-JS port of RE2: matching is linear in the text whatever the
 * pattern, so a pattern such as `^(a+)+$` (catastrophic backtracking in V8's own engine) costs the
 * same as any other. The text it reads is capped too (MATCH_TEXT_CAP): linear at ~30 ms/MiB in its
 * worst case is still too long to hold the event loop, 64 KiB is ~1 ms. A longer value is refused
 * (evaluate.ts), never cut: cut, `$` would match at the cut.
 */
export const MATCH_TEXT_CAP = 64 * 1024;

/**
 * The largest compiled pattern run, in program steps: linear time is steps × text, and a large
 * counted repetition (`\p{L}{1000}`) makes the steps many (~3 s on 10 KB measured at 5,000 steps;
 * ≤ ~15 ms on 64 KiB at 400 on a loaded 2-core box). The control plane refuses larger ones first
 * (domain/checks/assertions.ts, the same bound); here a larger one fails its assertion.
 */
export const MAX_PATTERN_STEPS = 250;

/** re2js's compiled program size (its own field: no public accessor). */
const stepsOf = (re: RE2JS): number =>
  (re as unknown as { re2Input: { prog: { inst: unknown[] } } }).re2Input.prog.inst.length;

/** Compiled patterns by source text, at most CACHE_SIZE (the oldest goes first). */
const CACHE_SIZE = 256;
const cache = new Map<string, RE2JS | Error>();

/** The compiled pattern, or the error that says why it does not compile. */
export const compiled = (pattern: string): RE2JS | Error => {
  const hit = cache.get(pattern);
  if (hit !== undefined) return hit;
  let re: RE2JS | Error;
  try {
    re = RE2JS.compile(pattern);
    const steps = stepsOf(re);
    if (steps > MAX_PATTERN_STEPS)
      re = new Error(`it compiles to ${steps} steps, more than ${MAX_PATTERN_STEPS}`);
  } catch (e) {
    re = e instanceof Error ? e : new Error(String(e));
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(pattern, re);
  return re;
};

/** Whether `pattern` matches anywhere in `text` (null: it does not compile). */
export const regexFinds = (pattern: string, text: string): boolean | null => {
  const re = compiled(pattern);
  if (re instanceof Error) return null;
  return re.test(text);
};

/** The cache's size (tests). */
export const cachedPatterns = () => cache.size;
