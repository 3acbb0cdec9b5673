import { AppError, digestsEqual, hashSecret, newId, randomToken } from '@lookout/shared';
import Tokens from 'csrf';
import { z } from 'zod';
import { hashPassword, verifyPassword } from '../tenancy/passwords.js';
import type { User, Workspace } from '../types.js';
import { parseOrThrow } from '../validation.js';
import type { SecondFactorStore } from './second-factor-store.js';
import { hasSecondFactor, openChallenge, secondFactorMethods } from './sign-in-challenge.js';
import { DEVICES_KEPT, knownDevice, mintDevice, type SignInGuard } from './sign-in-guard.js';
import type { SignInDevice, SignInStore } from './sign-in-store.js';

/**
 * A signed-in browser. The token itself lives only in the browser's cookie; the store keeps its
 * SHA-256. `csrf_secret` is the synchronizer secret the CSRF tokens of this session are derived from
 * (pillarjs `csrf`), so a token taken from one session is worthless in another.
 */
export interface Session {
  id: string;
  workspace_id: string;
  user_id: string;
  token_hash: string;
  csrf_secret: string;
  created_at: Date;
  /** Written at most once a minute (see SESSION_TOUCH_MS); the idle expiry counts from it. */
  last_seen_at: Date;
  /** The absolute expiry: no activity keeps a session past it. */
  expires_at: Date;
  /**
   * Set when a password sign-in in a workspace that requires two-factor found the user without one:
   * until they set one up, the session reaches only the setup routes (http/authorize.ts). Present only
   * when true (stores leave it out otherwise, as on sessions stored before it existed).
   */
  two_factor_setup?: true;
}

/** Where sessions are kept. Adapters: store/sqlite/sessions.ts, store/mongo/sessions.ts. */
export interface SessionStore {
  insertSession(session: Session): Promise<void>;
  findSessionByHash(tokenHash: string): Promise<Session | null>;
  /** Moves last_seen_at forward to `at` (never back). */
  touchSession(id: string, at: Date): Promise<void>;
  /** Ends one session (sign-out). */
  deleteSession(id: string): Promise<void>;
  /**
   * Atomically: sets the user's password hash, ends every session of the user and starts `next` (the
   * caller's fresh one). False, changing nothing, when there is no such user.
   */
  changePassword(input: {
    workspace_id: string;
    user_id: string;
    password_hash: string;
    next: Session;
  }): Promise<boolean>;
  /** Deletes up to `limit` sessions past their absolute expiry at `now` or unseen since `idleBefore`. */
  pruneSessions(now: Date, idleBefore: Date, limit: number): Promise<number>;
}

/** What the session functions need from the store: sessions, and users to check passwords against. */
export type SessionDeps = SessionStore & {
  getUser(workspaceId: string, id: string): Promise<User | null>;
  getUserByEmail(workspaceId: string, email: string): Promise<User | null>;
};

export interface SessionLifetimes {
  idleMs: number;
  absoluteMs: number;
}

/** last_seen_at is written at most this often per session, not once a request. */
export const SESSION_TOUCH_MS = 60_000;
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;

export const SESSION_MESSAGES = {
  badCredentials: 'Email or password is incorrect.',
  noSession: 'Your session has ended; sign in again.',
  otherWorkspace: 'This session belongs to another workspace; sign in here.',
  csrf: 'This request needs the X-CSRF-Token header of your session (a cross-site request is refused).',
  wrongPassword: 'The current password is not correct.',
} as const;

const tokens = new Tokens();

export const signInInput = z.strictObject({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(PASSWORD_MAX),
});

