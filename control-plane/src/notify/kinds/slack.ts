import { z } from 'zod';
import type { OutgoingMessage } from '../../domain/notifications/messages.js';
import { defaultClassify } from '../http-client.js';
import { defineNotifier, JSON_HEADERS, json, originLabel, sendCalls, truncate } from '../notifier.js';
import { httpUrl } from './fields.js';

/**
 * Slack incoming webhooks: POST `{"text"}` to the webhook URL; 200 `ok`, 4xx with a reason
 * (`invalid_payload`, `channel_not_found`, …), 429 with Retry-After.
 * https://api.slack.com/messaging/webhooks — escaping: https://api.slack.com/reference/surfaces/formatting#escaping
 * — length: https://api.slack.com/methods/chat.postMessage#truncating (40,000 characters).
 * Resolved: a new short message (an incoming webhook returns no message `ts` to thread under).
 */

/**
 * Text as Slack shows it as typed: `&`, `<` and `>` become `&amp;`, `&lt;` and `&gt;`. Without it a
 * name such as `<!channel>` would notify the whole channel and `<https://x.test|click>` would be a link.
 */
export const slackEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The subject in bold, then the text, both escaped; the acknowledge link, when there is one. */
export const slackText = (m: Pick<OutgoingMessage, 'subject' | 'text' | 'links'>) => {
  const ack = m.links?.acknowledge ? `\n<${m.links.acknowledge}|Acknowledge>` : '';
  return truncate(`*${slackEscape(m.subject)}*\n${slackEscape(m.text)}`, 40_000 - ack.length) + ack;
};

export default defineNotifier({
  type: 'slack',
  label: 'Slack',
  docs: ['https://api.slack.com/messaging/webhooks'],
  config: z.strictObject({
    url: httpUrl.describe('The incoming webhook URL (https://hooks.slack.com/services/…).'),
  }),
  secrets: ['url'],
  follows: ['resolved'],
  grouping: 'summary',
  describe: (c) => originLabel(c.url),
  render: (c, m) => ({
    method: 'POST' as const,
    url: c.url,
    headers: { ...JSON_HEADERS },
    body: json({ text: slackText(m) }),
  }),
  send: (_c, call, ctx) => sendCalls([call], ctx),
  classify: defaultClassify,
});
