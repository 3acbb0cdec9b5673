import type { Clock } from '@lookout/shared';
import { createSecretBox } from '@lookout/shared';
import type { Config } from '../config.js';
import type { MailSettingsStore } from '../domain/notifications/mail-settings-store.js';
import { createDispatcher } from './dispatcher.js';
import type { SmtpSettings } from './email.js';
import { createMailRouter } from './mail-route.js';

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
export const mailRouterFromConfig = (config: Config, store?: MailSettingsStore) =>
  createMailRouter({
    deployment: deploymentSmtp(config),
    ...(store ? { workspaces: { store, box: createSecretBox(config.encryption_key) } } : {}),
    timeoutMs: config.notify_timeout_ms,
    blockPrivate: !config.notify_allow_private,
  });

/**
 * The dispatcher the configuration describes (SMTP servers, retries, timeouts). With `store`,
 * workspaces' own mail settings apply to their email; without, only the deployment's server.
 */
export const dispatcherFromConfig = (config: Config, clock: Clock, store?: MailSettingsStore) =>
  createDispatcher({
    mail: mailRouterFromConfig(config, store),
    retry: { maxAttempts: config.notify_max_attempts, baseDelayMs: config.notify_retry_base_ms },
    timeoutMs: config.notify_timeout_ms,
    blockPrivate: !config.notify_allow_private,
    box: createSecretBox(config.encryption_key),
    now: () => clock.now(),
  });
