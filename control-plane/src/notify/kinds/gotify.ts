import { z } from 'zod';
import { defaultClassify } from '../http-client.js';
import { defineNotifier, headline, JSON_HEADERS, json, sendCalls, truncate, urlLabel } from '../notifier.js';
import { httpUrl, join, token } from './fields.js';

/**
 * Gotify: POST `{server_url}/message` with the application token in `X-Gotify-Key` and
 * `{"title", "message", "priority", "extras"}`; 200 with the stored message.
 * https://gotify.net/api-docs#/message/createMessage — the tap target in
 * `extras["client::notification"].click.url`: https://gotify.net/docs/msgextras. Priority 8 for a
 * critical alert (shown as a heads-up on Android), 5 for a warning, 2 otherwise. Gotify documents no
 * length limit; the text is cut at 64 KiB characters all the same. Resolved: a new short message.
 */
const PRIORITY = { critical: 8, warning: 5, info: 2 } as const;

export default defineNotifier({
  type: 'gotify',
  label: 'Gotify',
  docs: ['https://gotify.net/api-docs#/message/createMessage'],
  config: z.strictObject({
    server_url: httpUrl.describe('The Gotify server (https://gotify.example.org).'),
    app_token: token("The application's token."),
  }),
  secrets: ['app_token'],
  follows: ['resolved'],
  grouping: 'summary',
  describe: (c) => urlLabel(c.server_url),
  render(c, m) {
    const ack = m.links?.acknowledge;
    return {
      method: 'POST' as const,
      url: join(c.server_url, 'message'),
      headers: { ...JSON_HEADERS, 'x-gotify-key': c.app_token },
      body: json({
        title: truncate(headline(m), 250),
        message: truncate(m.text, 65_536),
        priority: m.event === 'raised' ? PRIORITY[m.alert?.severity ?? 'critical'] : 2,
        ...(ack ? { extras: { 'client::notification': { click: { url: ack } } } } : {}),
      }),
    };
  },
  send: (_c, call, ctx) => sendCalls([call], ctx),
  classify: defaultClassify,
});
