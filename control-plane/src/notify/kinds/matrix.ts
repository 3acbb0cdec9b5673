import { createHash } from 'node:crypto';
import { z } from 'zod';
import { defaultClassify } from '../http-client.js';
import {
  defineNotifier,
  headline,
  JSON_HEADERS,
  json,
  jsonOf,
  sendCalls,
  truncateBytes,
  urlLabel,
} from '../notifier.js';
import { httpUrl, join, token } from './fields.js';

/**
 * Matrix client-server API: `PUT /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId}` with
 * `Authorization: Bearer <access_token>`; the answer is `{"event_id"}`. The transaction id is made
 * from the delivery id, so a retry of one notification is the same transaction and the homeserver
 * keeps it once. A 429 (`M_LIMIT_EXCEEDED`) carries `retry_after_ms`, which is honoured.
 * https://spec.matrix.org/v1.11/client-server-api/#put_matrixclientv3roomsroomidsendeventtypetxnid
 * — m.text/m.notice with HTML: https://spec.matrix.org/v1.11/client-server-api/#mroommessage-msgtypes
 * — an event is at most 65,536 bytes (https://spec.matrix.org/v1.11/client-server-api/#size-limits):
 * each body is cut at 24 KB. Raised alerts are m.text; the rest m.notice (bots' notices).
 * Resolved: a short notice in reply to the raised message (`m.relates_to.m.in_reply_to`, its
 * event id: https://spec.matrix.org/v1.11/client-server-api/#rich-replies) when that id is known.
 */
const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export default defineNotifier({
  type: 'matrix',
  label: 'Matrix',
  docs: ['https://spec.matrix.org/v1.11/client-server-api/#put_matrixclientv3roomsroomidsendeventtypetxnid'],
  config: z.strictObject({
    homeserver_url: httpUrl.describe('The homeserver (https://matrix.example.org).'),
    access_token: token('The access token of the account that posts.'),
    room_id: z
      .string()
      .regex(/^!.+:.+$/, 'must be a room id such as !abc:example.org')
      .max(255)
      .describe('The room id (!abc:example.org).'),
  }),
  secrets: ['access_token'],
  follows: ['resolved'],
  grouping: 'summary',
  describe: (c) => `${urlLabel(c.homeserver_url)} ${c.room_id}`,
  render(c, m) {
    const ack = m.links?.acknowledge;
    const body = truncateBytes(`${headline(m)}\n${m.text}`, 24_000) + (ack ? `\nAcknowledge: ${ack}` : '');
    const html =
      truncateBytes(
        `<strong>${escapeHtml(headline(m))}</strong><br>${escapeHtml(m.text).replace(/\n/g, '<br>')}`,
        24_000,
      ) + (ack ? `<br><a href="${escapeHtml(ack)}">Acknowledge</a>` : '');
    return {
      homeserver_url: c.homeserver_url,
      room_id: c.room_id,
      body: json({
        msgtype: m.event === 'raised' ? 'm.text' : 'm.notice',
        body,
        format: 'org.matrix.custom.html',
        formatted_body: html,
        ...(m.reply_to ? { 'm.relates_to': { 'm.in_reply_to': { event_id: m.reply_to } } } : {}),
      }),
      headers: { ...JSON_HEADERS, authorization: `Bearer ${c.access_token}` },
    };
  },
  send(_c, r, ctx) {
    const txn = `lookout-${createHash('sha256')
      .update(ctx.delivery_id ?? `${Math.random()}${ctx.now.getTime()}`)
      .digest('hex')
      .slice(0, 32)}`;
    if (!ctx.memo.txn) ctx.memo.txn = txn;
    const path = `_matrix/client/v3/rooms/${encodeURIComponent(r.room_id)}/send/m.room.message/${ctx.memo.txn}`;
    return sendCalls(
      [{ method: 'PUT', url: join(r.homeserver_url, path), headers: r.headers, body: r.body }],
      ctx,
    );
  },
  classify(a, now) {
    const r = defaultClassify(a, now);
    const body = jsonOf(a.text) as { retry_after_ms?: number; event_id?: string } | undefined;
    if (r.ok && typeof body?.event_id === 'string') r.remote_id = body.event_id;
    if (a.status === 429 && typeof body?.retry_after_ms === 'number')
      r.retry_after_ms = Math.max(r.retry_after_ms ?? 0, body.retry_after_ms);
    return r;
  },
});
