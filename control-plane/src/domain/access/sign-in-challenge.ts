import { hashSecret, newId, randomToken } from '@lookout/shared';
import type { SecondFactorStore, SecondFactors } from './second-factor-store.js';

/**
 * The step between a correct password and its second factor. The challenge is an opaque token
 * (`lc.` + 256 random bits) handed to the client; the store keeps its SHA-256, bound to the workspace
 * and the user, for CHALLENGE_MS. It allows CHALLENGE_TRIES codes (counted before each is checked);
 * the one that succeeds deletes it, and so does the try past the limit: a used, expired or exhausted
 * challenge is refused, and the client starts again from the password.
 */
export const CHALLENGE_MS = 5 * 60_000;
export const CHALLENGE_TRIES = 5;

export type SecondFactorMethod = 'totp' | 'passkey' | 'recovery_code';

/** Whether the user has a second factor (a recovery code alone is not one: it backs one up). */
export const hasSecondFactor = (f: SecondFactors) => f.totp?.confirmed_at != null || f.passkeys > 0;

/** The methods the user may finish a sign-in with. */
export const secondFactorMethods = (f: SecondFactors): SecondFactorMethod[] => {
  if (!hasSecondFactor(f)) return [];
  const methods: SecondFactorMethod[] = [];
  if (f.totp?.confirmed_at) methods.push('totp');
  if (f.passkeys > 0) methods.push('passkey');
  if (f.recovery_codes_left > 0) methods.push('recovery_code');
  return methods;
};

/** A new challenge for the user; returns its token (only its hash is stored). */
export const openChallenge = async (
  store: Pick<SecondFactorStore, 'insertChallenge'>,
  workspaceId: string,
  userId: string,
  now: Date,
) => {
  const token = randomToken('lc.');
  await store.insertChallenge({
    id: newId(),
    workspace_id: workspaceId,
    user_id: userId,
    token_hash: hashSecret(token),
    created_at: now,
    expires_at: new Date(now.getTime() + CHALLENGE_MS),
    failures: 0,
  });
  return token;
};

/** The two-factor state shown to the user (GET /session's `user.two_factor`). */
export const twoFactorSummary = (f: SecondFactors) => ({
  totp: f.totp?.confirmed_at != null,
  passkeys: f.passkeys,
  recovery_codes_left: f.recovery_codes_left,
});
