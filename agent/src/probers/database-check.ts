import { isIP } from 'node:net';
import { assertPublicLiteral, publicOnlyLookup } from '@lookout/shared';
import { applyAssertions } from '../assertions/index.js';
import type { Deadline, ProbeOutcome, Prober, ProbeSpec } from '../probe-port.js';
import { classifyError } from './classify-error.js';

/**
 * What the postgres, mysql and redis probers share: the connection URL read into a target, the SSRF
 * guard on its host, one run under the check's deadline with the connection closed every run, and
 * error messages that never carry the password. Each prober is a small `DatabaseDriver` over its
 * client library (postgres-prober.ts, mysql-prober.ts, redis-prober.ts).
 *
 * The response text (what assertions read as `text_body`) is the first value of the first row, as
 * the server sent it in text, cut at RESPONSE_TEXT_CAP characters; a query returning more rows is
 * cut off after its second row arrives (the rest is never read).
 */
export const RESPONSE_TEXT_CAP = 64 * 1024;

/**
 * What one run may read from the server in all, handshake included: a hostile server cannot make the
 * agent hold a giant value (the client libraries buffer a whole message before handing it over).
 */
export const READ_CAP = 1 << 20;

/** The server sent more than READ_CAP. */
export class ReadCapError extends Error {
  readonly code = 'ETOOLARGE';
  constructor() {
    super(`the server sent more than ${READ_CAP / 1024} KiB`);
  }
}

/** Counts what `socket` reads and destroys it past READ_CAP. Returns the socket. */
export const capReads = <
  S extends { on(e: 'data', fn: (chunk: Buffer) => void): unknown; destroy(e?: Error): unknown },
>(
  socket: S,
): S => {
  let read = 0;
  socket.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > READ_CAP) socket.destroy(new ReadCapError());
  });
  return socket;
};

/** Extra CAs to trust besides the system's (tests). */
export type TrustedCa = string | Buffer | (string | Buffer)[];

/** TLS as the URL asks: none, encrypted without verifying the server (`require`), or verified. */
export type TlsMode = 'none' | 'unverified' | 'verified';

export interface DatabaseTarget {
  /** The host as written in the URL (brackets of an IPv6 literal removed). */
  host: string;
  port: number;
  user: string;
  password: string;
  /** The path without its '/': the database name (redis: the db number). */
  database: string;
  tls: TlsMode;
}

/** A connection URL the prober cannot use; its message never quotes the URL. */
export class TargetError extends Error {
  readonly code = 'EINVALIDTARGET';
}

