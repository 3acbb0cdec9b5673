import { type ClientHttp2Session, type ClientHttp2Stream, connect as h2Connect } from 'node:http2';
import { isIP, type LookupFunction, connect as netConnect, type Socket } from 'node:net';
import { createSecureContext, type SecureContext, type TLSSocket, connect as tlsConnect } from 'node:tls';
import { assertPublicLiteral, publicOnlyLookup } from '@lookout/shared';
import type { Deadline, ProbeOutcome, ProbeSpec } from '../probe-port.js';
import { classifyError } from './classify-error.js';
import {
  GRPC_CODES,
  HEALTH_CHECK_PATH,
  healthCheckRequest,
  nameOf,
  SERVING_STATUS,
  servingStatusOf,
} from './grpc-health.js';

/** A health response is a few bytes; anything past this is not one. */
const MAX_RESPONSE = 16 * 1024;
const SERVING = 1;
const USER_AGENT = 'Lookout/1 (+monitoring)';

export interface GrpcProberOptions {
  /** Extra trusted CAs (tests); the system store otherwise. */
  ca?: string | Buffer | (string | Buffer)[];
  /** Refuse targets that are or resolve to private or loopback addresses (SSRF guard, hosted use). */
  blockPrivate?: boolean;
}

/** What a grpc check read, for its assertions: the gRPC status code and the serving status's name. */
export interface GrpcReading {
  grpc_status: number;
  serving_status: string;
}

