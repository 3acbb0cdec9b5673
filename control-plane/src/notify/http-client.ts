import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { assertPublicLiteral, publicOnlyLookup } from '@lookout/shared';
import { type AttemptResult, httpResult, networkResult, parseRetryAfter } from './attempt.js';

export interface HttpCall {
  method: 'POST' | 'PUT' | 'PATCH' | 'GET';
  url: string;
  headers: Record<string, string>;
  /** Sent as is; a JSON body is a string the caller made. */
  body: string;
}

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The first 4 KiB of the body. */
  text: string;
}

export interface HttpOptions {
  timeoutMs: number;
  /** Refuse destinations that are or resolve to private or loopback addresses (the SSRF guard). */
  blockPrivate: boolean;
}

/**
 * The one HTTP client every notification kind sends through: node's own client, so the SSRF guard
 * sees the address actually connected to (a literal is checked before, a name at lookup). Redirects
 * are not followed (a 3xx is a permanent failure: fix the URL). A refused address throws with code
 * EBLOCKED.
 */
export const httpCall = (call: HttpCall, opts: HttpOptions) =>
  new Promise<HttpAnswer>((resolve, reject) => {
    const url = new URL(call.url);
    if (opts.blockPrivate) assertPublicLiteral(url.hostname);
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: call.method,
      headers: {
        'user-agent': 'Lookout-Notify/1',
        ...call.headers,
        'content-length': String(Buffer.byteLength(call.body)),
      },
      agent: false,
      signal: AbortSignal.timeout(opts.timeoutMs),
      ...(opts.blockPrivate ? { lookup: publicOnlyLookup } : {}),
    });
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < 4096) chunks.push(c);
        size += c.length;
      });
      res.once('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8').slice(0, 4096),
        }),
      );
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end(call.body);
  });

/**
 * One HTTP call as a delivery attempt: the answer classified by `classify` (default: 2xx ok, 429/5xx
 * retry after the `Retry-After` it carries, other statuses permanent), a refused address permanent,
 * a network error worth retrying.
 */
export const httpAttempt = async (
  call: HttpCall,
  opts: HttpOptions & { now: Date },
  classify: (answer: HttpAnswer, now: Date) => AttemptResult = defaultClassify,
): Promise<AttemptResult> => {
  try {
    return classify(await httpCall(call, opts), opts.now);
  } catch (e) {
    if ((e as { code?: string }).code === 'EBLOCKED') {
      return { ok: false, permanent: true, status_code: null, error: (e as Error).message };
    }
    return networkResult(e);
  }
};

export const defaultClassify = (a: HttpAnswer, now: Date): AttemptResult =>
  httpResult(a.status, a.text, parseRetryAfter(a.headers['retry-after'], now));
