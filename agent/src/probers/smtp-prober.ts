import { connect, isIP, type Socket } from 'node:net';
import { createSecureContext, type SecureContext, type TLSSocket, connect as tlsConnect } from 'node:tls';
import { assertPublicLiteral, publicOnlyLookup } from '@lookout/shared';
import type { Deadline, ProbeOutcome, ProbeSpec } from '../probe-port.js';
import { classifyError } from './classify-error.js';
import { numericAssertionFailure } from './numeric-assertions.js';

export interface SmtpProberOptions {
  blockPrivate?: boolean;
  /** Extra trusted CAs (tests); the system's roots otherwise. */
  ca?: string | Buffer | (string | Buffer)[];
  now?: () => Date;
}

/** A reply is read up to this size; a server sending more fails the check. */
const MAX_REPLY_BYTES = 16 * 1024;
const DAY_MS = 86_400_000;

/** An SMTP conversation that went wrong: which step, and what the server said (cut). */
class SmtpError extends Error {
  readonly kind = 'smtp_error';
}

interface Reply {
  code: number;
  lines: string[];
}

/**
 * Reads SMTP replies (RFC 5321 section 4.2: `250-first`, …, `250 last`) from whichever socket the
 * conversation is on now: the plain one, then the TLS one after STARTTLS.
 */
const replyReader = () => {
  let buffer = '';
  let lines: string[] = [];
  let waiting: { resolve(r: Reply): void; reject(e: unknown): void } | null = null;
  let failed: unknown = null;
  const pump = () => {
    if (!waiting) return;
    if (failed) return waiting.reject(failed);
    for (;;) {
      const end = buffer.indexOf('\n');
      if (end < 0) break;
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      const m = /^(\d{3})([ -]?)(.*)$/.exec(line);
      if (!m) return fail(new SmtpError(`not an SMTP reply: ${JSON.stringify(line.slice(0, 80))}`));
      lines.push(m[3]!);
      if (m[2] !== '-') {
        const w = waiting;
        waiting = null;
        const reply = { code: Number(m[1]), lines };
        lines = [];
        return w.resolve(reply);
      }
    }
    if (buffer.length + lines.join('').length > MAX_REPLY_BYTES)
      fail(new SmtpError(`a reply longer than ${MAX_REPLY_BYTES} bytes`));
  };
  const fail = (e: unknown) => {
    failed ??= e;
    const w = waiting;
    waiting = null;
    w?.reject(failed);
  };
  return {
    /** Reads from `socket`; the function returned stops that (STARTTLS hands the socket to TLS). */
    attach(socket: Socket): () => void {
      socket.setEncoding('latin1');
      const onData = (chunk: string) => {
        buffer += chunk;
        pump();
      };
      const onClose = () => fail(new SmtpError('the server closed the connection'));
      socket.on('data', onData);
      socket.on('error', fail);
      socket.on('close', onClose);
      return () => {
        socket.removeListener('data', onData);
        socket.removeListener('close', onClose);
        buffer = '';
      };
    },
    next(): Promise<Reply> {
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        pump();
      });
    },
    fail,
  };
};

const expect = (step: string, r: Reply, code: number) => {
  if (r.code !== code)
    throw new SmtpError(`${step} answered ${r.code} ${r.lines.join(' ').slice(0, 200)}`.trim());
};

/**
 * smtp checks: connect to host:port (implicit TLS for `tls`), read the 220 banner, EHLO, and for
 * `starttls` upgrade with STARTTLS and EHLO again; then QUIT. The certificate is verified (a bad one
 * fails as tls_invalid) and, with `ssl_cert_monitoring`, reported like an http check's.
 */
