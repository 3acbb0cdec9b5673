import type { Invitation, MemberStore, RemoveUserOutcome } from '../../domain/access/member-store.js';
import { withoutUser } from '../../domain/escalation/escalation-policies.js';
import { schedulesWithoutUser } from '../../domain/oncall/schedule-removal.js';
import { reviveLayers, type ShiftOffer } from '../../domain/oncall/schedule-store.js';
import type { EscalationPolicy, Schedule, ScheduleOverride, User } from '../../domain/types.js';
import type { SqliteContext } from './db.js';
import {
  insertSql,
  policies,
  scheduleHistory,
  scheduleOverrides,
  schedules,
  sessions,
  shiftOffers,
  type Table,
  toRow,
  updateSql,
  users,
} from './tables.js';

/** Layout of the invitations table (created by migrations/0009-invitations.ts, frozen SQL). */
export const invitations: Table = {
  name: 'invitations',
  columns: {
    id: 'text',
    workspace_id: 'text',
    user_id: 'text',
    token_hash: 'text',
    created_by: 'text',
    created_at: 'date',
    expires_at: 'date',
    used_at: 'date',
  },
};

/** Admins other than `id` who can act (have a password): the last-admin rule counts these. */
const OTHER_ACTIVE_ADMINS = `SELECT count(*) n FROM users
  WHERE workspace_id = ? AND id != ? AND role = 'admin' AND password_hash IS NOT NULL`;

/**
 * Invitations, role changes and removal in SQLite. Each is one IMMEDIATE transaction (the file's write
 * lock first), so two admins demoting each other at once serialize and the second finds the rule broken.
 */
