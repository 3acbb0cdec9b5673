import type { Clock, SecretBox } from '@lookout/shared';
import type { Config } from '../config.js';
import type { MailSettingsStore } from '../domain/notifications/mail-settings-store.js';
import { createDispatcher } from './dispatcher.js';
import type { SmtpSettings } from './email.js';
import { createMailRouter, type MailRouter } from './mail-route.js';

/** The deployment's SMTP server (LOOKOUT_SMTP_*), or null when LOOKOUT_SMTP_HOST is not set. */
export const deploymentSmtp = (config: Config): SmtpSettings | null =>
  config.smtp_host === undefined
    ? null
    : {
        host: config.smtp_host,
        port: config.smtp_port,
        secure: config.smtp_secure,
        user: config.smtp_user,
        password: config.smtp_password,
        from: config.smtp_from,
        timeoutMs: config.notify_timeout_ms,
      };

/** Which SMTP server each email goes through: a workspace's own (kept in `store`), else the deployment's. */
export const mailRouterFromConfig = (config: Config, box: SecretBox, store?: MailSettingsStore) =>
  createMailRouter({
    deployment: deploymentSmtp(config),
    ...(store ? { workspaces: { store, box } } : {}),
    timeoutMs: config.notify_timeout_ms,
    blockPrivate: !config.notify_allow_private,
  });

/**
 * The dispatcher the configuration describes (retries, timeouts), sending email through `mail` and
 * opening channel secrets with `box` (both built once: process/wiring.ts).
 */
export const dispatcherFromConfig = (
  config: Config,
  clock: Clock,
  with_: { mail: MailRouter; box: SecretBox },
) =>
  createDispatcher({
    mail: with_.mail,
    retry: { maxAttempts: config.notify_max_attempts, baseDelayMs: config.notify_retry_base_ms },
    timeoutMs: config.notify_timeout_ms,
    blockPrivate: !config.notify_allow_private,
    box: with_.box,
    now: () => clock.now(),
  });
