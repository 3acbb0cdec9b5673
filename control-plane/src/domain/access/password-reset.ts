import { type FieldProblem, hashSecret, newId, randomToken } from '@lookout/shared';
import { z } from 'zod';
import { hashPassword } from '../tenancy/passwords.js';
import type { User, Workspace } from '../types.js';
import { parseOrThrow, problemsIn, throwIfProblems } from '../validation.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './sessions.js';
import { passwordRefused, type SsoStore } from './sso.js';

/**
 * Password reset by email. A request mints a link `<workspace URL>/reset-password?token=…`, valid
 * RESET_MINUTES, single use; the store keeps only the token's SHA-256. Taking it sets the password and
 * ends every session of the user in one store step.
 */
export interface PasswordReset {
  id: string;
  workspace_id: string;
  user_id: string;
  token_hash: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** Where resets are kept. Adapters: store/sqlite/password-resets.ts, store/mongo/password-resets.ts. */
export interface PasswordResetStore {
  /** Stores `reset` and deletes the user's older resets beyond the newest `keep` (this one counted). */
  insertPasswordReset(reset: PasswordReset, keep: number): Promise<void>;
  findPasswordResetByHash(tokenHash: string): Promise<PasswordReset | null>;
  /**
   * Atomically: takes the reset with this hash in this workspace if it is unused and not expired at
   * `now` (sets used_at), sets the user's password hash and ends every session of the user. Null,
   * changing nothing, when there is no such usable reset (or no such user).
   */
  completePasswordReset(input: {
    workspace_id: string;
    token_hash: string;
    password_hash: string;
    now: Date;
  }): Promise<{ user_id: string } | null>;
  /** Deletes up to `limit` resets that expired before `before` (used or not). */
  prunePasswordResets(before: Date, limit: number): Promise<number>;
}

/** What a reset reads of the workspace's SSO settings: enforced SSO turns reset off, but for break-glass users. */
export type SsoEnforcementLookup = Pick<SsoStore, 'getSsoSettings'>;

/** The mail a reset sends, through the workspace's SMTP server or else the deployment's. */
export interface AccountMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}
export type AccountMailer = (
  workspaceId: string,
  mail: AccountMail,
) => Promise<{ ok: boolean; permanent: boolean; error: string | null }>;

export const RESET_MINUTES = 30;
/** Resets kept per user: older ones are deleted when a new one is made, so their links stop working. */
export const RESETS_KEPT = 3;

export const RESET_MESSAGES = {
  badToken:
    'This reset link is not valid: it was already used, it expired (links work for 30 minutes), or it is incomplete. Ask for a new one from the sign-in page.',
  accepted: 'If an account exists for that address, we sent a link to reset its password.',
} as const;

export const passwordResetInput = z.strictObject({ email: z.email().max(320) });

export const confirmResetInput = z.strictObject({
  token: z.string().min(1).max(200),
  new_password: z.string().min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`).max(PASSWORD_MAX),
});

/** The email asked for, validated (422 naming the field); the rest happens in `sendPasswordReset`. */
export const parseResetRequest = (input: unknown) =>
  parseOrThrow(passwordResetInput, input).email.toLowerCase();

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The mail with the link: plain text and HTML saying the same. Pure, so its wording is tested alone. */
export const resetMail = (to: string, workspace: Workspace, link: string): AccountMail => {
  const name = workspace.name || workspace.subdomain;
  const lines = [
    `Someone asked to reset the password of ${to} in the ${name} workspace on Lookout.`,
    'To choose a new password, open this link:',
    link,
    `The link works once, for ${RESET_MINUTES} minutes. Setting a new password signs you out everywhere.`,
    'If you did not ask for this, ignore this email: your password stays as it is.',
  ];
  const [intro, open, , rule, ignore] = lines.map(escapeHtml);
  const href = escapeHtml(link);
  return {
    to,
    subject: `Reset your Lookout password (${name})`,
    text: `${lines.join('\n\n')}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5"><p>${intro}</p><p>${open}</p><p><a href="${href}">Reset your password</a></p><p style="word-break:break-all;color:#555">${href}</p><p>${rule}</p><p>${ignore}</p></body></html>`,
  };
};

