import { z } from 'zod';

/** The web sign-in's keys of the config loader (config.ts): failed sign-in throttling, password reset limits. */
export const signInConfigKeys = {
  sign_in_failures_per_minute: {
    schema: z.coerce.number().min(0).max(100_000),
    default: 10,
    doc: 'Failed web sign-ins allowed per client address per minute (burst of the same size), for any account, from browsers not known to the account (see sign_in_failures_per_device_per_hour); beyond, 429 with Retry-After. 0: no limit.',
  },
  sign_in_failures_per_account_per_hour: {
    schema: z.coerce.number().min(0).max(100_000),
    default: 20,
    doc: 'Failed web sign-ins allowed per account (workspace and email) per hour from browsers not known to the account, from any address; beyond, such browsers get 429 with Retry-After. A browser that has signed in to the account before is never held back by it. 0: no limit.',
  },
  password_reset_per_address_per_hour: {
    schema: z.coerce.number().int().min(0).max(100_000),
    default: 3,
    doc: 'Password reset requests allowed per email address (in a workspace) per hour, known or not (burst of the same size); beyond, 429 with Retry-After. 0: no limit.',
  },
  password_reset_per_client_per_hour: {
    schema: z.coerce.number().int().min(0).max(100_000),
    default: 20,
    doc: 'Password reset requests allowed per client address per hour, for any email (burst of the same size); beyond, 429 with Retry-After. 0: no limit.',
  },
  sign_in_backoff_after_failures: {
    schema: z.coerce.number().int().min(0).max(1000),
    default: 3,
    doc: 'After this many failed web sign-ins in a row to one account from one address (browsers not known to the account), each further one doubles the wait before the next attempt: 1 s, 2 s, 4 s … at most 15 min, with 429 and Retry-After meanwhile. A successful sign-in, or an hour without failures, starts afresh. 0: no backoff.',
  },
  sign_in_failures_per_device_per_hour: {
    schema: z.coerce.number().min(0).max(100_000),
    default: 10,
    doc: 'Failed web sign-ins allowed per hour (burst of the same size) to an account from a browser that has signed in to it before (its device cookie); only its own failures count, so nobody else’s guesses can lock it out. Beyond, that browser gets 429 with Retry-After. 0: no limit.',
  },
};
