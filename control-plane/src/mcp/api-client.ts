import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * A small HTTP client of Lookout's public API, as the MCP server uses it: every request carries
 * X-API-Key; error bodies ({"error": {code, message, details}}) become ApiError with the API's own
 * words. It knows nothing of the store.
 */

export interface FieldDetail {
  field: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: FieldDetail[];
  constructor(status: number, code: string, message: string, details: FieldDetail[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** The API could not be reached at all (refused, reset, timed out, not JSON). */
export class ApiUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ApiUnreachableError';
  }
}

export type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

export interface ApiClient {
  readonly baseUrl: string;
  get(path: string, query?: Query): Promise<unknown>;
  post(path: string, body?: unknown): Promise<unknown>;
}

/** The HTTP client also edits and deletes (the CLI's configuration commands use it). */
export interface RestApiClient extends ApiClient {
  patch(path: string, body: unknown): Promise<unknown>;
  delete(path: string): Promise<unknown>;
}

export interface ApiClientOptions {
  /** Ends in /api/v1. */
  baseUrl: string;
  apiKey: string;
  userAgent: string;
  timeoutMs?: number;
}

const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/**
 * `<workspace>.localhost` is loopback (RFC 6761) but most resolvers do not know it: connect to
 * 127.0.0.1 and keep the name in the Host header, which picks the workspace.
 */
const lookup = ((hostname, options, callback) => {
  if (hostname.endsWith('.localhost')) {
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else (callback as (e: null, a: string, f: number) => void)(null, '127.0.0.1', 4);
    return;
  }
  dnsLookup(hostname, options, callback);
}) as LookupFunction;

export const queryString = (query: Query = {}) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    params.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
};

const readBody = (res: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_RESPONSE_BYTES) res.destroy(new Error('response too large'));
      else chunks.push(c);
    });
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });

export const toApiError = (status: number, body: unknown, text: string): ApiError => {
  const e = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (e && typeof e.message === 'string') {
    const details = Array.isArray(e.details)
      ? e.details.filter(
          (d): d is FieldDetail => typeof d?.field === 'string' && typeof d?.message === 'string',
        )
      : [];
    return new ApiError(status, typeof e.code === 'string' ? e.code : 'error', e.message, details);
  }
  return new ApiError(status, 'http_error', `HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}`);
};

export const createApiClient = ({
  baseUrl,
  apiKey,
  userAgent,
  timeoutMs = 30_000,
}: ApiClientOptions): RestApiClient => {
  const send = (method: string, path: string, body?: unknown): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const url = new URL(`${baseUrl}${path}`);
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const headers: Record<string, string> = {
        'x-api-key': apiKey,
        accept: 'application/json',
        'user-agent': userAgent,
      };
      if (payload) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(payload.length);
      }
      const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = request(url, { method, headers, lookup, timeout: timeoutMs }, (res) => {
        readBody(res).then((text) => {
          const status = res.statusCode ?? 0;
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            if (status < 400) {
              reject(
                new ApiUnreachableError(`${url.origin} answered ${status} with something that is not JSON`),
              );
              return;
            }
          }
          if (status >= 400) reject(toApiError(status, parsed, text));
          else resolve(parsed);
        }, reject);
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
      req.on('error', (e: NodeJS.ErrnoException) =>
        reject(new ApiUnreachableError(`cannot reach ${url.origin}: ${e.code ?? e.message}`)),
      );
      req.end(payload);
    });

  return {
    baseUrl,
    get: (path, query) => send('GET', `${path}${queryString(query)}`),
    post: (path, body) => send('POST', path, body ?? {}),
    patch: (path, body) => send('PATCH', path, body),
    delete: (path) => send('DELETE', path),
  };
};
