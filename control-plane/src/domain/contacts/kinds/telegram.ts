import { z } from 'zod';
import { defineContactKind } from './kind.js';

/** The user's chat with the deployment's bot (channel kind `telegram`). */
export default defineContactKind({
  type: 'telegram',
  label: 'Telegram',
  body: {
    chat_id: z
      .string()
      .regex(/^-?\d{1,20}$/, 'must be the numeric id of your chat with the bot (send it /start to learn it)'),
  },
  form: {
    chat_id: {
      label: 'Telegram chat ID',
      input: 'numeric',
      hint: "Send /start to this Lookout's Telegram bot; it answers with your chat ID.",
    },
  },
  response: { chat_id: z.string() },
  shown: (a) => ({ chat_id: a.chat_id }),
  describe: (a) => `Telegram chat ${a.chat_id}`,
  destination: (a) => a.chat_id,
  codeDestination: (a) => `telegram:${a.chat_id}`,
  service: { key: 'telegram', name: 'a Telegram bot', setting: 'LOOKOUT_TELEGRAM_BOT_TOKEN' },
  target: (a, { telegram: s }) =>
    s
      ? { kind: 'telegram', config: { bot_token: s.bot_token, chat_id: a.chat_id, api_url: s.api_url } }
      : null,
  operatorAddress: true,
});
