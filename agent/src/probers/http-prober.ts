import { isIP } from 'node:net';
import { createSecureContext, type PeerCertificate, type SecureContext } from 'node:tls';
import { assertPublicLiteral, publicOnlyLookup } from '@lookout/shared';
import { applyAssertions, BODY_CAP, needsBody, needsHeaders } from '../assertions/index.js';
import type { Deadline, ProbeOutcome, ProbeSpec } from '../probe-port.js';
import { classifyError } from './classify-error.js';
import { type ExchangeRequest, exchange, requestBytes } from './http-exchange.js';

const MAX_REDIRECTS = 5;
const DAY_MS = 86_400_000;
/** The headers of a spec without its own headers, auth or body (the same object for all of them). */
const DEFAULT_HEADERS: Record<string, string> = {
  'user-agent': 'Lookout/1 (+monitoring)',
  connection: 'close',
};

/** A run's headers, body and parsed URL (see `prepare`). */
interface Prepared {
  headers: Record<string, string>;
  body: Buffer | null;
  /** null: the spec's URL does not parse. */
  url: URL | null;
  /** How much of the body to keep: BODY_CAP when the keyword or an assertion reads it, else none. */
  keepBody: number;
  /** Whether an assertion reads a header. */
  keepHeaders: boolean;
}
interface Hop {
  /** The hop's URL (what a redirect's location is relative to); parsed again only for a redirect. */
  href: string;
  /** As the URL has it (an IPv6 address in brackets): what the SSRF guard checks. */
  hostname: string;
  /** The exchange: where to connect and the bytes to send. */
  request: ExchangeRequest;
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
 * http and api checks, one exchange per hop on a fresh connection (http-exchange.ts) and one shared
 * TLS context. Measures DNS, connect, TLS, first byte and total; follows redirects; keeps the body
 * only when the keyword or an assertion reads it (BODY_CAP, 1 MiB, at most), the headers only when
 * an assertion does; then the status, the keyword and the assertions, in that order.
 */
export const createHttpProber = (opts: HttpProberOptions = {}) => {
  const now = opts.now ?? (() => new Date());
  const secureContext: SecureContext = createSecureContext(opts.ca ? { ca: opts.ca } : {});

  /**
   * A run's headers, body and URL, built from the spec at each run: a URL parse and a few small
   * objects, ~0.5 µs against ~300 µs for the check. Kept per spec instead, they cost ~300 bytes a
   * monitor for as long as it is assigned (100,000 monitors: 30 MB of heap every GC walks).
   */
  const prepare = (spec: ProbeSpec<'http' | 'api'>): Prepared => {
    const plain =
      !spec.settings.auth &&
      Object.keys(spec.settings.request_headers).length === 0 &&
      !(spec.monitor_type === 'api' && spec.settings.request_body);
    // Most specs send the default headers: one object for all of them (never changed).
    const headers: Record<string, string> = plain
      ? DEFAULT_HEADERS
      : { 'user-agent': 'Lookout/1 (+monitoring)', ...spec.settings.request_headers };
    if (spec.settings.auth?.type === 'basic') {
      headers.authorization = `Basic ${Buffer.from(`${spec.settings.auth.username}:${spec.settings.auth.password}`).toString('base64')}`;
    } else if (spec.settings.auth?.type === 'bearer')
      headers.authorization = `Bearer ${spec.settings.auth.token}`;
    const body =
      spec.monitor_type === 'api' && spec.settings.request_body
        ? Buffer.from(spec.settings.request_body)
        : null;
    if (body) headers['content-length'] = String(body.length);
    if (!plain) headers.connection = 'close';
    let url: URL | null = null;
    try {
      url = new URL(spec.url);
    } catch {
      // not a URL: every run says so
    }
    const assertions = spec.settings.assertions;
    const keepBody = spec.settings.required_keyword !== null || needsBody(assertions) ? BODY_CAP : 0;
    return { headers, body, url, keepBody, keepHeaders: needsHeaders(assertions) };
  };
  /**
   * A hop's exchange, from the URL's own strings: a fresh connection (http-exchange.ts), no TLS
   * session reuse (every https check does a full handshake, as a first visitor would).
   */
  const hopOf = (url: URL, spec: ProbeSpec<'http' | 'api'>, p: Prepared): Hop => {
    const isHttps = url.protocol === 'https:';
    if (!isHttps && url.protocol !== 'http:') {
      throw Object.assign(new TypeError(`Protocol "${url.protocol}" not supported. Expected "http:"`), {
        code: 'ERR_INVALID_PROTOCOL',
      });
    }
    const host = url.hostname;
    const hostname = host.startsWith('[') ? host.slice(1, -1) : host;
    let headers = p.headers;
    if ((url.username || url.password) && headers.authorization === undefined) {
      // As node:http does with a URL's user info: Basic auth, unless the request has its own.
      const auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      headers = { ...headers, authorization: `Basic ${Buffer.from(auth).toString('base64')}` };
    }
    const method = spec.settings.http_method;
    const named = isIP(hostname) === 0;
    return {
      href: url.href === spec.url ? spec.url : url.href,
      hostname: host,
      request: {
        host: hostname,
        port: url.port !== '' ? Number(url.port) : isHttps ? 443 : 80,
        isHttps,
        // SNI names a host, never an address (RFC 6066).
        servername: isHttps && named ? hostname : undefined,
        secureContext: isHttps ? secureContext : undefined,
        lookup: opts.blockPrivate ? publicOnlyLookup : undefined,
        named,
        bytes: requestBytes(method, url.pathname + url.search, url.host, headers, p.body),
        head: method === 'HEAD',
        wantCert: isHttps && spec.settings.ssl_cert_monitoring,
        keepBody: p.keepBody,
        keepHeaders: p.keepHeaders,
      },
    };
  };

  /** The certificate's dates and names, when the spec watches them. */
  const tlsOf = (cert: PeerCertificate | undefined): ProbeOutcome['tls'] => {
    if (!cert?.valid_to) return undefined;
    const validTo = new Date(cert.valid_to);
    return {
      valid_to: validTo.toISOString(),
      days_remaining: Math.floor((validTo.getTime() - now().getTime()) / DAY_MS),
      subject: String(cert.subject?.CN ?? ''),
      issuer: String(cert.issuer?.CN ?? ''),
    };
  };

  return {
    async run(spec: ProbeSpec<'http' | 'api'>, deadline: Deadline): Promise<ProbeOutcome> {
      const started = performance.now();
      const p = prepare(spec);
      if (!p.url) {
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
        let hop = hopOf(p.url, spec, p);
        for (let n = 0; ; n++) {
          if (abort.reason !== null) throw abort.reason;
          if (opts.blockPrivate) assertPublicLiteral(hop.hostname);
          const r = await exchange(hop.request, (end) => (abort.current = end));
          const status = r.status;
          const location = r.location;
          if (spec.settings.follow_redirects && status >= 300 && status < 400 && location) {
            if (n >= MAX_REDIRECTS) {
              return {
                ok: false,
                error: { kind: 'too_many_redirects', message: `more than ${MAX_REDIRECTS} redirects` },
                response_time_ms: performance.now() - started,
                status_code: status,
              };
            }
            hop = hopOf(new URL(location, hop.href), spec, p);
            continue;
          }
          const timings = {
            dns_ms: r.dns,
            connect_ms: r.connect,
            tls_ms: r.tls,
            first_byte_ms: r.firstByte,
            total_ms: r.total,
          };
          // One object per outcome (no spreads: this runs once per check).
          const outcome: ProbeOutcome = {
            ok: true,
            error: null,
            response_time_ms: performance.now() - started,
            status_code: status,
            timings,
          };
          const tls = tlsOf(r.cert);
          if (tls) outcome.tls = tls;
          if (status !== spec.settings.expected_status_code) {
            outcome.ok = false;
            outcome.error = {
              kind: 'status_mismatch',
              message: `expected ${spec.settings.expected_status_code}, got ${status}`,
            };
          } else if (
            spec.settings.required_keyword !== null &&
            !r.body.includes(spec.settings.required_keyword)
          ) {
            outcome.ok = false;
            outcome.error = {
              kind: 'keyword_missing',
              message: `the response does not contain "${spec.settings.required_keyword}"`,
            };
          } else if (spec.settings.assertions.length > 0) {
            applyAssertions(outcome, spec.settings.assertions, {
              body: r.body,
              body_truncated: r.bodyTruncated,
              headers: r.headers,
            });
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
