import { AppError, digestsEqual, hashSecret, newId, type SecretBox } from '@lookout/shared';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { z } from 'zod';
import type { User } from '../types.js';
import { parseOrThrow } from '../validation.js';
import type { RecoveryCode, SecondFactorStore } from './second-factor-store.js';

/**
 * TOTP (RFC 6238 with the authenticator apps' defaults: SHA-1, 6 digits, 30 s steps) through `otpauth`,
 * and recovery codes. A code is accepted in the step before, at or after now (window ±1), and only in a
 * step later than the last one accepted (`acceptTotpStep`): the same code, or an older one, is refused.
 */
export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'Lookout';

export const TOTP_MESSAGES = {
  wrongCode: 'The code is not correct (or was already used); enter the current code of your app.',
  noPending: 'There is no authenticator set up to confirm; start with POST /me/totp.',
  already: 'An authenticator app is already set up; turn it off first to set up another.',
  none: 'No authenticator app is set up.',
} as const;

export const codeInput = z.strictObject({ code: z.string().trim().min(1).max(64) });

const sealContext = (u: Pick<User, 'workspace_id' | 'id'>) => `totp:${u.workspace_id}:${u.id}`;

const totpOf = (secretBase32: string, label = '') =>
  new TOTP({
    issuer: ISSUER,
    label,
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_S,
  });

/** The time step `code` belongs to for `secretBase32` at `now` (±1 step), or null when it matches none. */
export const matchTotp = (secretBase32: string, code: string, now: Date): number | null => {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secretBase32).validate({ token, timestamp: now.getTime(), window: TOTP_WINDOW });
  if (delta === null) return null;
  return TOTP.counter({ period: TOTP_PERIOD_S, timestamp: now.getTime() }) + delta;
};

/** A recovery code as typed, normalised: upper case, no spaces or dashes. */
const normaliseRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

/**
 * RECOVERY_CODE_COUNT new codes (80 random bits each, base32 in groups of four: `ABCD-EFGH-JKLM-NPQR`)
 * and their records (SHA-256 of the normalised code: high-entropy input needs no slow hash).
 */
export const newRecoveryCodes = (user: Pick<User, 'workspace_id' | 'id'>, now: Date) => {
  const plain = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    (new Secret({ size: 10 }).base32.match(/.{4}/g) ?? []).join('-'),
  );
  const records: RecoveryCode[] = plain.map((code) => ({
    id: newId(),
    workspace_id: user.workspace_id,
    user_id: user.id,
    code_hash: hashSecret(normaliseRecoveryCode(code)),
    created_at: now,
  }));
  return { plain, records };
};

type Store = SecondFactorStore;

/**
 * Whether `code` is the user's current TOTP code, spending its time step (true once per step).
 * False for no confirmed factor, a wrong code, or a step already used.
 */
export const checkTotp = async (store: Store, box: SecretBox, user: User, code: string, now: Date) => {
  const { totp } = await store.getSecondFactors(user.workspace_id, user.id);
  if (!totp?.confirmed_at) return false;
  const step = matchTotp(box.open(totp.secret_sealed, sealContext(user)), code, now);
  return step !== null && (await store.acceptTotpStep(user.workspace_id, user.id, step));
};

/**
 * Whether `code` is one of the user's recovery codes, using it up (true once). Every stored hash is
 * compared, in constant time, whatever matched first.
 */
export const useRecoveryCode = async (store: Store, user: User, code: string) => {
  const normalised = normaliseRecoveryCode(code);
  if (normalised.length === 0 || normalised.length > 64) return false;
  const hash = hashSecret(normalised);
  let found: RecoveryCode | null = null;
  for (const c of await store.listRecoveryCodes(user.workspace_id, user.id))
    if (digestsEqual(c.code_hash, hash)) found = c;
  return found !== null && (await store.useRecoveryCode(user.workspace_id, user.id, found.id));
};

/** Starts (or restarts) setting up an authenticator: a new secret, pending until confirmed. */
export const startTotpSetup = async (store: Store, box: SecretBox, user: User, now: Date) => {
  const secret = new Secret({ size: 20 });
  const stored = await store.putPendingTotp({
    workspace_id: user.workspace_id,
    user_id: user.id,
    secret_sealed: box.seal(secret.base32, sealContext(user)),
    created_at: now,
    confirmed_at: null,
    last_step: null,
  });
  if (!stored) throw new AppError('conflict', TOTP_MESSAGES.already);
  const otpauthUrl = totpOf(secret.base32, user.email).toString();
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret: secret.base32, otpauth_url: otpauthUrl, qr_svg: qrSvg };
};

const wrongCode = () =>
  new AppError('validation_failed', 'The request has invalid fields.', [
    { field: 'code', message: TOTP_MESSAGES.wrongCode },
  ]);

/** Confirms the pending authenticator with a current code; returns the new recovery codes (shown once). */
export const confirmTotpSetup = async (
  store: Store,
  box: SecretBox,
  user: User,
  input: unknown,
  now: Date,
) => {
  const { code } = parseOrThrow(codeInput, input);
  const { totp } = await store.getSecondFactors(user.workspace_id, user.id);
  if (!totp || totp.confirmed_at) throw new AppError('conflict', TOTP_MESSAGES.noPending);
  const step = matchTotp(box.open(totp.secret_sealed, sealContext(user)), code, now);
  if (step === null) throw wrongCode();
  const { plain, records } = newRecoveryCodes(user, now);
  const confirmed = await store.confirmTotp({
    workspace_id: user.workspace_id,
    user_id: user.id,
    at: now,
    step,
    codes: records,
  });
  if (!confirmed) throw new AppError('conflict', TOTP_MESSAGES.noPending);
  return { recovery_codes: plain };
};

/**
 * A current TOTP code (or a recovery code) proving the user holds the factor, for turning it off or
 * regenerating codes; 422 on the `code` field otherwise.
 */
export const requireCurrentCode = async (
  store: Store,
  box: SecretBox,
  user: User,
  input: unknown,
  now: Date,
) => {
  const { code } = parseOrThrow(codeInput, input);
  const { totp } = await store.getSecondFactors(user.workspace_id, user.id);
  if (!totp?.confirmed_at) throw new AppError('conflict', TOTP_MESSAGES.none);
  if (!(await checkTotp(store, box, user, code, now)) && !(await useRecoveryCode(store, user, code)))
    throw wrongCode();
};
