import { validateHeaderName, validateHeaderValue } from 'node:http';
import { type LookupFunction, connect as netConnect, type Socket } from 'node:net';
import { type PeerCertificate, type SecureContext, type TLSSocket, connect as tlsConnect } from 'node:tls';
import { HTTPParser } from 'http-parser-js';

/**
 * One HTTP/1.1 request and its response on a fresh connection of its own: the transport of http and
 * api checks. A socket from node:net or node:tls, the request head written once, the response read by
 * http-parser-js (the parser autocannon reads responses with), hardened below for a target that may be
 * hostile. It does what node:http's client did for a check (no agent, no keep-alive, no streams) for
 * 10–20 % less CPU a check (docs/benchmarks.md, "History": issue 27's twenty-first round; docs/decisions.md,
 * "The http check's own transport").
 */

/** How a response head may grow: its lines together (status, headers, interim responses, trailers). */
const MAX_HEAD = 32 * 1024;
/** A single line still waiting for its end (a header, a chunk size). */
const MAX_LINE = 16 * 1024;
/** Interim (1xx) responses before the final one. */
const MAX_INTERIM = 8;

export interface ExchangeRequest {
  host: string;
  port: number;
  isHttps: boolean;
  /** SNI and the certificate's name check (a name; undefined for an address). */
  servername: string | undefined;
  secureContext: SecureContext | undefined;
  lookup: LookupFunction | undefined;
  /** The host is a name: the exchange has a DNS phase to time. */
  named: boolean;
  /** The request head and body as they go on the wire (requestBytes). */
  bytes: Buffer;
  /** A HEAD request: its response has no body whatever its headers say. */
  head: boolean;
  /** Read the server's certificate (https). */
  wantCert: boolean;
  /** Keep this much of the body (the keyword's search, assertions); the rest is read and dropped. */
  keepBody: number;
  /** Keep the final response's headers (assertions on them). */
  keepHeaders: boolean;
  /**
   * Fail (code EBODYLIMIT) once the body passes this many bytes, kept or not (multi-step checks' cap of
   * a step); undefined: read it to its end.
   */
  bodyLimit?: number | undefined;
}

export interface ExchangeResponse {
  status: number;
  /** The first Location header, if any. */
  location: string | undefined;
  /** The body kept (at most `keepBody` bytes), as UTF-8. */
  body: string;
  /** The body went on past `keepBody` (what was kept is its start). */
  bodyTruncated: boolean;
  /** The body's length as read (kept or not). */
  bodyBytes: number;
  /** The final response's headers when asked for (`keepHeaders`): names in lower case, repeats joined by ", ". */
  headers: Record<string, string> | undefined;
  /** ms from the start: a phase not gone through stays 0. */
  dns: number;
  connect: number;
  tls: number;
  firstByte: number;
  total: number;
  /** The server's certificate, when asked for (read at the handshake, before the socket closes). */
  cert: PeerCertificate | undefined;
}

/** The connection closed before the response ended: node:http's error for it. */
const hangUp = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

/** The body passed `bodyLimit`: the exchange ends there (the rest is never read). */
export const bodyLimitError = (limit: number) =>
  Object.assign(new Error(`response larger than ${limit} bytes`), { code: 'EBODYLIMIT', limit });

/** `name` is the header `lower` (given in lower case), in any case. */
const isHeader = (name: string, lower: string) =>
  name.length === lower.length && name.toLowerCase() === lower;

/** A protocol error as node:http names them (classify-error.ts reads `code`). */
const protocolError = (code: string, message: string) =>
  Object.assign(new Error(`Parse Error: ${message}`), { code });

/** Methods node:http sends a body-less request of with `Content-Length: 0` (the others, none). */
const NO_BODY_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/**
 * The request head and body as one buffer: what node:http would send for the same request, with the
 * same validation of names and values (node:http's own, exported), so a header cannot inject a line.
 * `hostHeader` is used unless the headers carry their own Host.
 */
