import { groupDueAt } from '../../domain/escalation/group-window.js';
import type {
  GroupedItem,
  NotificationGroup,
  NotificationGroupStore,
} from '../../domain/escalation/notification-group-store.js';
import type { SqliteContext } from './db.js';
import { insertSql, type Table, toRow } from './tables.js';

/** Layouts of the two tables (created by migrations/0035-grouped-notifications-and-support-hours.ts, frozen SQL). */
export const notificationGroups: Table = {
  name: 'notification_groups',
  columns: {
    id: 'text',
    workspace_id: 'text',
    policy_id: 'text',
    recipient_key: 'text',
    due_at: 'date',
    last_flush_at: 'date',
    claim: 'text',
    updated_at: 'date',
  },
};

/** The notifications waiting in a group, deleted once sent. */
export const notificationGroupItems: Table = {
  name: 'notification_group_items',
  columns: {
    id: 'text',
    workspace_id: 'text',
    group_id: 'text',
    alert_id: 'text',
    event: 'text',
    step: 'int',
    round: 'int',
    created_at: 'date',
  },
};

/**
 * Grouped notifications in SQLite: the groups (due ones by a partial index on `due_at`) and their
 * waiting items (by group, oldest first). Queueing and finishing are each one IMMEDIATE transaction,
 * so an item queued while a flush runs always leaves its group due.
 */
export const sqliteNotificationGroups = ({
  st,
  one,
  many,
  immediate,
}: SqliteContext): NotificationGroupStore => {
  const get = (id: string) =>
    one<NotificationGroup>(notificationGroups, 'SELECT * FROM notification_groups WHERE id = ?', id);
  return {
    async queueGroupedItem(item, group, { now, waitMs, intervalMs }) {
      return immediate(() => {
        const added = st(`${insertSql(notificationGroupItems)} ON CONFLICT(id) DO NOTHING`).run(
          toRow(notificationGroupItems, item),
        );
        if (added.changes === 0) return false;
        const g = get(item.group_id);
        const t = now.getTime();
        if (!g) {
          st(insertSql(notificationGroups)).run(
            toRow(notificationGroups, {
              id: item.group_id,
              workspace_id: item.workspace_id,
              policy_id: group.policy_id,
              recipient_key: group.recipient_key,
              due_at: groupDueAt(null, now, { waitMs, intervalMs }),
              last_flush_at: null,
              claim: null,
              updated_at: now,
            } satisfies NotificationGroup),
          );
        } else if (!g.due_at) {
          st('UPDATE notification_groups SET due_at = ?, updated_at = ? WHERE id = ?').run(
            groupDueAt(g, now, { waitMs, intervalMs }).getTime(),
            t,
            g.id,
          );
        }
        return true;
      });
    },
    async listDueGroups(at, limit) {
      return many<NotificationGroup>(
        notificationGroups,
        'SELECT * FROM notification_groups WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at LIMIT ?',
        at.getTime(),
        limit,
      );
    },
    async claimGroup(id, expectedDueAt, claim, leaseUntil) {
      return immediate(() => {
        const r = st('UPDATE notification_groups SET claim = ?, due_at = ? WHERE id = ? AND due_at = ?').run(
          claim,
          leaseUntil.getTime(),
          id,
          expectedDueAt.getTime(),
        );
        return r.changes === 1 ? get(id) : null;
      });
    },
    async listGroupItems(id, limit) {
      return many<GroupedItem>(
        notificationGroupItems,
        'SELECT * FROM notification_group_items WHERE group_id = ? ORDER BY created_at, id LIMIT ?',
        id,
        limit,
      );
    },
    async finishGroup(id, claim, { itemIds, at, intervalMs }) {
      return immediate(() => {
        const g = get(id);
        if (!g || g.claim !== claim) return false;
        const del = st('DELETE FROM notification_group_items WHERE id = ? AND group_id = ?');
        for (const itemId of itemIds) del.run(itemId, id);
        const waiting = st('SELECT 1 FROM notification_group_items WHERE group_id = ? LIMIT 1').get(id);
        st(
          'UPDATE notification_groups SET claim = NULL, last_flush_at = ?, due_at = ?, updated_at = ? WHERE id = ?',
        ).run(at.getTime(), waiting ? at.getTime() + intervalMs : null, at.getTime(), id);
        return true;
      });
    },
    async pruneNotificationGroups(before, limit) {
      return st(
        `DELETE FROM notification_groups WHERE id IN (SELECT id FROM notification_groups
           WHERE due_at IS NULL AND last_flush_at < ? LIMIT ?)`,
      ).run(before.getTime(), limit).changes;
    },
  };
};
