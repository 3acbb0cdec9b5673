/** Full-jitter exponential backoff: a random wait in [0, min(cap, base · 2^attempt)). */
export const fullJitter = (attempt: number, random: () => number, baseMs = 500, capMs = 30_000) =>
  Math.floor(random() * Math.min(capMs, baseMs * 2 ** Math.min(attempt, 20)));
