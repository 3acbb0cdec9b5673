import { z } from 'zod';
import { defaultClassify } from '../http-client.js';
import { defineNotifier, headline, JSON_HEADERS, json, sendCalls, truncate } from '../notifier.js';
import { apiUrl, join } from './fields.js';

/**
 * Pushover: POST `{api_url}/1/messages.json` with `{"token", "user", "title", "message", "priority"}`
 * (JSON is accepted as well as a form); `{"status": 1}` on success, 4xx with `{"status": 0,
 * "errors"}` for a bad token or user (given up), 429 when the application's quota is spent.
 * https://pushover.net/api — limits: message 1,024 characters, title 250, URL 512, URL title 100
 * (https://pushover.net/api#limits). A critical alert is priority 1 (high: bypasses quiet hours);
 * the acknowledge link is the supplementary URL. Resolved: a new short message at priority -1.
 */
const key = (what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9]{30}$/, 'must be the 30-character key Pushover shows')
    .describe(what);

export default defineNotifier({
  type: 'pushover',
  label: 'Pushover',
  docs: ['https://pushover.net/api'],
  config: z.strictObject({
    user_key: key('The user or group key.'),
    app_token: key("The application's API token."),
    api_url: apiUrl('https://api.pushover.net'),
  }),
  secrets: ['user_key', 'app_token'],
  follows: ['resolved'],
  grouping: 'summary',
  describe: () => 'Pushover',
  render(c, m) {
    const ack = m.links?.acknowledge;
    const priority = m.event === 'raised' ? (m.alert?.severity === 'critical' ? 1 : 0) : -1;
    return {
      method: 'POST' as const,
      url: join(c.api_url, '1/messages.json'),
      headers: { ...JSON_HEADERS },
      body: json({
        token: c.app_token,
        user: c.user_key,
        title: truncate(headline(m), 250),
        message: truncate(m.text, 1024),
        priority,
        ...(ack && ack.length <= 512 ? { url: ack, url_title: 'Acknowledge' } : {}),
      }),
    };
  },
  send: (_c, call, ctx) => sendCalls([call], ctx),
  classify: defaultClassify,
});