export const parseDatabaseUrl = (
  url: string,
  schemes: readonly string[],
  defaultPort: number,
  tlsOf: (scheme: string, params: URLSearchParams) => TlsMode,
): DatabaseTarget => {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new TargetError('the connection URL is not a valid URL');
  }
  const scheme = u.protocol.slice(0, -1);
  if (!schemes.includes(scheme))
    throw new TargetError(`the connection URL must start with ${schemes.map((s) => `${s}://`).join(' or ')}`);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!host) throw new TargetError('the connection URL names no host');
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      throw new TargetError('the connection URL has a malformed %-escape');
    }
  };
  return {
    host,
    port: u.port ? Number(u.port) : defaultPort,
    user: decode(u.username),
    password: decode(u.password),
    database: decode(u.pathname.replace(/^\//, '')),
    tls: tlsOf(scheme, u.searchParams),
  };
};

/**
 * The address to connect to. Unguarded: the host itself (the client library resolves it). Guarded:
 * a blocked literal fails at once, a name is resolved once through `publicOnlyLookup` and the client
 * connects to that checked address (TLS still names the host), so rebinding cannot slip by.
 */
export const addressFor = (host: string, blockPrivate: boolean): Promise<string> => {
  if (!blockPrivate) return Promise.resolve(host);
  assertPublicLiteral(host);
  if (isIP(host)) return Promise.resolve(host);
  return new Promise((resolve, reject) =>
    publicOnlyLookup(host, {}, (err, address) => (err ? reject(err) : resolve(address as string))),
  );
};

/** The TLS server name for `host` (none for an IP literal, as Node refuses one). */
export const serverName = (host: string): string | undefined => (isIP(host) ? undefined : host);

/** Every spelling of the password (as written, decoded, encoded) and the whole URL replaced. */
export const redact = (message: string, url: string, password: string): string => {
  let out = message.split(url).join('[connection URL]');
  if (!password) return out;
  for (const form of new Set([password, encodeURIComponent(password)])) out = out.split(form).join('***');
  return out;
};

/** A value as text: strings as they are, buffers as UTF-8, nothing as ''; cut at the cap (`truncated`). */
export const responseText = (v: unknown): { text: string; truncated: boolean } => {
  if (Array.isArray(v)) return responseText(v[0]);
  let s: string;
  if (v === null || v === undefined) s = '';
  else if (typeof v === 'string') s = v;
  else if (Buffer.isBuffer(v)) {
    if (v.length > RESPONSE_TEXT_CAP * 4)
      return {
        text: v.toString('utf8', 0, RESPONSE_TEXT_CAP * 4).slice(0, RESPONSE_TEXT_CAP),
        truncated: true,
      };
    s = v.toString('utf8');
  } else s = String(v);
  return s.length > RESPONSE_TEXT_CAP
    ? { text: s.slice(0, RESPONSE_TEXT_CAP), truncated: true }
    : { text: s, truncated: false };
};

export const valueText = (v: unknown): string => responseText(v).text;

/** One client library as a prober needs it. `C` is a connection, made before it connects. */
export interface DatabaseDriver<C> {
  parse(url: string): DatabaseTarget;
  /** A connection to `address` (made at once, so a deadline can close it while it connects). */
  open(target: DatabaseTarget, address: string): C;
  connect(conn: C): Promise<void>;
  /** Runs `query`; resolves with the first value of the first row (null when no row). */
  query(conn: C, query: string): Promise<unknown>;
  /** Closes the connection: `graceful` says goodbye to the server, otherwise the socket is destroyed. */
  close(conn: C, graceful: boolean): void;
  /** The server's own errors named (auth_failed, query_failed), or undefined for classifyError. */
  kindOf(e: unknown): string | undefined;
}

/** What the prober read: the response text, given to assertions. */
export interface DatabaseResponse {
  text: string;
  /** The value went on past RESPONSE_TEXT_CAP (json_body refuses a cut text). */
  truncated: boolean;
  response_time_ms: number;
}

export type AssertResponse = (
  outcome: ProbeOutcome,
  response: DatabaseResponse,
  spec: ProbeSpec<'postgres' | 'mysql' | 'redis'>,
) => ProbeOutcome;

/** The check's assertions: `text_body` and `json_body` read the first value, `response_time` the run. */
export const assertResponse: AssertResponse = (outcome, response, spec) =>
  applyAssertions(outcome, spec.settings.assertions, {
    body: response.text,
    body_truncated: response.truncated,
  });

/** One check: parse, guard, connect, query, close; every failure a ProbeOutcome, never a throw. */
export const runDatabaseCheck = async <C>(
  driver: DatabaseDriver<C>,
  spec: ProbeSpec<'postgres' | 'mysql' | 'redis'>,
  deadline: Deadline,
  opts: { blockPrivate: boolean; assert?: AssertResponse | undefined },
): Promise<ProbeOutcome> => {
  const started = performance.now();
  let conn: C | undefined;
  let password = '';
  const abort = new Promise<never>((_, reject) => deadline.onAbort(reject));
  abort.catch(() => {});
  try {
    const target = driver.parse(spec.url);
    password = target.password;
    const work = (async () => {
      const address = await addressFor(target.host, opts.blockPrivate);
      const resolved = performance.now();
      if (deadline.aborted) throw deadline.reason;
      conn = driver.open(target, address);
      await driver.connect(conn);
      const connected = performance.now();
      const value = await driver.query(conn, spec.settings.query);
      return { value, resolved, connected };
    })();
    work.catch(() => {});
    const { value, resolved, connected } = await Promise.race([work, abort]);
    const total = performance.now() - started;
    const outcome: ProbeOutcome = {
      ok: true,
      error: null,
      response_time_ms: total,
      timings: {
        dns_ms: resolved - started,
        connect_ms: connected - resolved,
        tls_ms: 0,
        first_byte_ms: total,
        total_ms: total,
      },
    };
    driver.close(conn as C, true);
    conn = undefined;
    return (opts.assert ?? assertResponse)(
      outcome,
      { ...responseText(value), response_time_ms: total },
      spec,
    );
  } catch (e) {
    if (conn !== undefined) driver.close(conn, false);
    const named = e instanceof ReadCapError ? 'response_too_large' : driver.kindOf(e);
    const base = e instanceof TargetError ? { kind: 'invalid_target', message: e.message } : classifyError(e);
    return {
      ok: false,
      error: { kind: named ?? base.kind, message: redact(base.message, spec.url, password) },
      response_time_ms: performance.now() - started,
    };
  } finally {
    deadline.onAbort(null);
  }
};

export interface DatabaseProberOptions {
  blockPrivate?: boolean;
  ca?: TrustedCa;
  assert?: AssertResponse;
}

/** A database type's prober: its driver (made once, with the trusted CAs) run by `runDatabaseCheck`. */
export const databaseProber = <C>(
  makeDriver: (ca: TrustedCa | undefined) => DatabaseDriver<C>,
  opts: DatabaseProberOptions,
): Prober<'postgres' | 'mysql' | 'redis'> => {
  const driver = makeDriver(opts.ca);
  const run = { blockPrivate: opts.blockPrivate ?? false, assert: opts.assert };
  return { run: (spec, deadline) => runDatabaseCheck(driver, spec, deadline, run) };
};
