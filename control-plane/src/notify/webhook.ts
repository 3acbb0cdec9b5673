import { createHmac, timingSafeEqual } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { assertPublicLiteral, publicOnlyLookup } from '@lookout/shared';
import { type AttemptResult, httpResult, networkResult } from './attempt.js';

/**
 * Outgoing webhooks. The body is JSON; `X-Lookout-Signature: t=<unix seconds>,v1=<hex>` where v1 is
 * HMAC-SHA256 over "<t>.<body>" with the channel's secret (the Stripe scheme: the timestamp is signed
 * too, so a captured request cannot be replayed later). `X-Lookout-Delivery` carries the
 * idempotency key, the same on every retry of one notification.
 */

export const SIGNATURE_HEADER = 'x-lookout-signature';
export const DELIVERY_HEADER = 'x-lookout-delivery';

export const signPayload = (secret: string, unixSeconds: number, body: string): string =>
  createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');

export const signatureHeader = (secret: string, unixSeconds: number, body: string) =>
  `t=${unixSeconds},v1=${signPayload(secret, unixSeconds, body)}`;

/**
 * What a receiver does: parse the header, recompute, compare in constant time, and refuse a timestamp
 * more than `toleranceSeconds` away from its own clock.
 */
export const verifySignature = (
  secret: string,
  header: string | undefined,
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean => {
  if (!header) return false;
  const parts = new Map(
    header.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as const;
    }),
  );
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signPayload(secret, t, body), 'hex');
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
};

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  /** Null: unsigned (Slack). */
  secret: string | null;
  payload: unknown;
  deliveryId: string | null;
  timeoutMs: number;
  /** Unix seconds for the signature. */
  nowSeconds: number;
  /** Refuse destinations that are or resolve to private or loopback addresses (SSRF guard). */
  blockPrivate?: boolean;
}

/** One HTTP(S) POST on node's own client, so the SSRF guard sees the address actually connected to. */
const post = (url: URL, headers: Record<string, string>, body: string, timeoutMs: number, guard: boolean) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    if (guard) assertPublicLiteral(url.hostname);
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      agent: false,
      signal: AbortSignal.timeout(timeoutMs),
      ...(guard ? { lookup: publicOnlyLookup } : {}),
    });
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < 4096) chunks.push(c);
        size += c.length;
      });
      res.once('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end(body);
  });

/** One POST. Redirects are not followed (a 3xx is a permanent failure: fix the URL). */
export const postJson = async (req: WebhookRequest): Promise<AttemptResult> => {
  const body = JSON.stringify(req.payload);
  const headers: Record<string, string> = {
    ...req.headers,
    'content-type': 'application/json',
    'user-agent': 'Lookout-Webhook/1',
  };
  if (req.secret) headers[SIGNATURE_HEADER] = signatureHeader(req.secret, req.nowSeconds, body);
  if (req.deliveryId) headers[DELIVERY_HEADER] = req.deliveryId;
  try {
    const res = await post(new URL(req.url), headers, body, req.timeoutMs, req.blockPrivate ?? false);
    return res.status >= 200 && res.status < 300 ? httpResult(res.status) : httpResult(res.status, res.text);
  } catch (e) {
    if ((e as { code?: string }).code === 'EBLOCKED') {
      return { ok: false, permanent: true, status_code: null, error: (e as Error).message };
    }
    return networkResult(e);
  }
};