export const createSmtpProber = (opts: SmtpProberOptions = {}) => {
  const secureContext: SecureContext = createSecureContext(opts.ca ? { ca: opts.ca } : {});
  const now = opts.now ?? (() => new Date());

  return {
    async run(spec: ProbeSpec<'smtp'>, deadline: Deadline): Promise<ProbeOutcome> {
      const started = performance.now();
      const s = spec.settings;
      const host = spec.url.replace(/^\[|\]$/g, '');
      const servername = isIP(host) ? undefined : host;
      const timings = { dns_ms: 0, connect_ms: 0, tls_ms: 0, first_byte_ms: 0, total_ms: 0 };
      let tls: ProbeOutcome['tls'];
      const reader = replyReader();
      let socket: Socket | null = null;
      // The deadline ends whatever the conversation waits on: a reply, the connection or a handshake.
      const aborted = new Promise<never>((_, reject) =>
        deadline.onAbort((reason) => {
          reader.fail(reason);
          (socket as Socket | null)?.destroy();
          reject(reason);
        }),
      );
      aborted.catch(() => {});
      const orAbort = <T>(p: Promise<T>) => Promise.race([p, aborted]);
      const upgrade = (plain: Socket | null) =>
        new Promise<TLSSocket>((resolve, reject) => {
          const t0 = performance.now();
          const secure = tlsConnect({
            ...(plain
              ? { socket: plain }
              : {
                  host,
                  port: s.port,
                  ...(opts.blockPrivate ? { lookup: publicOnlyLookup } : {}),
                }),
            ...(servername ? { servername } : {}),
            secureContext,
          });
          socket = secure;
          secure.once('secureConnect', () => {
            timings.tls_ms = performance.now() - t0;
            if (s.ssl_cert_monitoring) {
              const cert = secure.getPeerCertificate();
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
            secure.removeListener('error', reject);
            resolve(secure);
          });
          secure.once('error', reject);
        });
      let detachPlain = () => {};
      try {
        if (opts.blockPrivate) assertPublicLiteral(host);
        if (s.smtp_security === 'tls') {
          const secure = await orAbort(upgrade(null));
          timings.connect_ms = performance.now() - started - timings.tls_ms;
          reader.attach(secure);
        } else {
          const plain = connect({
            host,
            port: s.port,
            ...(opts.blockPrivate ? { lookup: publicOnlyLookup } : {}),
          });
          socket = plain;
          await orAbort(
            new Promise<void>((resolve, reject) => {
              plain.once('connect', resolve);
              plain.once('error', reject);
            }),
          );
          timings.connect_ms = performance.now() - started;
          detachPlain = reader.attach(plain);
        }
        const banner = await reader.next();
        timings.first_byte_ms = performance.now() - started;
        expect('the banner', banner, 220);
        const ehlo = (sock: Socket) => {
          sock.write(`EHLO ${addressLiteral(sock.localAddress)}\r\n`);
          return reader.next();
        };
        const first = await ehlo(socket!);
        expect('EHLO', first, 250);
        if (s.smtp_security === 'starttls') {
          if (!first.lines.some((l) => /^STARTTLS\b/i.test(l)))
            throw new SmtpError('the server does not offer STARTTLS');
          socket!.write('STARTTLS\r\n');
          expect('STARTTLS', await reader.next(), 220);
          const plain = socket!;
          detachPlain();
          const secure = await orAbort(upgrade(plain));
          reader.attach(secure);
          expect('EHLO after STARTTLS', await ehlo(secure), 250);
        }
        socket!.write('QUIT\r\n');
        await reader.next().catch(() => undefined);
        timings.total_ms = performance.now() - started;
        const failed = numericAssertionFailure(s.assertions, { response_time: timings.total_ms });
        return {
          ok: failed === null,
          error: failed === null ? null : { kind: 'assertion_failed', message: failed },
          response_time_ms: timings.total_ms,
          timings,
          ...(tls ? { tls } : {}),
        };
      } catch (e) {
        const error =
          e instanceof SmtpError
            ? { kind: e.kind, message: e.message }
            : classifyError(deadline.aborted ? deadline.reason : e);
        return { ok: false, error, response_time_ms: performance.now() - started, ...(tls ? { tls } : {}) };
      } finally {
        deadline.onAbort(null);
        (socket as Socket | null)?.destroy();
      }
    },
  };
};

/** EHLO names the client by its connection's own address (RFC 5321 section 4.1.3). */
const addressLiteral = (address: string | undefined) => {
  const a = address?.startsWith('::ffff:') ? address.slice(7) : (address ?? '127.0.0.1');
  return isIP(a) === 6 ? `[IPv6:${a}]` : `[${a}]`;
};
