import { createSecureContext, type SecureContext } from 'node:tls';
import { assertPublicLiteral, publicOnlyLookup } from '@lookout/shared';
import WebSocket from 'ws';
import type { Deadline, ProbeOutcome, ProbeSpec } from '../probe-port.js';
import { classifyError } from './classify-error.js';

/** The most of a first message the agent reads (as the http prober's body); a longer one fails the check. */
export const MAX_MESSAGE = 1 << 20;
/** How long the closing handshake may take once the check is done before the socket is cut. */
const CLOSE_TIMEOUT_MS = 1000;
const USER_AGENT = 'Lookout/1 (+monitoring)';

export interface WebSocketProberOptions {
  /** Extra trusted CAs (tests); the system store otherwise. */
  ca?: string | Buffer | (string | Buffer)[];
  /** Refuse targets that are or resolve to private or loopback addresses (SSRF guard, hosted use). */
  blockPrivate?: boolean;
}

/** What a websocket check read: the handshake's status and the first message (null: none awaited). */
export interface WebSocketReading {
  status_code: number;
  first_message: string | null;
}

/** Close codes by number (RFC 6455 section 7.4.1 and IANA's registry), for failure messages. */
const CLOSE_NAMES: Record<number, string> = {
  1000: 'normal closure',
  1001: 'going away',
  1002: 'protocol error',
  1003: 'unsupported data',
  1005: 'no status',
  1006: 'abnormal closure',
  1007: 'invalid payload',
  1008: 'policy violation',
  1009: 'message too big',
  1010: 'mandatory extension',
  1011: 'internal error',
  1012: 'service restart',
  1013: 'try again later',
  1014: 'bad gateway',
  1015: 'TLS handshake failure',
};

/** "1008 (policy violation): reason", the reason (the server's words) cut to 120 characters, control characters as spaces. */
export const closeCodeText = (code: number, reason: string): string => {
  const name = CLOSE_NAMES[code];
  const said = reason ? `: ${reason.slice(0, 120).replace(/\p{Cc}/gu, ' ')}` : '';
  return `${code}${name ? ` (${name})` : ''}${said}`;
};

/** Whether the check waits for a first message: it sends one, or its assertions read one. */
const awaitsMessage = (spec: ProbeSpec<'websocket'>): boolean =>
  spec.settings.ws_message !== null ||
  spec.settings.assertions.some((a) => a.source === 'text_body' || a.source === 'json_body');

/**
 * websocket checks (the `ws` client): open the connection (ws:// or wss://, a fresh connection, no
 * redirects, no compression), send `ws_message` when set, and when the check sends one or asserts on
 * one, wait for the first message. The server closing the connection before that fails the check
 * naming its close code; the agent then closes with 1000 (normal closure).
 */
export const createWebSocketProber = (opts: WebSocketProberOptions = {}) => {
  const secureContext: SecureContext = createSecureContext(opts.ca ? { ca: opts.ca } : {});

  const failed = (kind: string, message: string, started: number, status?: number): ProbeOutcome => {
    const outcome: ProbeOutcome = {
      ok: false,
      error: { kind, message },
      response_time_ms: performance.now() - started,
    };
    if (status !== undefined) outcome.status_code = status;
    return outcome;
  };

  return {
    /** The check and what it read (`reading` is null when the connection did not open). */
    probe(
      spec: ProbeSpec<'websocket'>,
      deadline: Deadline,
    ): Promise<{ outcome: ProbeOutcome; reading: WebSocketReading | null }> {
      const started = performance.now();
      let url: URL;
      try {
        url = new URL(spec.url);
        if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new Error('not ws: or wss:');
        if (url.hash) throw new Error('a fragment');
        if (opts.blockPrivate) assertPublicLiteral(url.hostname);
      } catch (e) {
        const blocked = (e as { code?: string }).code === 'EBLOCKED';
        return Promise.resolve({
          outcome: blocked
            ? failed('blocked_target', (e as Error).message, started)
            : {
                ok: false,
                error: { kind: 'bad_url', message: `not a ws:// or wss:// URL: ${spec.url}` },
                response_time_ms: 0,
              },
          reading: null,
        });
      }
      if (deadline.aborted) {
        return Promise.resolve({ outcome: { ...failed('timeout', 'timed out', started) }, reading: null });
      }
      const waits = awaitsMessage(spec);
      return new Promise((resolve) => {
        // ws 8.23 reads `closeTimeout`; @types/ws does not name it yet.
        const options: WebSocket.ClientOptions & { closeTimeout: number } = {
          perMessageDeflate: false,
          followRedirects: false,
          maxPayload: MAX_MESSAGE,
          closeTimeout: CLOSE_TIMEOUT_MS,
          headers: { 'user-agent': USER_AGENT },
          ...(url.protocol === 'wss:' ? { secureContext } : {}),
          ...(opts.blockPrivate ? { lookup: publicOnlyLookup } : {}),
        };
        const ws = new WebSocket(url, options);
        let opened = false;
        let settled = false;
        const done = (outcome: ProbeOutcome, reading: WebSocketReading | null) => {
          if (settled) return;
          settled = true;
          deadline.onAbort(null);
          if (ws.readyState === WebSocket.OPEN) ws.close(1000);
          else ws.terminate();
          resolve({ outcome, reading });
        };
        const succeed = (first: string | null) =>
          done(
            { ok: true, error: null, response_time_ms: performance.now() - started, status_code: 101 },
            {
              status_code: 101,
              first_message: first,
            },
          );
        deadline.onAbort(() => {
          const what = !opened ? 'timed out' : `timed out waiting for a first message`;
          done(failed('timeout', what, started, opened ? 101 : undefined), null);
        });
        ws.once('unexpected-response', (_req, res) => {
          const status = res.statusCode ?? 0;
          const where =
            status >= 300 && status < 400 && res.headers.location ? ` to ${res.headers.location}` : '';
          done(
            failed(
              'ws_handshake',
              `the server answered the upgrade with HTTP ${status}${where}`,
              started,
              status,
            ),
            null,
          );
        });
        ws.once('open', () => {
          opened = true;
          if (spec.settings.ws_message !== null) ws.send(spec.settings.ws_message);
          if (!waits) succeed(null);
        });
        ws.once('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
          const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
          succeed(bytes.toString('utf8'));
        });
        ws.once('close', (code: number, reason: Buffer) => {
          const before = waits ? 'before a first message' : 'at once';
          const message = `the server closed the connection ${before} with ${closeCodeText(code, reason.toString('utf8'))}`;
          done(failed('ws_closed', message, started, 101), null);
        });
        ws.on('error', (e: Error & { code?: string }) => {
          if (e.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
            return done(
              failed('ws_message_too_big', `a first message over ${MAX_MESSAGE} bytes`, started, 101),
              null,
            );
          }
          const { kind, message } = classifyError(e);
          done(failed(kind, message, started, opened ? 101 : undefined), null);
        });
      });
    },
    async run(spec: ProbeSpec<'websocket'>, deadline: Deadline): Promise<ProbeOutcome> {
      return (await this.probe(spec, deadline)).outcome;
    },
  };
};
