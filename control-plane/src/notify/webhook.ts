import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Outgoing webhooks' signature (the kind itself: kinds/webhook.ts). The body is JSON; `X-Lookout-Signature: t=<unix seconds>,v1=<hex>` where v1 is
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
