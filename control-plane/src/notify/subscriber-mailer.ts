import type { SubscriberMailer } from '../domain/status-pages/subscribers.js';
import { sendEmail } from './email.js';
import type { MailRouter } from './mail-route.js';

/** Status page subscribers' mail through the same route as alert email (the workspace's SMTP, else the deployment's). */
export const subscriberMailer =
  (router: MailRouter): SubscriberMailer =>
  async (workspaceId, mail) => {
    const route = await router.route(workspaceId);
    if (!route.smtp) return { ok: false, permanent: false, error: route.error };
    return sendEmail(route.smtp, {
      to: [mail.to],
      subject: mail.subject,
      text: mail.text,
      deliveryId: null,
      headers: mail.headers,
    });
  };
