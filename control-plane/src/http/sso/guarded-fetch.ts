import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { assertPublicLiteral, publicOnlyLookup } from '@lookout/shared';
import type { CustomFetch } from 'openid-client';

/** The most of an IdP's answer read (discovery, keys, tokens, userinfo are all far smaller). */
const MAX_BYTES = 1_000_000;

/**
 * openid-client's requests to an IdP (discovery, JWKS, token, userinfo) through node's own client
 * with the notifications' SSRF guard: the issuer is typed by a workspace admin, so unless the
 * operator allows private destinations (`notify_allow_private`) an address that is or resolves to a
 * private, loopback or link-local one is refused when connected to. Redirects are not followed
 * (openid-client asks for `manual`); at most MAX_BYTES of a body are read.
 */
export const guardedFetch =
  (blockPrivate: boolean): CustomFetch =>
  (url, options) =>
    new Promise<Response>((resolve, reject) => {
      const u = new URL(url);
      if (blockPrivate) assertPublicLiteral(u.hostname);
      const body =
        options.body === undefined || options.body === null
          ? undefined
          : options.body instanceof URLSearchParams
            ? options.body.toString()
            : typeof options.body === 'string' || options.body instanceof Uint8Array
              ? options.body
              : options.body instanceof ArrayBuffer
                ? new Uint8Array(options.body)
                : undefined;
      const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(u, {
        method: options.method,
        headers: options.headers,
        agent: false,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(blockPrivate ? { lookup: publicOnlyLookup } : {}),
      });
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BYTES) {
            res.destroy(new Error(`the identity provider answered more than ${MAX_BYTES} bytes`));
            return;
          }
          chunks.push(c);
        });
        res.once('error', reject);
        res.once('end', () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            for (const one of ([] as (string | undefined)[]).concat(v))
              if (one !== undefined) headers.append(k, one);
          const status = res.statusCode ?? 0;
          const nullBody = status === 204 || status === 304;
          resolve(new Response(nullBody ? null : Buffer.concat(chunks), { status, headers }));
        });
      });
      req.once('error', reject);
      req.end(body);
    });
