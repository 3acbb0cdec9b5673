import { z } from 'zod';
import { defaultClassify } from '../http-client.js';
import {
  defineNotifier,
  headline,
  JSON_HEADERS,
  json,
  originLabel,
  sendCalls,
  truncate,
} from '../notifier.js';
import { httpUrl } from './fields.js';

/**
 * Mattermost incoming webhooks: POST `{"text"}` (Markdown) to the hook URL; 200 `ok`.
 * https://developers.mattermost.com/integrate/webhooks/incoming/ — a post holds at most 16,383
 * characters (https://docs.mattermost.com/collaborate/message-formatting.html). An `@` gets a
 * zero-width joiner after it, so a title such as "@channel" mentions nobody. Resolved: a new short post.
 */
const noMentions = (s: string) => s.replace(/@(?=\w)/g, '@\u2060');

export default defineNotifier({
  type: 'mattermost',
  label: 'Mattermost',
  docs: ['https://developers.mattermost.com/integrate/webhooks/incoming/'],
  config: z.strictObject({
    webhook_url: httpUrl.describe('The incoming webhook URL (https://your-mattermost/hooks/…).'),
  }),
  secrets: ['webhook_url'],
  follows: ['resolved'],
  grouping: 'summary',
  describe: (c) => originLabel(c.webhook_url),
  render(c, m) {
    const ack = m.links?.acknowledge ? `\n\n[Acknowledge](${m.links.acknowledge})` : '';
    const text = truncate(noMentions(`#### ${headline(m)}\n${m.text}`), 16_383 - ack.length) + ack;
    return {
      method: 'POST' as const,
      url: c.webhook_url,
      headers: { ...JSON_HEADERS },
      body: json({ text }),
    };
  },
  send: (_c, call, ctx) => sendCalls([call], ctx),
  classify: defaultClassify,
});
