import { RE2JS } from 're2js';

/**
 * `matches` runs through re2js, a pure-JS port of RE2: matching is linear in the text whatever the
 * pattern, so a pattern such as `^(a+)+$` (catastrophic backtracking in V8's own engine) costs the
 * same as any other. The text it reads is capped too (MATCH_TEXT_CAP): linear at ~30 ms/MiB in its
 * worst case is still too long to hold the event loop, 64 KiB is ~1 ms. A longer value is refused
 * (evaluate.ts), never cut: cut, `$` would match at the cut.
 */
export const MATCH_TEXT_CAP = 64 * 1024;

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
