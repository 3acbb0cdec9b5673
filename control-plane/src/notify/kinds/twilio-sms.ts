import { z } from 'zod';
import { defaultClassify, type HttpCall } from '../http-client.js';
import { defineNotifier, headline, sendCalls, truncate } from '../notifier.js';
import { apiUrl, join, token } from './fields.js';

/**
 * Twilio Programmable Messaging: one `POST {api_url}/2010-04-01/Accounts/{account_sid}/Messages.json`
 * per recipient, form-encoded `To`, `From`, `Body`, HTTP basic auth (account SID : auth token);
 * 201 with the message resource. 400 (bad number, code 21211 …) and 401 are given up; 429 (code
 * 20429) and 5xx retried — a retry sends only to the recipients not yet accepted.
 * https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource — a body is
 * at most 1,600 characters (https://www.twilio.com/docs/glossary/what-sms-character-limit); an SMS
 * says the headline (resolved: with how long it lasted), the alert's link and the acknowledge link,
 * not the whole text. Follows "resolved" only: each text costs.
 */
const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be a phone number in E.164 form (+15551234567)');

export default defineNotifier({
  type: 'twilio_sms',
  label: 'Twilio SMS',
  docs: ['https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource'],
  config: z.strictObject({
    account_sid: z
      .string()
      .regex(/^AC[0-9a-fA-F]{32}$/, 'must be an account SID (AC…)')
      .describe('The account SID.'),
    auth_token: token('The auth token.', 128),
    from: z
      .union([
        e164,
        z.string().regex(/^MG[0-9a-fA-F]{32}$/, 'must be a phone number or a messaging service SID'),
      ])
      .describe('The sending number (E.164) or a messaging service SID (MG…).'),
    to: z.array(e164).min(1).max(10).describe('The recipients (E.164).'),
    api_url: apiUrl('https://api.twilio.com'),
  }),
  secrets: ['auth_token'],
  follows: ['resolved'],
  grouping: 'summary',
  describe: (c) => c.to.join(', '),
  render(c, m): HttpCall[] {
    const ack =
      (m.links?.alert ? `\n${m.links.alert}` : '') +
      (m.links?.acknowledge ? `\nAck: ${m.links.acknowledge}` : '');
    const body = truncate(`${m.event === 'test' ? m.subject : headline(m)}`, 1600 - ack.length) + ack;
    const auth = `Basic ${Buffer.from(`${c.account_sid}:${c.auth_token}`).toString('base64')}`;
    return c.to.map((to) => ({
      method: 'POST',
      url: join(c.api_url, `2010-04-01/Accounts/${c.account_sid}/Messages.json`),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: auth },
      body: new URLSearchParams({ To: to, From: c.from, Body: body }).toString(),
    }));
  },
  send: (_c, calls, ctx) => sendCalls(calls, ctx),
  classify: defaultClassify,
});
