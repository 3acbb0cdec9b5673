import type {
  IncidentMailEvent,
  StatusSubscriber,
  StatusSubscriberStore,
  SubscriberMail,
} from '../../domain/status-pages/subscriber-store.js';
import type { SqliteContext } from './db.js';
import { insertSql, statusMailEvents, statusMailOutbox, statusSubscribers, toRow } from './tables.js';

/** The mail event of an incident update, stored in the caller's transaction (status-pages.ts). */
export const insertMailEventSql = insertSql(statusMailEvents);
export const mailEventRow = (e: IncidentMailEvent) => toRow(statusMailEvents, e);

/** Subscribers, the incident mail events and the outbox in SQLite. */
export const sqliteStatusSubscribers = ({
  st,
  one,
  many,
  page,
  immediate,
}: SqliteContext): StatusSubscriberStore => {
  const byId = (id: string) =>
    one<StatusSubscriber>(statusSubscribers, 'SELECT * FROM status_subscribers WHERE id = ?', id);
  return {
    async addSubscriber(s) {
      return immediate(() => {
        st(`${insertSql(statusSubscribers).replace('INSERT', 'INSERT OR IGNORE')}`).run(
          toRow(statusSubscribers, s),
        );
        return one<StatusSubscriber>(
          statusSubscribers,
          'SELECT * FROM status_subscribers WHERE page_id = ? AND email = ?',
          s.page_id,
          s.email,
        )!;
      });
    },
    async getSubscriber(workspaceId, pageId, id) {
      return one<StatusSubscriber>(
        statusSubscribers,
        'SELECT * FROM status_subscribers WHERE workspace_id = ? AND page_id = ? AND id = ?',
        workspaceId,
        pageId,
        id,
      );
    },
    async getSubscriberByUnsubscribeHash(hash) {
      return one<StatusSubscriber>(
        statusSubscribers,
        'SELECT * FROM status_subscribers WHERE unsubscribe_hash = ?',
        hash,
      );
    },
    async getSubscriberByConfirmHash(hash) {
      return one<StatusSubscriber>(
        statusSubscribers,
        'SELECT * FROM status_subscribers WHERE confirm_hash = ?',
        hash,
      );
    },
    async requestConfirmation(subscriberId, now, since, mail, budget) {
      return immediate(() => {
        const b = st('SELECT window_start, count FROM status_recipient_budgets WHERE recipient = ?').get(
          budget.key,
        ) as { window_start: number; count: number } | undefined;
        const fresh = !b || b.window_start < budget.windowStart.getTime();
        if (!fresh && b.count >= budget.max) return false;
        const moved = st(
          `UPDATE status_subscribers SET confirm_sent_at = ? WHERE id = ? AND status = 'pending'
             AND (confirm_sent_at IS NULL OR confirm_sent_at < ?)`,
        ).run(now.getTime(), subscriberId, since.getTime()).changes;
        if (moved !== 1) return false;
        if (fresh)
          st(
            `INSERT INTO status_recipient_budgets (recipient, window_start, count) VALUES (?, ?, 1)
               ON CONFLICT (recipient) DO UPDATE SET window_start = excluded.window_start, count = 1`,
          ).run(budget.key, now.getTime());
        else st('UPDATE status_recipient_budgets SET count = count + 1 WHERE recipient = ?').run(budget.key);
        st(insertSql(statusMailOutbox).replace('INSERT', 'INSERT OR REPLACE')).run(
          toRow(statusMailOutbox, mail),
        );
        return true;
      });
    },
    async setConfirmToken(subscriberId, hash, expiresAt) {
      return (
        st(
          `UPDATE status_subscribers SET confirm_hash = ?, confirm_expires_at = ?
             WHERE id = ? AND status = 'pending'`,
        ).run(hash, expiresAt.getTime(), subscriberId).changes === 1
      );
    },
    async confirmSubscriber(confirmHash, pageId, now) {
      return immediate(() => {
        const s = one<StatusSubscriber>(
          statusSubscribers,
          `SELECT * FROM status_subscribers WHERE confirm_hash = ? AND page_id = ? AND status = 'pending'
             AND confirm_expires_at > ?`,
          confirmHash,
          pageId,
          now.getTime(),
        );
        if (!s) return null;
        st(
          `UPDATE status_subscribers SET status = 'confirmed', confirmed_at = ?, confirm_hash = NULL,
             confirm_expires_at = NULL WHERE id = ?`,
        ).run(now.getTime(), s.id);
        return byId(s.id);
      });
    },
    async deleteSubscriber(workspaceId, pageId, id) {
      return immediate(() => {
        const gone =
          st('DELETE FROM status_subscribers WHERE workspace_id = ? AND page_id = ? AND id = ?').run(
            workspaceId,
            pageId,
            id,
          ).changes === 1;
        if (gone) st('DELETE FROM status_mail_outbox WHERE subscriber_id = ?').run(id);
        return gone;
      });
    },
    async listSubscribers(workspaceId, pageId, q) {
      return page<StatusSubscriber>(
        statusSubscribers,
        ['page_id = ?', 'workspace_id = ?'],
        [pageId, workspaceId],
        q,
      );
    },
    async countSubscribers(workspaceId, pageId) {
      return st(
        `SELECT count(*) FROM status_subscribers WHERE page_id = ? AND workspace_id = ?
             AND status = 'confirmed'`,
      )
        .pluck()
        .get(pageId, workspaceId) as number;
    },
    async prunePendingSubscribers(before, limit) {
      return immediate(() => {
        const ids = st(
          `SELECT id FROM status_subscribers WHERE status = 'pending' AND created_at < ? LIMIT ?`,
        )
          .pluck()
          .all(before.getTime(), limit) as string[];
        for (const id of ids) {
          st('DELETE FROM status_subscribers WHERE id = ?').run(id);
          st('DELETE FROM status_mail_outbox WHERE subscriber_id = ?').run(id);
        }
        return ids.length;
      });
    },
    async pruneRecipientBudgets(before, limit) {
      return st(
        `DELETE FROM status_recipient_budgets WHERE recipient IN
           (SELECT recipient FROM status_recipient_budgets WHERE window_start < ? LIMIT ?)`,
      ).run(before.getTime(), limit).changes;
    },

    async listMailEvents(limit) {
      return many<IncidentMailEvent>(
        statusMailEvents,
        'SELECT * FROM status_mail_events ORDER BY created_at, id LIMIT ?',
        limit,
      );
    },
    async fanOutMailEvent(e, now) {
      return immediate(() => {
        const n = st(
          `INSERT OR IGNORE INTO status_mail_outbox (id, workspace_id, page_id, subscriber_id, kind,
             incident_id, update_id, due_at, attempts, created_at)
           SELECT id || ':' || @update, workspace_id, page_id, id, 'incident', @incident, @update, @now, 0, @now
             FROM status_subscribers WHERE page_id = @page AND workspace_id = @ws AND status = 'confirmed'
             AND confirmed_at <= @at`,
        ).run({
          update: e.id,
          incident: e.incident_id,
          now: now.getTime(),
          page: e.page_id,
          ws: e.workspace_id,
          at: e.created_at.getTime(),
        }).changes;
        st('DELETE FROM status_mail_events WHERE id = ?').run(e.id);
        return n;
      });
    },
    async listDueMails(now, limit) {
      return many<SubscriberMail>(
        statusMailOutbox,
        'SELECT * FROM status_mail_outbox WHERE due_at <= ? ORDER BY due_at, id LIMIT ?',
        now.getTime(),
        limit,
      );
    },
    async claimMail(m, until) {
      return (
        st(
          'UPDATE status_mail_outbox SET due_at = ?, attempts = attempts + 1 WHERE id = ? AND due_at = ?',
        ).run(until.getTime(), m.id, m.due_at.getTime()).changes === 1
      );
    },
    async finishMail(id) {
      st('DELETE FROM status_mail_outbox WHERE id = ?').run(id);
    },
    async retryMail(id, dueAt) {
      st('UPDATE status_mail_outbox SET due_at = ? WHERE id = ?').run(dueAt.getTime(), id);
    },
  };
};
