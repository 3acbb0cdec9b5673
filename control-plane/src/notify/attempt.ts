/** The outcome of one delivery attempt, as every transport reports it. */
export interface AttemptResult {
  ok: boolean;
  /** True when trying again cannot help (a 4xx other than 429, a refused address, a bad config). */
  permanent: boolean;
  status_code: number | null;
  error: string | null;
}

export interface RetryOptions {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Wait before the second attempt; doubled for each one after. */
  baseDelayMs: number;
  /** Injectable so tests need not wait. */
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Classifies an HTTP status: 2xx ok; 429 and 5xx worth retrying; anything else permanent. */
export const httpResult = (status: number, body = ''): AttemptResult => {
  if (status >= 200 && status < 300) return { ok: true, permanent: false, status_code: status, error: null };
  const retryable = status === 429 || status >= 500;
  const detail = body.trim().slice(0, 200);
  return {
    ok: false,
    permanent: !retryable,
    status_code: status,
    error: `HTTP ${status}${detail ? `: ${detail}` : ''}`,
  };
};

/** A network-level failure (refused, reset, timeout, DNS): always worth retrying. */
export const networkResult = (e: unknown): AttemptResult => {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  const why =
    err?.name === 'TimeoutError'
      ? 'timed out'
      : (err?.cause?.code ?? err?.cause?.message ?? err?.message ?? 'network error');
  return { ok: false, permanent: false, status_code: null, error: String(why).slice(0, 200) };
};

/**
 * Runs `attempt` until it succeeds, fails permanently, or `maxAttempts` are used, sleeping
 * base·2^(n−1) between tries. `onAttempt` sees every attempt (the delivery log) with whether another
 * one follows.
 */
export const withRetries = async (
  attempt: (n: number) => Promise<AttemptResult>,
  opts: RetryOptions,
  onAttempt: (n: number, result: AttemptResult, willRetry: boolean) => Promise<void> | void,
): Promise<AttemptResult> => {
  const sleep = opts.sleep ?? realSleep;
  for (let n = 1; ; n++) {
    const result = await attempt(n);
    const willRetry = !result.ok && !result.permanent && n < opts.maxAttempts;
    await onAttempt(n, result, willRetry);
    if (!willRetry) return result;
    await sleep(opts.baseDelayMs * 2 ** (n - 1));
  }
};
