import type { Attempt, Dispatcher, OutgoingMessage, Target } from '../domain/routing/notifications.js';
import { type RetryOptions, withRetries } from './attempt.js';
import { sendEmail } from './email.js';
import type { MailRouter } from './mail-route.js';
import { slackPayload } from './slack.js';
import { postJson } from './webhook.js';

export interface DispatcherOptions {
  /** Which SMTP server an email goes through: its workspace's own, the deployment's, or none. */
  mail: MailRouter;
  retry: RetryOptions;
  timeoutMs: number;
  /** Refuse webhook and Slack destinations on private or loopback addresses (SSRF guard). */
  blockPrivate?: boolean;
  /** Unix time for webhook signatures. */
  now: () => Date;
}

/**
 * The transports behind one interface: email (SMTP), webhook (signed JSON), Slack (incoming webhook
 * JSON `{"text"}`, escaped as Slack asks: slack.ts). Each attempt is classified (ok / worth retrying / permanent) and retried with
 * exponential backoff. An email's server is looked up at each attempt (mail-route.ts); with none, the
 * attempt fails permanently, saying so, instead of retrying a connection that cannot work.
 */
export const createDispatcher = (opts: DispatcherOptions): Dispatcher => {
  const once = async (
    target: Target,
    message: OutgoingMessage,
    deliveryId: string | null,
  ): Promise<Attempt> => {
    switch (target.kind) {
      case 'email': {
        const route = await opts.mail.route(target.workspace_id);
        if (!route.smtp) return { ok: false, permanent: true, status_code: null, error: route.error };
        return sendEmail(route.smtp, {
          to: target.to,
          subject: message.subject,
          text: message.text,
          deliveryId,
        });
      }
      case 'webhook':
        return postJson({
          url: target.url,
          headers: target.headers,
          secret: target.secret,
          payload: message.payload,
          deliveryId,
          timeoutMs: opts.timeoutMs,
          nowSeconds: Math.floor(opts.now().getTime() / 1000),
          blockPrivate: opts.blockPrivate ?? false,
        });
      case 'slack':
        return postJson({
          url: target.url,
          headers: {},
          secret: null,
          payload: slackPayload(message),
          deliveryId: null,
          timeoutMs: opts.timeoutMs,
          nowSeconds: 0,
          blockPrivate: opts.blockPrivate ?? false,
        });
    }
  };
  return {
    send(target, message, deliveryId, onAttempt, call) {
      const maxAttempts = Math.min(opts.retry.maxAttempts, call?.maxAttempts ?? Number.POSITIVE_INFINITY);
      return withRetries(() => once(target, message, deliveryId), { ...opts.retry, maxAttempts }, onAttempt);
    },
  };
};
