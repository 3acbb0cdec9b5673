import type { Attempt, Dispatcher, OutgoingMessage, Target } from '../domain/notifications.js';
import { type RetryOptions, withRetries } from './attempt.js';
import { createSmtpSender, type SmtpSettings } from './email.js';
import { slackPayload } from './slack.js';
import { postJson } from './webhook.js';

export interface DispatcherOptions {
  smtp: SmtpSettings;
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
 * exponential backoff.
 */
export const createDispatcher = (opts: DispatcherOptions): Dispatcher & { close(): void } => {
  let smtp: ReturnType<typeof createSmtpSender> | null = null;
  const once = (target: Target, message: OutgoingMessage, deliveryId: string | null): Promise<Attempt> => {
    switch (target.kind) {
      case 'email':
        smtp ??= createSmtpSender(opts.smtp);
        return smtp.send({ to: target.to, subject: message.subject, text: message.text, deliveryId });
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
    close() {
      smtp?.close();
    },
  };
};
