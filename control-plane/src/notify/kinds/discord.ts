import { z } from 'zod';
import { defaultClassify } from '../http-client.js';
import {
  defineNotifier,
  headline,
  JSON_HEADERS,
  json,
  jsonOf,
  originLabel,
  sendCalls,
  tone,
  truncate,
} from '../notifier.js';
import { httpUrl } from './fields.js';

/**
 * Discord: POST an execute-webhook body with one embed to the channel's webhook URL, `?wait=true` so
 * the answer is the message (200) rather than an empty 204.
 * https://discord.com/developers/docs/resources/webhook#execute-webhook — embed limits (title 256,
 * description 4096): https://discord.com/developers/docs/resources/message#embed-object-embed-limits
 * — rate limits (429 with `Retry-After` and a JSON `retry_after` in seconds):
 * https://discord.com/developers/docs/topics/rate-limits. `allowed_mentions.parse: []` keeps a title
 * such as "@everyone" from pinging anyone. Resolved: the raised message is edited in place (PATCH
 * …/messages/{id}, https://discord.com/developers/docs/resources/webhook#edit-webhook-message) to the
 * green "RESOLVED" embed, when its id is known; else a new short message.
 */
const COLORS = { critical: 0xe5484d, warning: 0xf5a524, info: 0x3b82f6, good: 0x30a46c } as const;

export default defineNotifier({
  type: 'discord',
  label: 'Discord',
  docs: ['https://discord.com/developers/docs/resources/webhook#execute-webhook'],
  config: z.strictObject({
    webhook_url: httpUrl.describe('The channel webhook URL (https://discord.com/api/webhooks/…).'),
  }),
  secrets: ['webhook_url'],
  follows: ['resolved'],
  grouping: 'summary',
  describe: (c) => originLabel(c.webhook_url),
  render(c, m) {
    const url = new URL(c.webhook_url);
    const edit = m.event === 'resolved' && m.reply_to && /^\d+$/.test(m.reply_to);
    if (edit) url.pathname = `${url.pathname.replace(/\/+$/, '')}/messages/${m.reply_to}`;
    else url.searchParams.set('wait', 'true');
    const ack = m.links?.acknowledge;
    return {
      method: edit ? ('PATCH' as const) : ('POST' as const),
      url: url.toString(),
      headers: { ...JSON_HEADERS },
      body: json({
        ...(edit ? {} : { username: 'Lookout' }),
        allowed_mentions: { parse: [] },
        embeds: [
          {
            title: truncate(headline(m), 256),
            description:
              truncate(m.text, 4096 - (ack ? ack.length + 20 : 0)) + (ack ? `\n\n[Acknowledge](${ack})` : ''),
            color: COLORS[tone(m)],
            ...(m.alert ? { timestamp: m.alert.created_at } : {}),
            footer: { text: truncate(m.subject.match(/^\[([^\]]*)\]/)?.[1] ?? 'Lookout', 2048) },
          },
        ],
      }),
    };
  },
  send: (_c, call, ctx) => sendCalls([call], ctx),
  classify(a, now) {
    const r = defaultClassify(a, now);
    const body = jsonOf(a.text) as { retry_after?: number; id?: string } | undefined;
    if (r.ok && typeof body?.id === 'string') r.remote_id = body.id;
    if (a.status === 429 && typeof body?.retry_after === 'number')
      r.retry_after_ms = Math.max(r.retry_after_ms ?? 0, Math.ceil(body.retry_after * 1000));
    return r;
  },
});