/** Whether this user may reset their password: they have one, and SSO does not forbid it. */
const mayReset = async (sso: SsoEnforcementLookup, user: User | null): Promise<boolean> => {
  if (!user?.password_hash) return false;
  return !passwordRefused(await sso.getSsoSettings(user.workspace_id), user.id);
};

/** The page a reset link opens, on the workspace's base URL (no trailing slash). */
export const resetLink = (baseUrl: string, token: string) =>
  `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`;

/**
 * A new reset for `user`, valid RESET_MINUTES from `now`; their older ones beyond RESETS_KEPT go. The
 * token is returned once (the store keeps its hash). The admin CLI's `user reset-link` calls it too.
 */
export const mintPasswordReset = async (store: PasswordResetStore, user: User, now: Date) => {
  const token = randomToken('lr.');
  await store.insertPasswordReset(
    {
      id: newId(),
      workspace_id: user.workspace_id,
      user_id: user.id,
      token_hash: hashSecret(token),
      created_at: now,
      expires_at: new Date(now.getTime() + RESET_MINUTES * 60_000),
      used_at: null,
    },
    RESETS_KEPT,
  );
  return token;
};

/**
 * The work behind a reset request, run after the 202 has been answered (the caller does not wait, so
 * the answer takes as long whatever the address). Sends a link only to a user who has a password and
 * may use it (enforced SSO: break-glass users only). Returns what was done, for tests and logs.
 */
export const sendPasswordReset = async (
  deps: {
    store: PasswordResetStore & { getUserByEmail(workspaceId: string, email: string): Promise<User | null> };
    sso: SsoEnforcementLookup;
    send: AccountMailer;
    /** The workspace's base URL (no trailing slash). */
    baseUrl: string;
  },
  workspace: Workspace,
  email: string,
  now: Date,
): Promise<'sent' | 'skipped' | { failed: string }> => {
  const user = await deps.store.getUserByEmail(workspace.id, email);
  if (!user || !(await mayReset(deps.sso, user))) return 'skipped';
  const token = await mintPasswordReset(deps.store, user, now);
  const link = resetLink(deps.baseUrl, token);
  const r = await deps.send(workspace.id, resetMail(user.email, workspace, link));
  return r.ok ? 'sent' : { failed: r.error ?? 'not sent' };
};

const usable = (r: PasswordReset | null, workspace: Workspace, now: Date) =>
  !!r && r.workspace_id === workspace.id && !r.used_at && r.expires_at.getTime() > now.getTime();

/**
 * `{token, new_password}` → the password set and every session of the user ended, the token spent,
 * in one store step. A bad password and a bad token are named together in one 422; every kind of bad
 * token (unknown, used, expired, another workspace's) gets the same message.
 */
export const confirmPasswordReset = async (
  store: PasswordResetStore,
  workspace: Workspace,
  input: unknown,
  now: Date,
  /** Told whose reset it is once the token is found usable, before the store step (the audit entry's user). */
  onUser?: (userId: string) => Promise<void>,
): Promise<{ user_id: string }> => {
  const parsed = problemsIn(confirmResetInput, input);
  const tokenProblem: FieldProblem = { field: 'token', message: RESET_MESSAGES.badToken };
  if (!parsed.data) {
    const problems = parsed.problems;
    const token = (input as { token?: unknown } | null)?.token;
    if (!problems.some((p) => p.field === 'token') && typeof token === 'string') {
      const found = await store.findPasswordResetByHash(hashSecret(token));
      if (!usable(found, workspace, now)) problems.push(tokenProblem);
    }
    throwIfProblems(problems);
    throw new Error('unreachable');
  }
  const { token, new_password } = parsed.data;
  const tokenHash = hashSecret(token);
  // A cheap look first: a made-up token costs no scrypt work. The take below still decides, atomically.
  const found = await store.findPasswordResetByHash(tokenHash);
  if (!found || !usable(found, workspace, now)) throwIfProblems([tokenProblem]);
  await onUser?.(found!.user_id);
  const done = await store.completePasswordReset({
    workspace_id: workspace.id,
    token_hash: tokenHash,
    password_hash: await hashPassword(new_password),
    now,
  });
  if (!done) throwIfProblems([tokenProblem]);
  return done!;
};
