import { z } from 'zod';
import { defaultClassify } from '../http-client.js';
import { defineNotifier, JSON_HEADERS, json, originLabel, sendCalls } from '../notifier.js';
import { DELIVERY_HEADER, SIGNATURE_HEADER, signatureHeader } from '../webhook.js';
import { httpUrl } from './fields.js';

const headerName = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'must be a valid header name')
  .refine(
    (h) =>
      !['content-type', 'content-length', 'host', SIGNATURE_HEADER, DELIVERY_HEADER].includes(
        h.toLowerCase(),
      ),
    'is set by Lookout',
  );

/**
 * A signed JSON POST (notify/webhook.ts: `X-Lookout-Signature`, the Stripe scheme). The body is the
 * message's payload: `alert.notification` (a step), `alert.acknowledged`, `alert.resolved` (with the
 * same `alert.id` and `alert.duration_seconds`) or `test`; `X-Lookout-Delivery` tells them apart for
 * a receiver that drops repeats.
 */
export default defineNotifier({
  type: 'webhook',
  label: 'Webhook',
  docs: ['docs/architecture.md#notifications'],
  config: z.strictObject({
    url: httpUrl.describe(
      'Where the JSON is POSTed. Write-only: shown as its origin and last four characters.',
    ),
    headers: z
      .record(headerName, z.string().max(1024))
      .refine((h) => Object.keys(h).length <= 20, 'must have at most 20 headers')
      .default({})
      .describe(
        'Extra request headers. Their values are write-only: each shown as its last four characters; sent back so, it is kept.',
      ),
  }),
  // The URL may carry a token (`?token=`, a secret path) and headers credentials: write-only, like
  // every other kind's secrets.
  secrets: ['url', 'headers.*'],
  follows: ['acknowledged', 'resolved'],
  grouping: 'summary',
  describe: (c) => originLabel(c.url),
  render: (c, m) => ({ url: c.url, headers: c.headers, body: json(m.payload) }),
  async send(_c, r, ctx) {
    const headers: Record<string, string> = {
      ...r.headers,
      ...JSON_HEADERS,
      'user-agent': 'Lookout-Webhook/1',
    };
    if (ctx.signing_secret)
      headers[SIGNATURE_HEADER] = signatureHeader(
        ctx.signing_secret,
        Math.floor(ctx.now.getTime() / 1000),
        r.body,
      );
    if (ctx.delivery_id) headers[DELIVERY_HEADER] = ctx.delivery_id;
    return sendCalls([{ method: 'POST', url: r.url, headers, body: r.body }], ctx);
  },
  classify: defaultClassify,
});