export const requestBytes = (
  method: string,
  path: string,
  hostHeader: string,
  headers: Record<string, string>,
  body: Buffer | null,
): Buffer => {
  validateHeaderName(method); // a token, as a method must be
  if (/[^\u0021-\u00ff]/.test(path)) {
    throw Object.assign(new TypeError('Request path contains unescaped characters'), {
      code: 'ERR_UNESCAPED_CHARACTERS',
    });
  }
  let lines = '';
  let host = false;
  let length = false;
  for (const name in headers) {
    const value = headers[name]!;
    validateHeaderName(name);
    validateHeaderValue(name, value);
    lines += `${name}: ${value}\r\n`;
    if (isHeader(name, 'host')) host = true;
    else if (isHeader(name, 'content-length')) length = true;
  }
  if (!length && !body && !NO_BODY_METHODS.has(method)) lines += 'content-length: 0\r\n';
  const head = `${method} ${path} HTTP/1.1\r\n${host ? '' : `Host: ${hostHeader}\r\n`}${lines}\r\n`;
  if (!body) return Buffer.from(head, 'latin1');
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
};

/** What this module uses of http-parser-js's parser, its own state included (http-parser.js). */
interface Parser {
  line: string;
  state: string;
  body_bytes: number | null;
  [HTTPParser.kOnHeadersComplete]: (info: { statusCode: number; headers: string[] }) => number;
  [HTTPParser.kOnBody]: (chunk: Buffer, offset: number, length: number) => void;
  [HTTPParser.kOnMessageComplete]: () => void;
  execute(chunk: Buffer): number | Error;
  finish(): undefined | Error;
  consumeLine(): string | undefined;
  parseHeader(line: string, headers: string[]): void;
}
const Base = HTTPParser as unknown as new (type: 'RESPONSE') => Parser;
const base = HTTPParser.prototype as unknown as Parser;

/**
 * http-parser-js, strict where a lenient parse could hang or bloat the agent: it reads a chunk size
 * with `parseInt`, so "-1" sends its body loop backwards forever; it lets a line and the trailers grow
 * without bound. Each override keeps the parser's behaviour for a well-formed response.
 */
class ResponseParser extends Base {
  /** Characters of header and trailer lines so far (all messages of this response). */
  headSize = 0;
  constructor() {
    super(HTTPParser.RESPONSE);
  }
  override consumeLine(): string | undefined {
    const line = base.consumeLine.call(this);
    if (line === undefined && this.line.length > MAX_LINE) {
      throw protocolError('HPE_HEADER_OVERFLOW', 'a line longer than 16 KiB');
    }
    return line;
  }
  override parseHeader(line: string, headers: string[]): void {
    this.headSize += line.length + 2;
    if (this.headSize > MAX_HEAD) throw protocolError('HPE_HEADER_OVERFLOW', 'headers over 32 KiB');
    base.parseHeader.call(this, line, headers);
  }
  /** Replaces the parser's own (a state the parser calls by name). */
  BODY_CHUNKHEAD(): void {
    const line = this.consumeLine();
    if (line === undefined) return;
    // chunk-size [ chunk-ext ] (RFC 9112, 7.1): hex digits only.
    const m = /^([0-9A-Fa-f]{1,15})[ \t]*(;.*)?$/.exec(line);
    if (!m) throw protocolError('HPE_INVALID_CHUNK_SIZE', 'invalid chunk size');
    this.body_bytes = Number.parseInt(m[1]!, 16);
    this.state = this.body_bytes === 0 ? 'BODY_CHUNKTRAILERS' : 'BODY_CHUNK';
  }
}

/** The Content-Length a response gives, checked: digits only, and every copy the same. */
const contentLengthOk = (headers: string[]): boolean => {
  let seen: string | undefined;
  for (let i = 0; i < headers.length; i += 2) {
    if (!isHeader(headers[i]!, 'content-length')) continue;
    const v = headers[i + 1]!;
    if (!/^\d{1,15}$/.test(v) || (seen !== undefined && seen !== v)) return false;
    seen = v;
  }
  return true;
};

const firstHeader = (headers: string[], lower: string): string | undefined => {
  for (let i = 0; i < headers.length; i += 2) {
    if (isHeader(headers[i]!, lower)) return headers[i + 1];
  }
  return undefined;
};

/** Headers as a record: names in lower case, a repeated header's values joined by ", " (RFC 9110, 5.3). */
const headerRecord = (headers: string[]): Record<string, string> => {
  const out: Record<string, string> = Object.create(null);
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i]!.toLowerCase();
    const prev = out[name];
    out[name] = prev === undefined ? headers[i + 1]! : `${prev}, ${headers[i + 1]!}`;
  }
  return out;
};

/**
 * Runs one exchange. `setAbort` receives the function that ends it (the check's deadline calls it):
 * the socket is destroyed and the promise rejects with that reason.
 */
