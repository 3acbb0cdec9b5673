import { z } from 'zod';
import { defaultClassify } from '../http-client.js';
import {
  defineNotifier,
  headline,
  JSON_HEADERS,
  json,
  sendCalls,
  truncate,
  truncateBytes,
  urlLabel,
} from '../notifier.js';
import { httpUrl, join, token } from './fields.js';

/**
 * ntfy: publish as JSON — POST to the server's root `{"topic", "title", "message", "priority",
 * "tags", "click"}`, with `Authorization: Bearer <access_token>` for a protected topic; 200 with the
 * message. https://docs.ntfy.sh/publish/#publish-as-json — priorities 1–5 and tags:
 * https://docs.ntfy.sh/publish/#message-priority — a message over 4,096 bytes becomes an attachment
 * (https://docs.ntfy.sh/config/#message-limits), so it is cut there. A tap opens the acknowledge link
 * when there is one. Rate limits answer 429 (https://docs.ntfy.sh/config/#rate-limiting).
 * Resolved: a new short notification.
 */
const PRIORITY = { critical: 5, warning: 4, info: 3 } as const;

export default defineNotifier({
  type: 'ntfy',
  label: 'ntfy',
  docs: ['https://docs.ntfy.sh/publish/#publish-as-json'],
  config: z.strictObject({
    server_url: httpUrl.default('https://ntfy.sh').describe('The ntfy server (default https://ntfy.sh).'),
    topic: z
      .string()
      .regex(/^[-_A-Za-z0-9]{1,64}$/, 'must be 1–64 letters, digits, - or _')
      .describe('The topic.'),
    access_token: token('An access token for a protected topic (tk_…).').optional(),
  }),
  secrets: ['access_token'],
  follows: ['resolved'],
  grouping: 'summary',
  describe: (c) => `${urlLabel(c.server_url)} ${c.topic}`,
  render(c, m) {
    const raised = m.event === 'raised';
    return {
      method: 'POST' as const,
      url: join(c.server_url, '/'),
      headers: { ...JSON_HEADERS, ...(c.access_token ? { authorization: `Bearer ${c.access_token}` } : {}) },
      body: json({
        topic: c.topic,
        title: truncate(headline(m), 250),
        message: truncateBytes(m.text, 4096),
        priority: raised ? PRIORITY[m.alert?.severity ?? 'critical'] : 3,
        tags: [
          m.event === 'resolved' ? 'white_check_mark' : raised ? 'rotating_light' : 'information_source',
        ],
        ...(m.links?.acknowledge ? { click: m.links.acknowledge } : {}),
      }),
    };
  },
  send: (_c, call, ctx) => sendCalls([call], ctx),
  classify: defaultClassify,
});
