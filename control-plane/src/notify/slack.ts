import type { OutgoingMessage } from '../domain/routing/notifications.js';

/**
 * Text as Slack shows it as typed: `&`, `<` and `>` become `&amp;`, `&lt;` and `&gt;`, the escaping
 * Slack asks for (https://api.slack.com/reference/surfaces/formatting#escaping). Without it a name
 * such as `<!channel>` would notify the whole channel and `<https://x.test|click>` would be a link.
 */
export const slackEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The incoming webhook's body: the subject in bold, then the text, both escaped. */
export const slackPayload = (m: Pick<OutgoingMessage, 'subject' | 'text'>) => ({
  text: `*${slackEscape(m.subject)}*\n${slackEscape(m.text)}`,
});
