import { z } from 'zod';
import { defaultClassify } from '../http-client.js';
import {
  defineNotifier,
  headline,
  JSON_HEADERS,
  json,
  originLabel,
  sendCalls,
  tone,
  truncateBytes,
} from '../notifier.js';
import { httpUrl } from './fields.js';

/**
 * Microsoft Teams through a Workflows webhook ("Post to a channel when a webhook request is
 * received"): POST a message whose one attachment is an Adaptive Card; the flow answers 202.
 * https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook
 * — the card: https://adaptivecards.io/explorer/AdaptiveCard.html — messages are capped at 28 KB
 * (https://learn.microsoft.com/en-us/microsoftteams/platform/bots/how-to/format-your-bot-messages),
 * so the text is cut at 20 KB. Resolved: a new short card (a workflow cannot edit what it posted).
 */
const COLORS = { critical: 'Attention', warning: 'Warning', info: 'Accent', good: 'Good' } as const;

export default defineNotifier({
  type: 'teams',
  label: 'Microsoft Teams',
  docs: [
    'https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook',
  ],
  config: z.strictObject({
    webhook_url: httpUrl.describe('The Workflows webhook URL of the channel.'),
  }),
  secrets: ['webhook_url'],
  follows: ['resolved'],
  grouping: 'summary',
  describe: (c) => originLabel(c.webhook_url),
  render(c, m) {
    const ack = m.links?.acknowledge;
    const card = {
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
      type: 'AdaptiveCard',
      version: '1.4',
      body: [
        {
          type: 'TextBlock',
          text: truncateBytes(headline(m), 1000),
          weight: 'Bolder',
          size: 'Medium',
          color: COLORS[tone(m)],
          wrap: true,
        },
        { type: 'TextBlock', text: truncateBytes(m.text, 20_000), wrap: true },
      ],
      ...(ack ? { actions: [{ type: 'Action.OpenUrl', title: 'Acknowledge', url: ack }] } : {}),
    };
    return {
      method: 'POST' as const,
      url: c.webhook_url,
      headers: { ...JSON_HEADERS },
      body: json({
        type: 'message',
        attachments: [
          { contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card },
        ],
      }),
    };
  },
  send: (_c, call, ctx) => sendCalls([call], ctx),
  classify: defaultClassify,
});
