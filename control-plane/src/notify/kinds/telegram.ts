import { z } from 'zod';
import { defaultClassify } from '../http-client.js';
import { defineNotifier, JSON_HEADERS, json, jsonOf, sendCalls, truncate } from '../notifier.js';
import { apiUrl, join, token } from './fields.js';

/**
 * Telegram Bot API `sendMessage`: POST `{api_url}/bot<bot_token>/sendMessage` with `{"chat_id",
 * "text"}` as plain text (no parse mode: nothing to escape, nothing injected). The answer is
 * `{"ok": true, "result": {message_id, …}}`; errors are `{"ok": false, "error_code", "description"}`,
 * a 429 carries `parameters.retry_after` (seconds), which is honoured.
 * https://core.telegram.org/bots/api#sendmessage — text 1–4096 characters; errors:
 * https://core.telegram.org/bots/api#making-requests and https://core.telegram.org/bots/api#responseparameters.
 * Resolved: a reply to the raised message (`reply_parameters.message_id`, the id its answer gave;
 * `allow_sending_without_reply`, so a deleted original does not lose the news).
 */
export default defineNotifier({
  type: 'telegram',
  label: 'Telegram',
  docs: ['https://core.telegram.org/bots/api#sendmessage'],
  config: z.strictObject({
    bot_token: token('The bot token from @BotFather (123456:ABC…).', 128),
    chat_id: z
      .string()
      .regex(/^(-?\d{1,20}|@[A-Za-z0-9_]{5,32})$/, 'must be a numeric chat id or @channelusername')
      .describe('The chat: a numeric id, or @username of a channel.'),
    api_url: apiUrl('https://api.telegram.org'),
  }),
  secrets: ['bot_token'],
  follows: ['resolved'],
  grouping: 'summary',
  describe: (c) => `Telegram chat ${c.chat_id}`,
  render(c, m) {
    const ack = m.links?.acknowledge ? `\n\nAcknowledge: ${m.links.acknowledge}` : '';
    return {
      method: 'POST' as const,
      url: join(c.api_url, `bot${c.bot_token}/sendMessage`),
      headers: { ...JSON_HEADERS },
      body: json({
        chat_id: c.chat_id,
        text: truncate(`${m.subject}\n\n${m.text}`, 4096 - ack.length) + ack,
        link_preview_options: { is_disabled: true },
        ...(m.reply_to && /^\d+$/.test(m.reply_to)
          ? { reply_parameters: { message_id: Number(m.reply_to), allow_sending_without_reply: true } }
          : {}),
      }),
    };
  },
  send: (_c, call, ctx) => sendCalls([call], ctx),
  classify(a, now) {
    const r = defaultClassify(a, now);
    const body = jsonOf(a.text) as
      | { ok?: boolean; parameters?: { retry_after?: number }; result?: { message_id?: number } }
      | undefined;
    if (r.ok && typeof body?.result?.message_id === 'number') r.remote_id = String(body.result.message_id);
    if (r.ok && body?.ok === false)
      return { ...r, ok: false, permanent: true, error: `Telegram: ${a.text.slice(0, 200)}` };
    const after = body?.parameters?.retry_after;
    if (!r.ok && typeof after === 'number') r.retry_after_ms = Math.max(r.retry_after_ms ?? 0, after * 1000);
    return r;
  },
});
