import { z } from 'zod';
import { sendEmail, smtpResult } from '../email.js';
import { defineNotifier } from '../notifier.js';

/**
 * Email over SMTP (nodemailer): the workspace's own server, else the deployment's (mail-route.ts).
 * The subject and text as the escalation wrote them, then the acknowledge link when there is one;
 * `X-Lookout-Delivery` carries the delivery id. Resolved: a mail saying so, with how long it lasted.
 */
export default defineNotifier({
  type: 'email',
  label: 'Email',
  docs: ['https://www.rfc-editor.org/rfc/rfc5321'],
  config: z.strictObject({
    addresses: z.array(z.email()).min(1).max(10).describe('Who gets the mail.'),
  }),
  secrets: [],
  follows: ['resolved'],
  grouping: 'summary',
  describe: (c) => c.addresses.join(', '),
  render: (c, m) => ({
    to: c.addresses,
    subject: m.subject,
    text: m.links?.acknowledge ? `${m.text}\n\nAcknowledge: ${m.links.acknowledge}` : m.text,
  }),
  async send(_c, mail, ctx) {
    const route = await ctx.mail.route(ctx.workspace_id);
    if (!route.smtp) return { ok: false, permanent: true, status_code: null, error: route.error };
    return sendEmail(route.smtp, { ...mail, deliveryId: ctx.delivery_id });
  },
  classify: (e: unknown) => smtpResult(e),
});
