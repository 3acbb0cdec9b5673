import { z } from 'zod';
import { assertionsField } from './assertions.js';
import type { CheckField } from './check-type.js';

/**
 * Fields more than one type has, with one schema each (a field is the same field in every type that
 * has it: registry.test.ts checks it).
 */
export const RESPONSE_TIME_THRESHOLD: CheckField = {
  schema: z
    .int()
    .min(0)
    .max(60000)
    .nullable()
    .describe('Alert when successful checks are slower than this (0 = off).'),
  stored: 'column',
};

/** After a failure at a location, re-checks there come this often until `failure_threshold` decides. */
export const RETRY_INTERVAL: CheckField = {
  // MIN_RETRY_INTERVAL_SECONDS (monitors.ts); the default there too.
  schema: z
    .int()
    .min(5)
    .max(86400)
    .describe(
      'After a failure, re-check this often until failure_threshold decides (default 15, at least 5, at most the interval).',
    ),
  stored: 'column',
};

export const ASSERTIONS: CheckField = { schema: assertionsField, stored: 'settings', default: [] };

export const SSL_CERT_MONITORING: CheckField = {
  schema: z.boolean().describe('Watch the certificate’s expiry (an https URL, or smtp with TLS).'),
  stored: 'column',
};
export const SSL_CERT_EXPIRY_ALERT_DAYS: CheckField = { schema: z.int().min(1).max(365), stored: 'column' };

/** What every type that answers in time has: a response time threshold and retries after a failure. */
export const TIMED = {
  response_time_threshold_ms: RESPONSE_TIME_THRESHOLD,
  retry_interval_seconds: RETRY_INTERVAL,
};
