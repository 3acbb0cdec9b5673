import { z } from 'zod';
import { defaultClassify } from '../http-client.js';
import { defineNotifier, headline, json, originLabel, sendCalls, truncate } from '../notifier.js';
import { httpUrl } from './fields.js';

/**
 * Google Chat incoming webhooks: POST a Message `{"text", "thread": {"threadKey"}}` to the space's
 * webhook URL (its `key` and `token` are the secret) with
 * `messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD`, so every message of one alert — raised,
 * then resolved — is one thread, keyed by the alert's uuid.
 * https://developers.google.com/workspace/chat/quickstart/webhooks — threads:
 * https://developers.google.com/workspace/chat/api/reference/rest/v1/spaces.messages/create#messagereplyoption
 * — text is cut at 4,096 characters (https://developers.google.com/workspace/chat/format-messages).
 */
export default defineNotifier({
  type: 'google_chat',
  label: 'Google Chat',
  docs: ['https://developers.google.com/workspace/chat/quickstart/webhooks'],
  config: z.strictObject({
    webhook_url: httpUrl.describe(
      'The space webhook URL (https://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…).',
    ),
  }),
  secrets: ['webhook_url'],
  follows: ['resolved'],
  grouping: 'summary',
  describe: (c) => originLabel(c.webhook_url),
  render(c, m) {
    const url = new URL(c.webhook_url);
    url.searchParams.set('messageReplyOption', 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
    const ack = m.links?.acknowledge ? `\n<${m.links.acknowledge}|Acknowledge>` : '';
    return {
      method: 'POST' as const,
      url: url.toString(),
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: json({
        text: truncate(`*${headline(m)}*\n${m.text}`, 4096 - ack.length) + ack,
        thread: { threadKey: `lookout-${m.dedup_key}` },
      }),
    };
  },
  send: (_c, call, ctx) => sendCalls([call], ctx),
  classify: defaultClassify,
});
