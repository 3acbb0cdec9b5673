import { randomInt } from 'node:crypto';
import { AppError, digestsEqual, hashSecret, validationError } from '@lookout/shared';
import type { OutgoingMessage } from '../notifications/messages.js';
import type { Workspace } from '../types.js';
import { takeCodeAllowance } from './code-limits.js';
import type { ContactMethod, ContactMethodStore } from './contact-method-store.js';

/**
 * Verification codes: a method is used by escalations only once its user has entered the 6-digit
 * code sent through it. Only the code's SHA-256 is kept (with the method's id), compared in constant
 * time; each code works for `CODE_TTL_MS` and `MAX_CODE_ATTEMPTS` wrong tries.
 */

export const CODE_TTL_MS = 15 * 60_000;
/** A code is not sent again sooner than this (each one may be an SMS someone pays for). */
export const RESEND_AFTER_MS = 60_000;
/** Wrong codes allowed against one code; then a new one must be sent. */
export const MAX_CODE_ATTEMPTS = 5;

const codeHash = (methodId: string, code: string) => hashSecret(`contact-method:${methodId}:${code}`);

/**
 * A new verification code for the method, stored (hashed) before it is sent; returns the code, to
 * send through the method and nowhere else. Refused (429) within `RESEND_AFTER_MS` of the last one,
 * and beyond the limits per destination, user and workspace (code-limits.ts), which deleting and
 * adding a method again does not reset.
 */
export const newVerificationCode = async (
  store: ContactMethodStore,
  method: ContactMethod,
  now: Date,
): Promise<{ code: string; method: ContactMethod }> => {
  const last = method.verification?.sent_at.getTime();
  if (last !== undefined && now.getTime() - last < RESEND_AFTER_MS) {
    const wait = Math.ceil((last + RESEND_AFTER_MS - now.getTime()) / 1000);
    throw new AppError(
      'rate_limited',
      `A code was sent moments ago; you can ask for another in ${wait} s.`,
      [],
      {
        retryAfterSeconds: wait,
      },
    );
  }
  await takeCodeAllowance(store, method.workspace_id, method.user_id, method.address, now);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const next: ContactMethod = {
    ...method,
    verification: {
      code_hash: codeHash(method.id, code),
      sent_at: now,
      expires_at: new Date(now.getTime() + CODE_TTL_MS),
      failed_attempts: 0,
    },
  };
  if (!(await store.updateContactMethod(next)))
    throw new AppError('conflict', 'The contact method changed meanwhile (or was removed); try again.');
  return { code, method: { ...next, version: next.version + 1 } };
};

/** Drops a pending code (it could not be sent), so another can be asked for at once. */
export const forgetCode = async (
  store: ContactMethodStore,
  method: ContactMethod,
): Promise<ContactMethod> => {
  const next = { ...method, verification: null };
  return (await store.updateContactMethod(next)) ? { ...next, version: next.version + 1 } : method;
};

/** The message that carries a code: a test notification, short enough for one SMS. */
export const verificationMessage = (
  workspace: Pick<Workspace, 'subdomain'>,
  code: string,
  deliveryId: string,
  now: Date,
): OutgoingMessage => ({
  event: 'test',
  subject: `[Lookout ${workspace.subdomain}] Your verification code: ${code}`,
  text: `Your Lookout verification code is ${code}. Enter it in Notification settings to get alerts here. It expires in 15 minutes.`,
  dedup_key: deliveryId,
  alert: null,
  payload: {
    event: 'test',
    delivery_id: deliveryId,
    sent_at: now.toISOString(),
    workspace: workspace.subdomain,
  },
});

/** Checks the code entered (constant time); right: the method is verified. Wrong: 422, counted. */
export const verifyContactMethod = async (
  store: ContactMethodStore,
  method: ContactMethod,
  code: string,
  now: Date,
): Promise<ContactMethod> => {
  if (method.verified_at) return method;
  const v = method.verification;
  const refuse = (message: string) => validationError([{ field: 'code', message }]);
  if (!v) throw refuse('no code has been sent yet: send one first');
  if (v.expires_at.getTime() <= now.getTime()) throw refuse('has expired: send a new one');
  if (v.failed_attempts >= MAX_CODE_ATTEMPTS) throw refuse('was entered wrong too often: send a new one');
  const right = digestsEqual(codeHash(method.id, code), v.code_hash);
  const next: ContactMethod = right
    ? { ...method, verified_at: now, verification: null }
    : { ...method, verification: { ...v, failed_attempts: v.failed_attempts + 1 } };
  if (!(await store.updateContactMethod(next)))
    throw new AppError('conflict', 'The contact method changed meanwhile (or was removed); try again.');
  if (!right) throw refuse('is not the code we sent');
  return { ...next, version: next.version + 1 };
};
