/** The outcome of one delivery attempt, as every transport reports it. */
export interface AttemptResult {
  ok: boolean;
  /** True when trying again cannot help (a 4xx other than 429, a refused address, a bad config). */
  permanent: boolean;
  status_code: number | null;
  error: string | null;
  /**
   * The service asked us to wait this long before trying again (429 or 503 with `Retry-After`, or
   * the service's own field such as Telegram's `parameters.retry_after`): the next attempt never
   * comes sooner.
   */
  retry_after_ms?: number | null;
  /** The start of the service's answer (its body), for the channel test and the log. */
  response?: string | null;
  /** The service's id of the message it accepted, when it gave one (see Delivery.remote_id). */
  remote_id?: string | null;
}

export interface RetryOptions {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Wait before the second attempt; doubled for each one after. */
  baseDelayMs: number;
  /**
   * The longest wait a service's `Retry-After` may ask for; asked for longer, the notification stops
   * retrying there (failed, not permanent) rather than retrying sooner than asked. Default 5 minutes.
   */
  maxRetryAfterMs?: number;
  /** Injectable so tests need not wait. */
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The first 200 characters of a service's answer, on one line. */
export const excerpt = (body: string): string | null => {
  const s = body.replace(/\s+/g, ' ').trim();
  return s ? s.slice(0, 200) : null;
};

/**
 * `Retry-After` as milliseconds: delay-seconds or an HTTP-date (RFC 9110 §10.2.3), relative to `now`.
 * Null when absent or unreadable.
 */
export const parseRetryAfter = (value: string | string[] | undefined, now: Date): number | null => {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(v)) return Math.ceil(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
};

/**
 * Classifies an HTTP status: 2xx ok; 429 and 5xx worth retrying (after `retryAfterMs` when the
 * service said so); anything else permanent.
 */
export const httpResult = (status: number, body = '', retryAfterMs: number | null = null): AttemptResult => {
  const response = excerpt(body);
  if (status >= 200 && status < 300)
    return { ok: true, permanent: false, status_code: status, error: null, response };
  const retryable = status === 429 || status >= 500;
  return {
    ok: false,
    permanent: !retryable,
    status_code: status,
    error: `HTTP ${status}${response ? `: ${response}` : ''}`,
    retry_after_ms: retryable ? retryAfterMs : null,
    response,
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

/** A failure that trying again cannot mend (a refused address, a bad config). */
export const permanentFailure = (error: string, status_code: number | null = null): AttemptResult => ({
  ok: false,
  permanent: true,
  status_code,
  error: error.slice(0, 200),
});

/**
 * Runs `attempt` until it succeeds, fails permanently, or `maxAttempts` are used, sleeping
 * base·2^(n−1) between tries — or as long as the service's Retry-After asked, when that is longer:
 * never sooner. A Retry-After beyond `maxRetryAfterMs` ends the retries there. `onAttempt` sees every
 * attempt (the delivery log) with whether another one follows.
 */
export const withRetries = async (
  attempt: (n: number) => Promise<AttemptResult>,
  opts: RetryOptions,
  onAttempt: (n: number, result: AttemptResult, willRetry: boolean) => Promise<void> | void,
): Promise<AttemptResult> => {
  const sleep = opts.sleep ?? realSleep;
  const maxRetryAfter = opts.maxRetryAfterMs ?? 300_000;
  for (let n = 1; ; n++) {
    let result = await attempt(n);
    const asked = result.retry_after_ms ?? 0;
    if (!result.ok && !result.permanent && asked > maxRetryAfter && n < opts.maxAttempts) {
      result = {
        ...result,
        error:
          `${result.error ?? 'rate limited'} (the service asks to wait ${Math.ceil(asked / 1000)} s: not retried sooner)`.slice(
            0,
            300,
          ),
      };
      await onAttempt(n, result, false);
      return result;
    }
    const willRetry = !result.ok && !result.permanent && n < opts.maxAttempts;
    await onAttempt(n, result, willRetry);
    if (!willRetry) return result;
    await sleep(Math.max(opts.baseDelayMs * 2 ** (n - 1), asked));
  }
};
