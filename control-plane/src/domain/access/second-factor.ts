import { AppError, digestsEqual, hashSecret, type SecretBox } from '@lookout/shared';
import { z } from 'zod';
import type { User, Workspace } from '../types.js';
import { parseOrThrow } from '../validation.js';
import type { PasskeyStore } from './passkey-store.js';
import { type RelyingParty, verifyPasskeyAssertion } from './passkeys.js';
import type { SecondFactorStore } from './second-factor-store.js';
import { finishSignIn, type SessionDeps, type SessionLifetimes, type SignInClient } from './sessions.js';
import { CHALLENGE_TRIES } from './sign-in-challenge.js';
import { knownDevice } from './sign-in-guard.js';
import type { SignInStore } from './sign-in-store.js';
import { checkTotp, useRecoveryCode } from './totp.js';

export const SECOND_FACTOR_MESSAGES = {
  challengeGone: 'This sign-in has expired or was already finished; sign in again with your password.',
  tooManyTries: 'Too many wrong codes for this sign-in; sign in again with your password.',
  wrongCode: 'The code is not correct (or was already used).',
  wrongPasskey: 'The passkey was not accepted.',
} as const;

export const secondFactorInput = z
  .strictObject({
    challenge: z.string().min(1).max(200),
    method: z.enum(['totp', 'recovery_code', 'passkey']),
    code: z.string().trim().min(1).max(64).optional(),
    credential: z.record(z.string().max(100), z.unknown()).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.method !== 'passkey' && v.code === undefined)
      ctx.addIssue({ code: 'custom', path: ['code'], message: `is required for method ${v.method}` });
    if (v.method === 'passkey' && v.credential === undefined)
      ctx.addIssue({ code: 'custom', path: ['credential'], message: 'is required for method passkey' });
  });

/**
 * Whether the passkey assertion is one of the user's, for the passkey challenge it signed
 * (domain/access/passkeys.ts); its refusals (401) count here as a wrong second factor.
 */
const passkeyAccepted = async (
  store: SecondFactorDeps,
  workspace: Workspace,
  user: User,
  credential: unknown,
  rp: RelyingParty,
  now: Date,
) => {
  try {
    await verifyPasskeyAssertion(store, workspace, user, null, credential, rp, now);
    return true;
  } catch (err) {
    if (err instanceof AppError && err.code === 'unauthorized') return false;
    throw err;
  }
};

export type SecondFactorDeps = SessionDeps & SignInStore & SecondFactorStore & PasskeyStore;

/**
 * Finishes a password sign-in with its second factor: the challenge POST /session gave, and a TOTP
 * code, a recovery code or a passkey assertion. Throttled twice without letting a stranger lock the
 * user out (a stranger never gets here without the password):
 * - per challenge: CHALLENGE_TRIES codes, then the challenge is deleted (401, back to the password);
 * - per user, by `guard` with the account `<workspace>:2fa:<user>` and the sign-in guard's device-cookie
 *   rule: a browser that signed in to the account before is held only to its own failures.
 * A wrong code is 422 on `code` (the challenge stays, its tries counted) and is recorded in the user's
 * sign-in activity; success deletes the challenge and makes the session.
 */
export const completeSecondFactor = async (
  store: SecondFactorDeps,
  box: SecretBox,
  workspace: Workspace,
  input: unknown,
  now: Date,
  life: SessionLifetimes,
  rp: RelyingParty,
  client: SignInClient,
) => {
  const body = parseOrThrow(secondFactorInput, input);
  const hash = hashSecret(body.challenge);
  const challenge = await store.findChallenge(hash);
  if (
    !challenge ||
    !digestsEqual(challenge.token_hash, hash) ||
    challenge.workspace_id !== workspace.id ||
    challenge.expires_at.getTime() <= now.getTime()
  )
    throw new AppError('unauthorized', SECOND_FACTOR_MESSAGES.challengeGone);
  const user = await store.getUser(workspace.id, challenge.user_id);
  if (!user) throw new AppError('unauthorized', SECOND_FACTOR_MESSAGES.challengeGone);
  const device = await knownDevice(store, client.deviceToken, workspace, user, now);
  const attempt = {
    account: `${workspace.id}:2fa:${user.id}`,
    address: client.address,
    device: device?.id ?? null,
  };
  client.guard.admit(attempt, now.getTime());
  const tries = await store.countChallengeTry(challenge.id);
  if (tries === null) throw new AppError('unauthorized', SECOND_FACTOR_MESSAGES.challengeGone);
  if (tries > CHALLENGE_TRIES) {
    await store.consumeChallenge(challenge.id);
    throw new AppError('unauthorized', SECOND_FACTOR_MESSAGES.tooManyTries);
  }
  const ok =
    body.method === 'totp'
      ? await checkTotp(store, box, user, body.code!, now)
      : body.method === 'recovery_code'
        ? await useRecoveryCode(store, user, body.code!)
        : await passkeyAccepted(store, workspace, user, body.credential, rp, now);
  if (!ok) {
    store.recordFailedSignIn(workspace.id, user.id, now, client.address).catch(client.onError);
    const field = body.method === 'passkey' ? 'credential' : 'code';
    const message =
      body.method === 'passkey' ? SECOND_FACTOR_MESSAGES.wrongPasskey : SECOND_FACTOR_MESSAGES.wrongCode;
    throw new AppError('validation_failed', 'The request has invalid fields.', [{ field, message }]);
  }
  if (!(await store.consumeChallenge(challenge.id)))
    throw new AppError('unauthorized', SECOND_FACTOR_MESSAGES.challengeGone);
  client.guard.succeeded(attempt, now.getTime());
  return { ...(await finishSignIn(store, user, device, now, life)), method: body.method };
};
