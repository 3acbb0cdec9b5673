import type { AccountMailer } from '../domain/access/password-reset.js';
import { sendEmail } from './email.js';
import type { MailRouter } from './mail-route.js';

/** Account mail (password reset links) through the same route as alert email: the workspace's SMTP, else the deployment's. */
export const accountMailer =
  (router: MailRouter): AccountMailer =>
  async (workspaceId, mail) => {
    const route = await router.route(workspaceId);
    if (!route.smtp) return { ok: false, permanent: false, error: route.error };
    return sendEmail(route.smtp, {
      to: [mail.to],
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      deliveryId: null,
    });
  };
