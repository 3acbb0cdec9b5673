import { AppError, digestsEqual, hashSecret, newId, randomToken } from '@lookout/shared';
import { z } from 'zod';
import type { ContactMethodStore } from '../contacts/contact-method-store.js';
import { hashPassword } from '../tenancy/passwords.js';
import { ROLES, type User, type Workspace } from '../types.js';
import { parseOrThrow } from '../validation.js';
import type { Invitation, MemberStore } from './member-store.js';
import {
  csrfToken,
  mintSession,
  PASSWORD_MAX,
  PASSWORD_MIN,
  type SessionDeps,
  type SessionLifetimes,
} from './sessions.js';

/** "a", "a and b", "a, b and c". */
const andList = (items: string[]) =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;

export const USER_MESSAGES = {
  notFound: 'User not found.',
  emailTaken: (email: string) => `${email} already has an account in this workspace.`,
  lastAdmin:
    'This is the last admin of the workspace: make another user an admin first (an invited admin counts once they have set a password).',
  onlyTarget: (policies: { name: string; steps: number[] }[]) => {
    const one = policies.length === 1 && policies[0]!.steps.length === 1;
    return `This user is the only one notified by ${andList(
      policies.map(
        (p) => `${p.steps.length === 1 ? 'step' : 'steps'} ${andList(p.steps.map(String))} of “${p.name}”`,
      ),
    )}. Add someone else to ${one ? 'that step' : 'those steps'} (or change the escalation ${policies.length === 1 ? 'policy' : 'policies'}) before removing them.`;
  },
  invitationUnknown:
    'This invitation link is not valid here. Check that you opened the whole link, or ask an admin of the workspace for a new one.',
  invitationUsed:
    'This invitation link has already been used. Sign in with your password, or ask an admin for a new link.',
  invitationExpired: `This invitation link has expired (links work for ${INVITATION_DAYS} days). Ask an admin of the workspace for a new one.`,
} as const;

export const inviteUserInput = z.strictObject({
  email: z.email().max(320),
  role: z.enum(ROLES),
});

export const changeRoleInput = z.strictObject({ role: z.enum(ROLES) });

export const acceptInvitationInput = z.strictObject({
  token: z.string().min(1).max(200),
  password: z.string().min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`).max(PASSWORD_MAX),
});

/** What the user functions need from the store: members, and users and sessions to sign the invitee in. */
export type UserDeps = MemberStore & SessionDeps;

/**
 * Invites `email` with `role`: a new user without a password (or the same not-yet-joined user again,
 * with a fresh link that replaces the old one) and a one-time token (`li.` + 256 random bits) valid
 * INVITATION_DAYS. The token is returned once; the store keeps its hash.
 */
export const inviteUser = async (
  store: MemberStore,
  workspace: Workspace,
  by: User,
  input: unknown,
  now: Date,
): Promise<{ user: User; invitation: Invitation; token: string }> => {
  const v = parseOrThrow(inviteUserInput, input);
  const user: User = {
    id: newId(),
    workspace_id: workspace.id,
    email: v.email.toLowerCase(),
    role: v.role,
    password_hash: null,
    created_at: now,
  };
  const token = randomToken('li.');
  const invitation: Invitation = {
    id: newId(),
    workspace_id: workspace.id,
    user_id: user.id,
    token_hash: hashSecret(token),
    created_by: by.id,
    created_at: now,
    expires_at: new Date(now.getTime() + INVITATION_DAYS * 86_400_000),
    used_at: null,
  };
  const r = await store.inviteUser(user, invitation);
  if (r.outcome === 'email_taken') throw new AppError('conflict', USER_MESSAGES.emailTaken(user.email));
  return { user: r.user, invitation: r.invitation, token };
};

/**
 * Token and a new password → the user's password is set and they are signed in (a fresh session), in
 * one store step. A link of another workspace is unknown here; a used or expired one is refused.
 */
export const acceptInvitation = async (
  store: UserDeps,
  workspace: Workspace,
  input: unknown,
  now: Date,
  life: SessionLifetimes,
) => {
  const { token, password } = parseOrThrow(acceptInvitationInput, input);
  const hash = hashSecret(token);
  const inv = await store.findInvitationByHash(hash);
  if (!inv || !digestsEqual(inv.token_hash, hash) || inv.workspace_id !== workspace.id)
    throw new AppError('not_found', USER_MESSAGES.invitationUnknown);
  if (inv.used_at) throw new AppError('conflict', USER_MESSAGES.invitationUsed);
  if (inv.expires_at.getTime() <= now.getTime())
    throw new AppError('conflict', USER_MESSAGES.invitationExpired);
  const minted = mintSession(workspace.id, inv.user_id, now, life);
  const outcome = await store.acceptInvitation({
    invitation_id: inv.id,
    password_hash: await hashPassword(password),
    session: minted.session,
    now,
  });
  if (outcome === 'used') throw new AppError('conflict', USER_MESSAGES.invitationUsed);
  if (outcome === 'expired') throw new AppError('conflict', USER_MESSAGES.invitationExpired);
  const user = outcome === 'accepted' ? await store.getUser(workspace.id, inv.user_id) : null;
  if (!user) throw new AppError('not_found', USER_MESSAGES.invitationUnknown);
  return { ...minted, user, csrfToken: csrfToken(minted.session) };
};

export const changeUserRole = async (store: UserDeps, workspaceId: string, id: string, input: unknown) => {
  const { role } = parseOrThrow(changeRoleInput, input);
  const r = await store.changeUserRole(workspaceId, id, role);
  if (r === 'not_found') throw new AppError('not_found', USER_MESSAGES.notFound);
  if (r === 'last_admin') throw new AppError('conflict', USER_MESSAGES.lastAdmin);
  const user = await store.getUser(workspaceId, id);
  if (!user) throw new AppError('not_found', USER_MESSAGES.notFound);
  return user;
};

/**
 * Removes a user (see MemberStore.removeUser): refused while they are the last active admin, or the
 * only one some escalation step notifies (409 naming those policies: a step left notifying no one
 * would be skipped without a word). From steps that notify others too they are taken out, in the same
 * step, and out of the on-call schedules that name them. Returns the policies and schedules changed
 * that way (each schedule with the layers it left with no users: a gap to fill, never a silent one).
 */
export const removeUser = async (
  store: MemberStore & ContactMethodStore,
  workspaceId: string,
  id: string,
  now: Date,
) => {
  const r = await store.removeUser(workspaceId, id, now);
  if (r.outcome === 'not_found') throw new AppError('not_found', USER_MESSAGES.notFound);
  if (r.outcome === 'last_admin') throw new AppError('conflict', USER_MESSAGES.lastAdmin);
  if (r.outcome === 'only_target')
    throw new AppError(
      'conflict',
      USER_MESSAGES.onlyTarget(r.policies),
      r.policies.map((p) => ({
        field: 'escalation_policies',
        message: `${p.id} (“${p.name}”): ${p.steps.length === 1 ? 'step' : 'steps'} ${andList(p.steps.map(String))} ${p.steps.length === 1 ? 'notifies' : 'notify'} only this user`,
      })),
    );
  // Their own ways to be reached go with them (nothing would send to them any more).
  await store.deleteUserContactMethods(workspaceId, id);
  return { policies: r.policies, schedules: r.schedules };
};
