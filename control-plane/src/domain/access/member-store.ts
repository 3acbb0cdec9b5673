import type { Role, User } from '../types.js';
import type { Session } from './sessions.js';

/**
 * A one-time link to set a password and join a workspace. The token lives only in the link; the
 * store keeps its SHA-256. Used once (`used_at`), valid until `expires_at`.
 */
export interface Invitation {
  id: string;
  workspace_id: string;
  user_id: string;
  token_hash: string;
  /** The admin who invited. */
  created_by: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/**
 * A workspace's members as admins manage them: invitations, role changes and removal. Every method
 * is one atomic step. An "active admin" is an admin who has a password (an invited admin who never
 * accepted cannot act yet), and no step may leave a workspace without one.
 * Adapters: store/sqlite/members.ts, store/mongo/members.ts; contract test/contract/members.ts.
 */
export interface MemberStore {
  /**
   * Invites by email: inserts `user` (no password) with `invitation`, or, when a user with that email
   * exists and has never set a password, gives it `user.role` and this invitation instead of its
   * earlier ones (the invitation is stored with that user's id). 'email_taken' when the email belongs to
   * a user with a password.
   */
  inviteUser(
    user: User,
    invitation: Invitation,
  ): Promise<{ outcome: 'invited'; user: User; invitation: Invitation } | { outcome: 'email_taken' }>;
  findInvitationByHash(tokenHash: string): Promise<Invitation | null>;
  /** The newest invitation of each of these users that is not used yet (expired ones included). */
  listOpenInvitations(workspaceId: string, userIds: string[]): Promise<Invitation[]>;
  /**
   * Atomically: marks the invitation used (only if unused and unexpired at `now`), sets its user's
   * password, deletes the user's other invitations and inserts `session` (the invitee is signed in).
   */
  acceptInvitation(input: {
    invitation_id: string;
    password_hash: string;
    session: Session;
    now: Date;
  }): Promise<'accepted' | 'used' | 'expired' | 'unknown'>;
  /** Sets the role, unless that would leave the workspace without an active admin. */
  changeUserRole(
    workspaceId: string,
    id: string,
    role: Role,
  ): Promise<'changed' | 'not_found' | 'last_admin'>;
  /**
   * In one step: deletes the user, their sessions and invitations, revokes their API keys at `now`
   * (so both stop working at once) and takes them out of the escalation steps that name them
   * (`withoutUser` in escalation-policies.ts: `updated_at` = now; `policies` lists those policies), and
   * out of the on-call schedules (`schedulesWithoutUser` in domain/oncall/schedule-removal.ts: layers
   * rewritten, their future overrides and open offers gone, a `user_removed` history entry each).
   * Refused when the user is the workspace's last active admin, or when some step notifies only them
   * (`only_target`, naming those policies; nothing changes).
   */
  removeUser(workspaceId: string, id: string, now: Date): Promise<RemoveUserOutcome>;
}

export type RemoveUserOutcome =
  | {
      outcome: 'removed';
      policies: { id: string; name: string }[];
      /**
       * The on-call schedules that named them, rewritten in the same step (domain/oncall/
       * schedule-removal.ts), with the 1-based numbers of the layers now left with no users.
       */
      schedules: { id: string; name: string; empty_layers: number[] }[];
    }
  | { outcome: 'not_found' }
  | { outcome: 'last_admin' }
  | { outcome: 'only_target'; policies: PolicyNeedingUser[] };

/** A policy that removing a user would leave with a step notifying no one: removal is refused. */
export interface PolicyNeedingUser {
  id: string;
  name: string;
  /** 1-based numbers of the steps that notify only this user. */
  steps: number[];
}
