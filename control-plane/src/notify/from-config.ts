import type { Clock } from '@lookout/shared';
import type { Config } from '../config.js';
import { createDispatcher } from './dispatcher.js';

/** The dispatcher the configuration describes (SMTP server, retries, timeouts). */
export const dispatcherFromConfig = (config: Config, clock: Clock) =>
  createDispatcher({
    smtp: {
      host: config.smtp_host,
      port: config.smtp_port,
      secure: config.smtp_secure,
      user: config.smtp_user,
      password: config.smtp_password,
      from: config.smtp_from,
      timeoutMs: config.notify_timeout_ms,
    },
    retry: { maxAttempts: config.notify_max_attempts, baseDelayMs: config.notify_retry_base_ms },
    timeoutMs: config.notify_timeout_ms,
    blockPrivate: config.block_private_destinations,
    now: () => clock.now(),
  });
