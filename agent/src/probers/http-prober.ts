import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { createSecureContext, type SecureContext } from 'node:tls';
import { assertPublicLiteral, publicOnlyLookup } from '@lookout/shared';
import { deadline } from '../deadline.js';
import type { ProbeOutcome, ProbeSpec } from '../probe-port.js';
import { classifyError } from './classify-error.js';

const MAX_BODY = 1 << 20;
const MAX_REDIRECTS = 5;
const DAY_MS = 86_400_000;

export interface HttpProberOptions {
  now?: () => Date;
  /** Extra trusted CAs (tests); the system store otherwise. */
  ca?: string | Buffer | (string | Buffer)[];
  /** Refuse targets that are or resolve to private or loopback addresses (SSRF guard, hosted use). */
  blockPrivate?: boolean;
}

/**
 * http and api checks on node:http(s), a fresh connection per check (no agent, no keep-alive) and one
 * shared TLS context. Measures DNS, connect, TLS, first byte and total; follows redirects; reads the
 * body only as far as the keyword needs (1 MiB at most).
 */
export const createHttpProber = (opts: HttpProberOptions = {}) => {
  const now = opts.now ?? (() => new Date());
  const secureContext: SecureContext = createSecureContext(opts.ca ? { ca: opts.ca } : {});

  const once = (spec: ProbeSpec, url: URL, signal: AbortSignal) =>
    new Promise<{ res: IncomingMessage; body: string; t: Record<string, number>; tls?: ProbeOutcome['tls'] }>(
      (resolve, reject) => {
        const t0 = performance.now();
        const t: Record<string, number> = { dns: 0, connect: 0, tls: 0, firstByte: 0 };
        const headers: Record<string, string> = {
          'user-agent': 'Lookout/1 (+monitoring)',
          ...spec.request_headers,
        };
        if (spec.auth?.type === 'basic') {
          headers.authorization = `Basic ${Buffer.from(`${spec.auth.username}:${spec.auth.password}`).toString('base64')}`;
        } else if (spec.auth?.type === 'bearer') headers.authorization = `Bearer ${spec.auth.token}`;
        const body = spec.monitor_type === 'api' && spec.request_body ? Buffer.from(spec.request_body) : null;
        if (body) headers['content-length'] = String(body.length);
        const isHttps = url.protocol === 'https:';
        if (opts.blockPrivate) assertPublicLiteral(url.hostname);
        const req = (isHttps ? httpsRequest : httpRequest)(url, {
          ...(opts.blockPrivate ? { lookup: publicOnlyLookup } : {}),
          method: spec.http_method ?? 'GET',
          headers: { ...headers, connection: 'close' },
          agent: false,
          signal,
          ...(isHttps ? { secureContext, servername: url.hostname.replace(/^\[|\]$/g, '') } : {}),
        });
        let tls: ProbeOutcome['tls'];
        req.once('socket', (socket) => {
          socket.once('lookup', () => (t.dns = performance.now() - t0));
          socket.once('connect', () => (t.connect = performance.now() - t0));
          socket.once('secureConnect', () => {
            t.tls = performance.now() - t0;
            if (spec.ssl_cert_monitoring) {
              const cert = (socket as TLSSocket).getPeerCertificate();
              if (cert?.valid_to) {
                const validTo = new Date(cert.valid_to);
                tls = {
                  valid_to: validTo.toISOString(),
                  days_remaining: Math.floor((validTo.getTime() - now().getTime()) / DAY_MS),
                  subject: String(cert.subject?.CN ?? ''),
                  issuer: String(cert.issuer?.CN ?? ''),
                };
              }
            }
          });
        });
        req.once('response', (res) => {
          t.firstByte = performance.now() - t0;
          const chunks: Buffer[] = [];
          let size = 0;
          const keep = spec.required_keyword !== null;
          res.on('data', (c: Buffer) => {
            if (keep && size < MAX_BODY) {
              chunks.push(c);
              size += c.length;
            }
          });
          res.once('end', () => {
            t.total = performance.now() - t0;
            resolve({
              res,
              body: Buffer.concat(chunks).subarray(0, MAX_BODY).toString('utf8'),
              t,
              ...(tls ? { tls } : {}),
            });
          });
          res.once('error', reject);
        });
        req.once('error', reject);
        req.end(body ?? undefined);
      },
    );

  return {
    async run(spec: ProbeSpec, signal: AbortSignal): Promise<ProbeOutcome> {
      const started = performance.now();
      let url: URL;
      try {
        url = new URL(spec.url);
      } catch {
        return {
          ok: false,
          error: { kind: 'bad_url', message: `not a URL: ${spec.url}` },
          response_time_ms: 0,
        };
      }
      const limit = deadline(spec.timeout_ms, signal);
      try {
        for (let hop = 0; ; hop++) {
          const r = await once(spec, url, limit.signal);
          const status = r.res.statusCode ?? 0;
          const location = r.res.headers.location;
          if (spec.follow_redirects && status >= 300 && status < 400 && location) {
            if (hop >= MAX_REDIRECTS) {
              return {
                ok: false,
                error: { kind: 'too_many_redirects', message: `more than ${MAX_REDIRECTS} redirects` },
                response_time_ms: performance.now() - started,
                status_code: status,
              };
            }
            url = new URL(location, url);
            continue;
          }
          const timings = {
            dns_ms: r.t.dns ?? 0,
            connect_ms: r.t.connect ?? 0,
            tls_ms: r.t.tls ?? 0,
            first_byte_ms: r.t.firstByte ?? 0,
            total_ms: r.t.total ?? performance.now() - started,
          };
          const base = {
            response_time_ms: performance.now() - started,
            status_code: status,
            timings,
            ...(r.tls ? { tls: r.tls } : {}),
          };
          if (status !== spec.expected_status_code) {
            return {
              ...base,
              ok: false,
              error: {
                kind: 'status_mismatch',
                message: `expected ${spec.expected_status_code}, got ${status}`,
              },
            };
          }
          if (spec.required_keyword !== null && !r.body.includes(spec.required_keyword)) {
            return {
              ...base,
              ok: false,
              error: {
                kind: 'keyword_missing',
                message: `the response does not contain "${spec.required_keyword}"`,
              },
            };
          }
          return { ...base, ok: true, error: null };
        }
      } catch (e) {
        return { ok: false, error: classifyError(e), response_time_ms: performance.now() - started };
      } finally {
        limit.done();
      }
    },
  };
};
