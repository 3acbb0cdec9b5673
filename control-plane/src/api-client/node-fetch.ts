import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { ApiUnreachableError } from './client.js';

/**
 * The typed client's transport in Node (the stdio MCP server, the CLI): node:http(s), because
 * `<workspace>.localhost` is loopback (RFC 6761) but most resolvers do not know it. This connects to
 * 127.0.0.1 and keeps the name in the Host header, which picks the workspace. Bounded: an answer
 * over 16 MiB or slower than `timeoutMs` is an ApiUnreachableError, as is one that is not JSON.
 */

const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

const lookup = ((hostname, options, callback) => {
  if (hostname.endsWith('.localhost')) {
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else (callback as (e: null, a: string, f: number) => void)(null, '127.0.0.1', 4);
    return;
  }
  dnsLookup(hostname, options, callback);
}) as LookupFunction;

const readBody = (res: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_RESPONSE_BYTES) res.destroy(new Error('response too large'));
      else chunks.push(c);
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });

/** A successful answer must be JSON (or empty); error answers pass as they are, for their words. */
const notJson = (status: number, type: string | undefined, body: Buffer) =>
  status < 400 && body.length > 0 && !/[/+]json\b/.test(type ?? '');

export const nodeFetch =
  (opts: { timeoutMs?: number } = {}) =>
  async (request: Request): Promise<Response> => {
    const timeoutMs = opts.timeoutMs ?? 30_000;
    const url = new URL(request.url);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => {
      headers[k] = v;
    });
    if (payload) headers['content-length'] = String(payload.length);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(url, { method: request.method, headers, lookup, timeout: timeoutMs }, (res) => {
        readBody(res).then((body) => {
          const status = res.statusCode ?? 0;
          if (notJson(status, res.headers['content-type'], body)) {
            reject(
              new ApiUnreachableError(`${url.origin} answered ${status} with something that is not JSON`),
            );
            return;
          }
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : v);
          resolve(new Response(status === 204 || status === 304 ? null : body, { status, headers: out }));
        }, reject);
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
      req.on('error', (e: NodeJS.ErrnoException) =>
        reject(new ApiUnreachableError(`cannot reach ${url.origin}: ${e.code ?? e.message}`)),
      );
      req.end(payload);
    });
  };