export const changePasswordInput = z.strictObject({
  current_password: z.string().min(1).max(PASSWORD_MAX),
  new_password: z.string().min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`).max(PASSWORD_MAX),
});

/** A fresh session and its token (256 random bits, `ls.` prefix); only the token's hash is stored. */
export const mintSession = (
  workspaceId: string,
  userId: string,
  now: Date,
  life: SessionLifetimes,
  twoFactorSetup = false,
) => {
  const token = randomToken('ls.');
  const session: Session = {
    id: newId(),
    workspace_id: workspaceId,
    user_id: userId,
    token_hash: hashSecret(token),
    csrf_secret: tokens.secretSync(),
    created_at: now,
    last_seen_at: now,
    expires_at: new Date(now.getTime() + life.absoluteMs),
    ...(twoFactorSetup ? { two_factor_setup: true as const } : {}),
  };
  return { session, token };
};

/** A hash to verify against when the email is unknown, so the answer takes as long either way. */
let dummyHash: Promise<string> | undefined;
const dummy = () => {
  dummyHash ??= hashPassword(randomToken(''));
  return dummyHash;
};

/** What a sign-in needs from the store: sessions and users, devices and sign-in activity, second factors. */
export type SignInDeps = SessionDeps &
  SignInStore &
  Pick<SecondFactorStore, 'getSecondFactors' | 'insertChallenge' | 'getWorkspaceSecurity'>;

/** Who is signing in, and the limits they are held to (domain/access/sign-in-guard.ts). */
export interface SignInClient {
  /** The client address (the forwarded one when a proxy is trusted). */
  address: string;
  /** The token of the browser's device cookie, if it sent one. */
  deviceToken: string | undefined;
  guard: SignInGuard;
  /** Where an error in recording a failed sign-in goes: that write is not waited for (see below). */
  onError(err: unknown): void;
}

/**
 * Email and password → a new session and a new device token for the browser, or, for a user with a
 * second factor, a challenge to finish with it (domain/access/second-factor.ts; no session yet). Unknown
 * email, no password set and a wrong password all get the same 401 after the same scrypt work (no
 * account enumeration); the failure of a known account is recorded for its owner without waiting for
 * the write, so the answer takes no longer for it. The guard is asked first and may refuse with 429.
 */
export const signIn = async (
  store: SignInDeps,
  workspace: Workspace,
  input: unknown,
  now: Date,
  life: SessionLifetimes,
  client: SignInClient,
) => {
  const { email, password } = parseOrThrow(signInInput, input);
  const user = await store.getUserByEmail(workspace.id, email.toLowerCase());
  const device = await knownDevice(store, client.deviceToken, workspace, user, now);
  const attempt = {
    account: `${workspace.id}:${email.toLowerCase()}`,
    address: client.address,
    device: device?.id ?? null,
  };
  client.guard.admit(attempt, now.getTime());
  const stored = user?.password_hash ?? (await dummy());
  const ok = await verifyPassword(password, stored);
  if (!user?.password_hash || !ok) {
    if (user) store.recordFailedSignIn(workspace.id, user.id, now, client.address).catch(client.onError);
    throw new AppError('unauthorized', SESSION_MESSAGES.badCredentials);
  }
  client.guard.succeeded(attempt, now.getTime());
  const factors = await store.getSecondFactors(workspace.id, user.id);
  const methods = secondFactorMethods(factors);
  if (methods.length > 0)
    return {
      kind: 'second_factor' as const,
      methods,
      challenge: await openChallenge(store, workspace.id, user.id, now),
    };
  const setup = !hasSecondFactor(factors) && (await store.getWorkspaceSecurity(workspace.id)).require_2fa;
  return { kind: 'session' as const, ...(await finishSignIn(store, user, device, now, life, setup)) };
};

/**
 * The end of every sign-in with Lookout's own credentials: a new session (marked when the user must
 * still set up a second factor), the user's sign-in recorded, and a new device token for the browser
 * replacing the one it presented.
 */
export const finishSignIn = async (
  store: Pick<SessionStore, 'insertSession'> & Pick<SignInStore, 'recordSignIn'>,
  user: User,
  device: SignInDevice | null,
  now: Date,
  life: SessionLifetimes,
  twoFactorSetup = false,
) => {
  const minted = mintSession(user.workspace_id, user.id, now, life, twoFactorSetup);
  await store.insertSession(minted.session);
  const next = mintDevice(user.workspace_id, user.id, now);
  await store.recordSignIn({
    workspace_id: user.workspace_id,
    user_id: user.id,
    at: now,
    device: next.device,
    replaces: device?.id ?? null,
    keep: DEVICES_KEPT,
  });
  return { ...minted, user, csrfToken: csrfToken(minted.session), device: next };
};

export const sessionExpired = (s: Session, now: Date, life: SessionLifetimes) =>
  s.expires_at.getTime() <= now.getTime() || s.last_seen_at.getTime() + life.idleMs <= now.getTime();

/**
 * The session behind a cookie's token, in the workspace the request is addressed to, with its user's
 * current role. Every refusal is a 401.
 */
export const authenticateSession = async (
  store: SessionDeps,
  token: string,
  workspace: Workspace | null,
  now: Date,
  life: SessionLifetimes,
): Promise<{ session: Session; user: User }> => {
  const hash = hashSecret(token);
  const session = await store.findSessionByHash(hash);
  if (!session || !digestsEqual(session.token_hash, hash) || sessionExpired(session, now, life))
    throw new AppError('unauthorized', SESSION_MESSAGES.noSession);
  if (!workspace || session.workspace_id !== workspace.id)
    throw new AppError('unauthorized', SESSION_MESSAGES.otherWorkspace);
  const user = await store.getUser(workspace.id, session.user_id);
  if (!user) throw new AppError('unauthorized', SESSION_MESSAGES.noSession);
  if (now.getTime() - session.last_seen_at.getTime() >= SESSION_TOUCH_MS)
    await store.touchSession(session.id, now);
  return { session, user };
};

/** A CSRF token for the session (a new salt each time; every one verifies against the session's secret). */
export const csrfToken = (session: Session) => tokens.create(session.csrf_secret);

export const checkCsrf = (session: Session, token: string | undefined) => {
  if (!token || !tokens.verify(session.csrf_secret, token))
    throw new AppError('forbidden', SESSION_MESSAGES.csrf);
};

/**
 * Checks the current password, stores the new one, ends every session of the user (other browsers
 * included) and returns a fresh session for the caller, so this browser stays signed in on a new token.
 */
export const changePassword = async (
  store: SessionDeps,
  user: User,
  input: unknown,
  now: Date,
  life: SessionLifetimes,
  twoFactorSetup = false,
) => {
  const { current_password, new_password } = parseOrThrow(changePasswordInput, input);
  if (!user.password_hash || !(await verifyPassword(current_password, user.password_hash)))
    throw new AppError('validation_failed', 'The request has invalid fields.', [
      { field: 'current_password', message: SESSION_MESSAGES.wrongPassword },
    ]);
  const minted = mintSession(user.workspace_id, user.id, now, life, twoFactorSetup);
  const changed = await store.changePassword({
    workspace_id: user.workspace_id,
    user_id: user.id,
    password_hash: await hashPassword(new_password),
    next: minted.session,
  });
  if (!changed) throw new AppError('unauthorized', SESSION_MESSAGES.noSession);
  return { ...minted, csrfToken: csrfToken(minted.session) };
};