export const sqliteMembers = ({ st, one, many, immediate }: SqliteContext): MemberStore => {
  const getUser = (workspaceId: string, id: string) =>
    one<User>(users, 'SELECT * FROM users WHERE workspace_id = ? AND id = ?', workspaceId, id);
  /** True when `user` is an active admin and no other active admin exists. */
  const isLastAdmin = (user: User) =>
    user.role === 'admin' &&
    user.password_hash !== null &&
    (st(OTHER_ACTIVE_ADMINS).get(user.workspace_id, user.id) as { n: number }).n === 0;
  /** Inside removeUser's transaction: the user leaves the schedules (domain/oncall/schedule-removal.ts). */
  const removeFromSchedules = (workspaceId: string, user: User, now: Date) => {
    const naming = many<Schedule>(
      schedules,
      `SELECT * FROM schedules s WHERE workspace_id = ? AND EXISTS (
         SELECT 1 FROM json_each(s.layers) l, json_each(l.value, '$.users') u WHERE u.value = ?)
       ORDER BY name_key, id`,
      workspaceId,
      user.id,
    ).map((s) => ({ ...s, layers: reviveLayers(s.layers) }));
    const overrides = many<ScheduleOverride>(
      scheduleOverrides,
      'SELECT * FROM schedule_overrides WHERE workspace_id = ? AND user_id = ? AND ends_at > ?',
      workspaceId,
      user.id,
      now.getTime(),
    );
    const offers = many<ShiftOffer>(
      shiftOffers,
      "SELECT * FROM shift_offers WHERE workspace_id = ? AND user_id = ? AND status = 'open'",
      workspaceId,
      user.id,
    );
    const r = schedulesWithoutUser({ user, naming, overrides, offers, now });
    const update = st('UPDATE schedules SET layers = ?, updated_at = ? WHERE id = ? AND workspace_id = ?');
    for (const s of r.updated) update.run(JSON.stringify(s.layers), now.getTime(), s.id, workspaceId);
    for (const o of r.deleteOverrideIds) st('DELETE FROM schedule_overrides WHERE id = ?').run(o);
    for (const o of r.endOverrideIds)
      st('UPDATE schedule_overrides SET ends_at = ? WHERE id = ?').run(now.getTime(), o);
    for (const o of r.deleteOfferIds) st('DELETE FROM shift_offers WHERE id = ?').run(o);
    const append = st(insertSql(scheduleHistory));
    for (const e of r.entries) append.run(toRow(scheduleHistory, e));
    return r.left;
  };

  return {
    async inviteUser(user, invitation) {
      return immediate(() => {
        const existing = one<User>(
          users,
          'SELECT * FROM users WHERE workspace_id = ? AND email = ?',
          user.workspace_id,
          user.email,
        );
        if (existing?.password_hash) return { outcome: 'email_taken' as const };
        let invited = user;
        if (existing) {
          st('UPDATE users SET role = ? WHERE id = ?').run(user.role, existing.id);
          st('DELETE FROM invitations WHERE user_id = ?').run(existing.id);
          invited = { ...existing, role: user.role };
        } else st(insertSql(users)).run(toRow(users, user));
        const inv = { ...invitation, user_id: invited.id };
        st(insertSql(invitations)).run(toRow(invitations, inv));
        return { outcome: 'invited' as const, user: invited, invitation: inv };
      });
    },
    async findInvitationByHash(tokenHash) {
      return one<Invitation>(invitations, 'SELECT * FROM invitations WHERE token_hash = ?', tokenHash);
    },
    async listOpenInvitations(workspaceId, userIds) {
      if (userIds.length === 0) return [];
      const open = many<Invitation>(
        invitations,
        `SELECT * FROM invitations WHERE workspace_id = ? AND used_at IS NULL
           AND user_id IN (SELECT value FROM json_each(?)) ORDER BY created_at DESC, id DESC`,
        workspaceId,
        JSON.stringify(userIds),
      );
      const newest = new Map<string, Invitation>();
      for (const i of open) if (!newest.has(i.user_id)) newest.set(i.user_id, i);
      return [...newest.values()];
    },
    async acceptInvitation({ invitation_id, password_hash, session, now }) {
      return immediate(() => {
        const inv = one<Invitation>(invitations, 'SELECT * FROM invitations WHERE id = ?', invitation_id);
        if (!inv) return 'unknown';
        if (inv.used_at) return 'used';
        if (inv.expires_at.getTime() <= now.getTime()) return 'expired';
        const set = st('UPDATE users SET password_hash = ? WHERE workspace_id = ? AND id = ?').run(
          password_hash,
          inv.workspace_id,
          inv.user_id,
        );
        if (set.changes !== 1) return 'unknown';
        st('UPDATE invitations SET used_at = ? WHERE id = ?').run(now.getTime(), inv.id);
        st('DELETE FROM invitations WHERE user_id = ? AND id != ?').run(inv.user_id, inv.id);
        st(insertSql(sessions)).run(toRow(sessions, session));
        return 'accepted';
      });
    },
    async changeUserRole(workspaceId, id, role) {
      return immediate(() => {
        const user = getUser(workspaceId, id);
        if (!user) return 'not_found';
        if (role !== 'admin' && isLastAdmin(user)) return 'last_admin';
        st('UPDATE users SET role = ? WHERE id = ?').run(role, id);
        return 'changed';
      });
    },
    async removeUser(workspaceId, id, now) {
      return immediate((): RemoveUserOutcome => {
        const user = getUser(workspaceId, id);
        if (!user) return { outcome: 'not_found' };
        if (isLastAdmin(user)) return { outcome: 'last_admin' };
        const naming = many<EscalationPolicy>(
          policies,
          `SELECT * FROM escalation_policies p WHERE workspace_id = ? AND EXISTS (
             SELECT 1 FROM json_each(p.steps) s, json_each(s.value, '$.notify_user_ids') u WHERE u.value = ?)
           ORDER BY name, id`,
          workspaceId,
          id,
        );
        const { blocking, updated } = withoutUser(naming, id, now);
        if (blocking.length > 0) return { outcome: 'only_target', policies: blocking };
        const update = st(updateSql(policies, 'id = @id AND workspace_id = @workspace_id'));
        for (const p of updated) update.run(toRow(policies, p));
        st('DELETE FROM sessions WHERE workspace_id = ? AND user_id = ?').run(workspaceId, id);
        st('DELETE FROM invitations WHERE user_id = ?').run(id);
        st('DELETE FROM sign_in_devices WHERE workspace_id = ? AND user_id = ?').run(workspaceId, id);
        st('DELETE FROM passkeys WHERE workspace_id = ? AND user_id = ?').run(workspaceId, id);
        st('DELETE FROM sign_in_activity WHERE workspace_id = ? AND user_id = ?').run(workspaceId, id);
        for (const t of ['totp_factors', 'recovery_codes', 'sign_in_challenges'])
          st(`DELETE FROM ${t} WHERE workspace_id = ? AND user_id = ?`).run(workspaceId, id);
        st(
          'UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND user_id = ? AND revoked_at IS NULL',
        ).run(now.getTime(), workspaceId, id);
        const left = removeFromSchedules(workspaceId, user, now);
        st('DELETE FROM users WHERE id = ?').run(id);
        return {
          outcome: 'removed',
          policies: updated.map((p) => ({ id: p.id, name: p.name })),
          schedules: left,
        };
      });
    },
  };
};