/** `host:port` or `[v6]:port` → its parts; null when the target is not that. */
export const grpcTarget = (target: string): { host: string; port: number } | null => {
  const m = /^(?:\[([0-9a-fA-F:.]+(?:%[\w.-]+)?)\]|([^\s:/[\]@?#]+)):(\d{1,5})$/.exec(target);
  const port = Number(m?.[3]);
  if (!m || port < 1 || port > 65535) return null;
  return { host: (m[1] ?? m[2])!, port };
};

interface Exchange {
  httpStatus: number;
  contentType: string;
  grpcStatus: number | null;
  grpcMessage: string;
  body: Buffer;
  connectMs: number;
  tlsMs: number;
  firstByteMs: number;
}

/**
 * grpc-message is percent-encoded (gRPC over HTTP/2, "Responses"); a bad escape leaves it as sent. It
 * reaches alerts and their messages: control characters become spaces, and it is cut at 200 characters.
 */
const decodeMessage = (raw: unknown): string => {
  const text = typeof raw === 'string' ? raw : '';
  let decoded = text;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    // kept as sent
  }
  return decoded.slice(0, 200).replace(/\p{Cc}/gu, ' ');
};

/**
 * grpc checks: one `grpc.health.v1.Health/Check` call over HTTP/2 on a fresh connection (TLS with the
 * system's trust when `grpc_tls`), spoken with node:http2 directly: a unary call is one HEADERS and
 * one DATA frame each way, and a full gRPC client would keep channels, resolvers and retries per
 * target that a check must not reuse. SERVING passes; any other serving status, a gRPC error status
 * or a reply that is not gRPC fails, naming what came back.
 */
export const createGrpcProber = (opts: GrpcProberOptions = {}) => {
  const secureContext: SecureContext = createSecureContext(opts.ca ? { ca: opts.ca } : {});
  const lookup: LookupFunction | undefined = opts.blockPrivate ? publicOnlyLookup : undefined;

  /** One call: resolves with what came back, rejects with a connection or protocol error. */
  const call = (
    host: string,
    port: number,
    spec: ProbeSpec<'grpc'>,
    started: number,
    stopWith: (end: ((err: unknown) => void) | null) => void,
  ): Promise<Exchange> =>
    new Promise((resolve, reject) => {
      const tls = spec.settings.grpc_tls;
      const named = isIP(host) === 0;
      const ex: Exchange = {
        httpStatus: 0,
        contentType: '',
        grpcStatus: null,
        grpcMessage: '',
        body: Buffer.alloc(0),
        connectMs: 0,
        tlsMs: 0,
        firstByteMs: 0,
      };
      let socket: Socket;
      let session: ClientHttp2Session | null = null;
      let stream: ClientHttp2Stream | null = null;
      let settled = false;
      const finish = (err: unknown) => {
        if (settled) return;
        settled = true;
        stopWith(null);
        stream?.destroy();
        session?.destroy();
        socket.destroy();
        if (err) reject(err);
        else resolve(ex);
      };
      stopWith(finish);
      if (tls) {
        socket = tlsConnect({
          host,
          port,
          secureContext,
          ALPNProtocols: ['h2'],
          ...(named ? { servername: host } : {}),
          ...(lookup ? { lookup } : {}),
        });
        socket.once('secureConnect', () => {
          ex.tlsMs = performance.now() - started;
          const alpn = (socket as TLSSocket).alpnProtocol;
          if (alpn !== 'h2') {
            const offered = alpn ? `"${alpn}"` : 'no protocol';
            const why = `the server does not speak HTTP/2 over TLS (ALPN: ${offered}, not "h2")`;
            finish(Object.assign(new Error(why), { code: 'ENOH2' }));
          }
        });
      } else socket = netConnect({ host, port, ...(lookup ? { lookup } : {}) });
      socket.once('connect', () => {
        ex.connectMs = performance.now() - started;
      });
      socket.once('error', finish);
      const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
      session = h2Connect(`${tls ? 'https' : 'http'}://${authority}`, {
        createConnection: () => socket,
        // A check accepts no server push, and holds little: a hostile server cannot make it buffer.
        settings: { enablePush: false },
        maxSessionMemory: 1,
      });
      session.once('error', finish);
      // A server that ends the connection before answering.
      session.once('close', () => {
        if (!settled) finish(new Error('the server closed the connection before answering'));
      });
      stream = session.request({
        ':method': 'POST',
        ':path': HEALTH_CHECK_PATH,
        'content-type': 'application/grpc',
        te: 'trailers',
        'user-agent': USER_AGENT,
        'grpc-timeout': `${Math.max(1, Math.ceil(spec.timeout_ms))}m`,
      });
      stream.once('error', finish);
      stream.once('response', (headers) => {
        ex.firstByteMs = performance.now() - started;
        ex.httpStatus = Number(headers[':status'] ?? 0);
        ex.contentType = String(headers['content-type'] ?? '');
        // A "trailers-only" answer carries its status in the headers.
        if (headers['grpc-status'] !== undefined) {
          ex.grpcStatus = Number(headers['grpc-status']);
          ex.grpcMessage = decodeMessage(headers['grpc-message']);
        }
      });
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE) return finish(new Error(`a health response over ${MAX_RESPONSE} bytes`));
        chunks.push(chunk);
      });
      stream.once('trailers', (trailers) => {
        if (trailers['grpc-status'] !== undefined) {
          ex.grpcStatus = Number(trailers['grpc-status']);
          ex.grpcMessage = decodeMessage(trailers['grpc-message']);
        }
      });
      stream.once('end', () => {
        ex.body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        finish(null);
      });
      stream.end(healthCheckRequest(spec.settings.grpc_service));
    });

  /** A connection's failure, in words that point at the setting to change where one would. */
  const failureOf = (e: unknown, tls: boolean) => {
    const raw = (e as { code?: unknown })?.code;
    const code = typeof raw === 'string' ? raw : '';
    const { kind, message } = classifyError(e);
    if (tls && code === 'ERR_SSL_WRONG_VERSION_NUMBER')
      return { kind: 'tls_failed', message: `the server does not speak TLS (grpc_tls is on): ${message}` };
    if (code === 'ENOH2') return { kind: 'grpc_error', message: (e as Error).message };
    if (code === 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL')
      return { kind: 'grpc_error', message: `the server does not speak HTTP/2 over TLS: ${message}` };
    if (code.startsWith('ERR_HTTP2_'))
      return { kind: 'grpc_error', message: `the server does not speak HTTP/2 gRPC: ${message}` };
    return { kind, message };
  };

  const failed = (kind: string, message: string, started: number): ProbeOutcome => ({
    ok: false,
    error: { kind, message },
    response_time_ms: performance.now() - started,
  });

  return {
    /** The check and what it read (`reading` is null when no answer came back). */
    async probe(
      spec: ProbeSpec<'grpc'>,
      deadline: Deadline,
    ): Promise<{ outcome: ProbeOutcome; reading: GrpcReading | null }> {
      const started = performance.now();
      const target = grpcTarget(spec.url);
      if (!target) {
        return {
          outcome: {
            ok: false,
            error: { kind: 'bad_url', message: `not host:port: ${spec.url}` },
            response_time_ms: 0,
          },
          reading: null,
        };
      }
      let end: ((err: unknown) => void) | null = null;
      deadline.onAbort((reason) => end?.(reason));
      let ex: Exchange;
      try {
        if (opts.blockPrivate) assertPublicLiteral(target.host);
        if (deadline.aborted) throw deadline.reason;
        ex = await call(target.host, target.port, spec, started, (fn) => (end = fn));
      } catch (e) {
        const { kind, message } = failureOf(e, spec.settings.grpc_tls);
        return { outcome: failed(kind, message, started), reading: null };
      } finally {
        deadline.onAbort(null);
      }
      const total = performance.now() - started;
      const timings = {
        dns_ms: 0,
        connect_ms: ex.connectMs,
        tls_ms: ex.tlsMs,
        first_byte_ms: ex.firstByteMs,
        total_ms: total,
      };
      const answer = (outcome: ProbeOutcome, reading: GrpcReading | null) => {
        outcome.timings = timings;
        return { outcome, reading };
      };
      if (ex.httpStatus === 0) {
        const hint = spec.settings.grpc_tls ? '' : ' (does it want TLS? grpc_tls is off)';
        return answer(
          failed('grpc_error', `the server closed the call without answering${hint}`, started),
          null,
        );
      }
      if (ex.httpStatus !== 200) {
        return answer(failed('grpc_error', `HTTP status ${ex.httpStatus}, not a gRPC answer`, started), null);
      }
      if (!ex.contentType.startsWith('application/grpc')) {
        const type = ex.contentType || 'none';
        return answer(failed('grpc_error', `content-type ${type}, not a gRPC answer`, started), null);
      }
      if (ex.grpcStatus === null)
        return answer(failed('grpc_error', 'no grpc-status in the answer', started), null);
      if (ex.grpcStatus !== 0) {
        const detail = ex.grpcMessage ? `: ${ex.grpcMessage}` : '';
        const name = nameOf(GRPC_CODES, ex.grpcStatus);
        return answer(
          failed('grpc_error', `the health check answered ${name} (${ex.grpcStatus})${detail}`, started),
          { grpc_status: ex.grpcStatus, serving_status: '' },
        );
      }
      let status: number;
      try {
        status = servingStatusOf(ex.body);
      } catch (e) {
        return answer(failed('grpc_error', (e as Error).message, started), null);
      }
      const reading = { grpc_status: 0, serving_status: nameOf(SERVING_STATUS, status) };
      if (status !== SERVING) {
        const who = spec.settings.grpc_service ? `service "${spec.settings.grpc_service}"` : 'the server';
        return answer(
          failed('grpc_not_serving', `${who} is ${reading.serving_status}, expected SERVING`, started),
          reading,
        );
      }
      return answer({ ok: true, error: null, response_time_ms: total }, reading);
    },
    async run(spec: ProbeSpec<'grpc'>, deadline: Deadline): Promise<ProbeOutcome> {
      return (await this.probe(spec, deadline)).outcome;
    },
  };
};
