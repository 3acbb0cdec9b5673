import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { createSecureContext, type SecureContext } from 'node:tls';
import { assertPublicLiteral, publicOnlyLookup } from '@lookout/shared';
import type { Deadline, ProbeOutcome, ProbeSpec } from '../probe-port.js';
import { classifyError } from './classify-error.js';

const MAX_BODY = 1 << 20;
const MAX_REDIRECTS = 5;
const DAY_MS = 86_400_000;
/** The headers of a spec without its own headers, auth or body (the same object for all of them). */
const DEFAULT_HEADERS: Record<string, string> = {
  'user-agent': 'Lookout/1 (+monitoring)',
  connection: 'close',
};

/** A run's headers and body, and the request options of its first hop (see `prepare`). */
interface Prepared {
  headers: Record<string, string>;
  body: Buffer | null;
  /** null: the spec's URL does not parse. */
  first: Hop | null;
}
interface Hop {
  /** The hop's URL (what a redirect's location is relative to); parsed again only for a redirect. */
  href: string;
  /** As the URL has it (an IPv6 address in brackets): what the SSRF guard checks. */
  hostname: string;
  isHttps: boolean;
  /** The host is a name (a DNS lookup phase), not an address. */
  lookup: boolean;
  /** The whole request (method and headers included), as node:http takes it; it copies it. */
  options: RequestOptions;
}
/** Ends the request under way (set while one is), and the first reason a run was ended for. */
interface Abort {
  current: ((err: unknown) => void) | null;
  reason: unknown;
}

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

  /**
   * A run's headers, body and first hop, built from the spec at each run: a URL parse and a few small
   * objects, ~0.5 µs against ~300 µs for the check. Kept per spec instead, they cost ~300 bytes a
   * monitor for as long as it is assigned (100,000 monitors: 30 MB of heap every GC walks).
   */
  const prepare = (spec: ProbeSpec): Prepared => {
    const plain =
      !spec.auth &&
      Object.keys(spec.request_headers).length === 0 &&
      !(spec.monitor_type === 'api' && spec.request_body);
    // Most specs send the default headers: one object for all of them (node:http copies it).
    const headers: Record<string, string> = plain
      ? DEFAULT_HEADERS
      : { 'user-agent': 'Lookout/1 (+monitoring)', ...spec.request_headers };
    if (spec.auth?.type === 'basic') {
      headers.authorization = `Basic ${Buffer.from(`${spec.auth.username}:${spec.auth.password}`).toString('base64')}`;
    } else if (spec.auth?.type === 'bearer') headers.authorization = `Bearer ${spec.auth.token}`;
    const body = spec.monitor_type === 'api' && spec.request_body ? Buffer.from(spec.request_body) : null;
    if (body) headers['content-length'] = String(body.length);
    if (!plain) headers.connection = 'close';
    let first: Hop | null = null;
    try {
      first = hopOf(new URL(spec.url), spec, headers);
    } catch {
      // not a URL: every run says so
    }
    return { headers, body, first };
  };
  /**
   * One agent per scheme for every check, keeping nothing: no keep-alive (a fresh connection per
   * check, closed after the response), no limit on sockets (the check queue bounds them), and no TLS
   * session cache (every https check does a full handshake, as a first visitor would). A request with
   * its own `createConnection` and no agent leaves each closed socket's objects alive long enough to be
   * promoted to the old generation (~1.6 KB a check); through an agent they die young
   * (docs/benchmarks.md, "Issue 27, thirteenth round").
   */
  const httpAgent = new HttpAgent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const httpsAgent = new HttpsAgent({
    keepAlive: false,
    maxSockets: Number.POSITIVE_INFINITY,
    maxCachedSessions: 0,
  });
  /** A hop's request: only what node:http reads (not urlToHttpOptions' href, hash, search and pathname). */
  const hopOf = (url: URL, spec: ProbeSpec, headers: Record<string, string>): Hop => {
    const isHttps = url.protocol === 'https:';
    // What urlToHttpOptions gives node:http, from the URL's own strings (no copies kept per hop).
    const host = url.hostname;
    const hostname = host.startsWith('[') ? host.slice(1, -1) : host;
    const options: RequestOptions = {
      protocol: isHttps ? 'https:' : url.protocol === 'http:' ? 'http:' : url.protocol,
      hostname,
      path: url.pathname + url.search,
      method: spec.http_method ?? 'GET',
      headers,
      agent: isHttps ? httpsAgent : httpAgent,
    };
    if (url.port !== '') options.port = Number(url.port);
    if (url.username || url.password) {
      options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    }
    if (opts.blockPrivate) options.lookup = publicOnlyLookup;
    if (isHttps) Object.assign(options, { secureContext, servername: hostname });
    return {
      href: url.href === spec.url ? spec.url : url.href,
      hostname: host,
      isHttps,
      // Only a name is looked up; an address literal has no lookup phase.
      lookup: isIP(hostname) === 0,
      options,
    };
  };

  /**
   * One request. No AbortSignal goes to node:http (it would add listeners to every request):
   * `abort.current` is how the check's deadline ends the request under way.
   */
  const once = (spec: ProbeSpec, p: Prepared, hop: Hop, abort: Abort) =>
    new Promise<{ res: IncomingMessage; body: string; t: Record<string, number>; tls?: ProbeOutcome['tls'] }>(
      (resolve, reject) => {
        const t0 = performance.now();
        const t: Record<string, number> = { dns: 0, connect: 0, tls: 0, firstByte: 0 };
        if (opts.blockPrivate) assertPublicLiteral(hop.hostname);
        const req = (hop.isHttps ? httpsRequest : httpRequest)(hop.options);
        let res: IncomingMessage | null = null;
        let settled = false;
        const fail = (err: unknown) => {
          if (settled) return;
          settled = true;
          abort.current = null;
          reject(err);
        };
        abort.current = (err) => {
          fail(err);
          res?.destroy(err as Error);
          req.destroy(err as Error);
        };
        let tls: ProbeOutcome['tls'];
        // `on`, not `once`: each request has one socket and one response (no keep-alive), and `once`
        // costs a wrapper per listener, four times a check.
        req.on('socket', (socket) => {
          if (hop.lookup) socket.on('lookup', () => (t.dns = performance.now() - t0));
          socket.on('connect', () => (t.connect = performance.now() - t0));
          if (!hop.isHttps) return;
          socket.on('secureConnect', () => {
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
        req.on('response', (r) => {
          res = r;
          t.firstByte = performance.now() - t0;
          const chunks: Buffer[] = [];
          if (spec.required_keyword !== null) {
            let size = 0;
            r.on('data', (c: Buffer) => {
              if (size < MAX_BODY) {
                chunks.push(c);
                size += c.length;
              }
            });
          } else r.resume(); // the body is read to its end, and dropped
          r.on('end', () => {
            if (settled) return;
            settled = true;
            abort.current = null;
            t.total = performance.now() - t0;
            resolve({
              res: r,
              body: chunks.length === 0 ? '' : Buffer.concat(chunks).subarray(0, MAX_BODY).toString('utf8'),
              t,
              ...(tls ? { tls } : {}),
            });
          });
          r.on('error', fail);
        });
        req.on('error', fail);
        req.end(p.body ?? undefined);
      },
    );

  return {
    async run(spec: ProbeSpec, deadline: Deadline): Promise<ProbeOutcome> {
      const started = performance.now();
      const p = prepare(spec);
      if (!p.first) {
        return {
          ok: false,
          error: { kind: 'bad_url', message: `not a URL: ${spec.url}` },
          response_time_ms: 0,
        };
      }
      // The check's one deadline (deadline.ts), for the whole run (every hop): it ends the request
      // under way, and the run fails with its reason.
      const abort: Abort = { current: null, reason: null };
      const stop = (err: unknown) => {
        abort.reason ??= err;
        abort.current?.(err);
      };
      deadline.onAbort(stop);
      try {
        let hop = p.first;
        for (let n = 0; ; n++) {
          if (abort.reason !== null) throw abort.reason;
          const r = await once(spec, p, hop, abort);
          const status = r.res.statusCode ?? 0;
          const location = r.res.headers.location;
          if (spec.follow_redirects && status >= 300 && status < 400 && location) {
            if (n >= MAX_REDIRECTS) {
              return {
                ok: false,
                error: { kind: 'too_many_redirects', message: `more than ${MAX_REDIRECTS} redirects` },
                response_time_ms: performance.now() - started,
                status_code: status,
              };
            }
            hop = hopOf(new URL(location, hop.href), spec, p.headers);
            continue;
          }
          const timings = {
            dns_ms: r.t.dns ?? 0,
            connect_ms: r.t.connect ?? 0,
            tls_ms: r.t.tls ?? 0,
            first_byte_ms: r.t.firstByte ?? 0,
            total_ms: r.t.total ?? performance.now() - started,
          };
          // One object per outcome (no spreads: this runs once per check).
          const outcome: ProbeOutcome = {
            ok: true,
            error: null,
            response_time_ms: performance.now() - started,
            status_code: status,
            timings,
          };
          if (r.tls) outcome.tls = r.tls;
          if (status !== spec.expected_status_code) {
            outcome.ok = false;
            outcome.error = {
              kind: 'status_mismatch',
              message: `expected ${spec.expected_status_code}, got ${status}`,
            };
          } else if (spec.required_keyword !== null && !r.body.includes(spec.required_keyword)) {
            outcome.ok = false;
            outcome.error = {
              kind: 'keyword_missing',
              message: `the response does not contain "${spec.required_keyword}"`,
            };
          }
          return outcome;
        }
      } catch (e) {
        return { ok: false, error: classifyError(e), response_time_ms: performance.now() - started };
      } finally {
        deadline.onAbort(null);
      }
    },
  };
};
