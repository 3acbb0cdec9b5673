import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { assertPublicLiteral, publicOnlyLookup } from '@lookout/shared';
import { METADATA_MAX_BYTES } from '../../domain/access/saml-metadata.js';

export interface MetadataFetchOptions {
  /** Allow private and loopback addresses, and plain http (tests and labs only; config `notify_allow_private`). */
  allowPrivate: boolean;
  timeoutMs?: number;
}

/**
 * GETs an IdP's metadata from an admin-given URL: https only, never a private, loopback or link-local
 * address (checked on the literal and on the address DNS gives: the same guard as notifications,
 * `publicOnlyLookup`), no redirects, at most METADATA_MAX_BYTES, within `timeoutMs` in all.
 */
export const fetchMetadataXml = (url: string, opts: MetadataFetchOptions) =>
  new Promise<string>((resolve, reject) => {
    const u = new URL(url);
    if (u.protocol !== 'https:' && !(opts.allowPrivate && u.protocol === 'http:'))
      return reject(new Error('the URL must be https'));
    if (!opts.allowPrivate) assertPublicLiteral(u.hostname);
    const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(u, {
      method: 'GET',
      headers: {
        accept: 'application/samlmetadata+xml, application/xml, text/xml',
        'user-agent': 'Lookout-SAML/1',
      },
      agent: false,
      signal: AbortSignal.timeout(opts.timeoutMs ?? 5_000),
      ...(opts.allowPrivate ? {} : { lookup: publicOnlyLookup }),
    });
    req.once('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`the server answered ${res.statusCode}`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > METADATA_MAX_BYTES) {
          req.destroy();
          reject(new Error(`larger than ${METADATA_MAX_BYTES / 1024} KiB`));
          return;
        }
        chunks.push(c);
      });
      res.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.once('error', reject);
    });
    req.once('error', (e: Error & { code?: string }) =>
      reject(new Error(e.code === 'EBLOCKED' ? 'its address is not allowed' : e.message)),
    );
    req.end();
  });