export const exchange = (
  req: ExchangeRequest,
  setAbort: (end: ((err: unknown) => void) | null) => void,
): Promise<ExchangeResponse> =>
  new Promise<ExchangeResponse>((resolve, reject) => {
    const t0 = performance.now();
    const out: ExchangeResponse = {
      status: 0,
      location: undefined,
      body: '',
      bodyTruncated: false,
      bodyBytes: 0,
      headers: undefined,
      dns: 0,
      connect: 0,
      tls: 0,
      firstByte: 0,
      total: 0,
      cert: undefined,
    };
    const socket: Socket = req.isHttps
      ? tlsConnect({
          host: req.host,
          port: req.port,
          servername: req.servername,
          secureContext: req.secureContext,
          lookup: req.lookup,
        })
      : netConnect({ host: req.host, port: req.port, lookup: req.lookup });
    let settled = false;
    let final = false;
    let interim = 0;
    const chunks: Buffer[] = [];
    let kept = 0;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      setAbort(null);
      socket.destroy();
      reject(err);
    };
    setAbort(fail);

    const parser = new ResponseParser();
    parser[HTTPParser.kOnHeadersComplete] = (info) => {
      if (!contentLengthOk(info.headers)) {
        throw protocolError('HPE_UNEXPECTED_CONTENT_LENGTH', 'invalid Content-Length');
      }
      const status = info.statusCode;
      if (status >= 100 && status < 200 && status !== 101) {
        // An interim response (100 Continue, 103 Early Hints): the final one follows.
        if (++interim > MAX_INTERIM) throw protocolError('HPE_INVALID_STATUS', 'too many 1xx responses');
        return 1;
      }
      final = true;
      out.firstByte = performance.now() - t0;
      out.status = status;
      out.location = firstHeader(info.headers, 'location');
      if (req.keepHeaders) out.headers = headerRecord(info.headers);
      // No body after HEAD, nor in a 1xx, 204 or 304, whatever the headers say (RFC 9110, 6.4.1).
      return req.head || status === 101 || status === 204 || status === 304 ? 1 : 0;
    };
    parser[HTTPParser.kOnBody] = (chunk, offset, length) => {
      out.bodyBytes += length;
      if (req.bodyLimit !== undefined && out.bodyBytes > req.bodyLimit) throw bodyLimitError(req.bodyLimit);
      if (kept >= req.keepBody) {
        if (req.keepBody > 0 && length > 0) out.bodyTruncated = true;
        return;
      }
      chunks.push(chunk.subarray(offset, offset + length));
      kept += length;
    };
    parser[HTTPParser.kOnMessageComplete] = () => {
      if (!final || settled) return;
      settled = true;
      setAbort(null);
      out.total = performance.now() - t0;
      if (kept > req.keepBody) out.bodyTruncated = true;
      // One chunk (most bodies an assertion reads): decoded where it is, without a copy.
      if (chunks.length === 1) out.body = chunks[0]!.toString('utf8', 0, Math.min(kept, req.keepBody));
      else if (chunks.length > 1) out.body = Buffer.concat(chunks).subarray(0, req.keepBody).toString('utf8');
      resolve(out);
      socket.destroy();
    };

    // `on`, not `once`: one socket, one response; `once` costs a wrapper per listener.
    if (req.named) socket.on('lookup', () => (out.dns = performance.now() - t0));
    socket.on('connect', () => (out.connect = performance.now() - t0));
    if (req.isHttps) {
      socket.on('secureConnect', () => {
        out.tls = performance.now() - t0;
        if (req.wantCert) out.cert = (socket as TLSSocket).getPeerCertificate();
      });
    }
    socket.on('data', (data: Buffer) => {
      if (settled) return;
      // What the parser finds wrong it returns; what a callback above throws comes out as a throw.
      try {
        const r = parser.execute(data);
        if (r instanceof Error) fail(r);
      } catch (err) {
        fail(err);
      }
    });
    socket.on('end', () => {
      if (settled) return;
      // A body that ends with the connection (no length, not chunked) is complete now; any other
      // response the server closed on before its end was cut short.
      try {
        parser.finish();
      } catch (err) {
        fail(err);
      }
      if (!settled) fail(hangUp());
    });
    socket.on('error', fail);
    // Every socket closes, a finished one too: the error is made only for one that did not finish.
    socket.on('close', () => {
      if (!settled) fail(hangUp());
    });
    socket.write(req.bytes);
  });
