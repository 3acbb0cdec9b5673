import type { ContactMethod, ContactMethodStore } from '../../domain/contacts/contact-method-store.js';
import type { SqliteContext } from './db.js';
import { insertSql, type Table, toRow } from './tables.js';

/**
 * Layout of the contact_methods table (created by migrations/0021-contact-methods.ts,
 * frozen SQL): the pending verification in columns of its own (`code_*`), so its times stay dates.
 */
export const contactMethods: Table = {
  name: 'contact_methods',
  columns: {
    id: 'text',
    workspace_id: 'text',
    user_id: 'text',
    type: 'text',
    address: 'json',
    verified_at: 'date',
    code_hash: 'text',
    code_sent_at: 'date',
    code_expires_at: 'date',
    code_failed_attempts: 'int',
    created_at: 'date',
    version: 'int',
  },
};

type Flat = Omit<ContactMethod, 'verification'> & {
  code_hash: string | null;
  code_sent_at: Date | null;
  code_expires_at: Date | null;
  code_failed_attempts: number | null;
};

const flat = ({ verification: v, ...m }: ContactMethod): Flat => ({
  ...m,
  code_hash: v?.code_hash ?? null,
  code_sent_at: v?.sent_at ?? null,
  code_expires_at: v?.expires_at ?? null,
  code_failed_attempts: v?.failed_attempts ?? null,
});

const record = ({
  code_hash,
  code_sent_at,
  code_expires_at,
  code_failed_attempts,
  ...m
}: Flat): ContactMethod => ({
  ...m,
  verification:
    code_hash && code_sent_at && code_expires_at
      ? {
          code_hash,
          sent_at: code_sent_at,
          expires_at: code_expires_at,
          failed_attempts: code_failed_attempts ?? 0,
        }
      : null,
});

/** Users' contact methods in SQLite; an update is compare-and-set on `version`. */
/**
 * At most this many ended counters are deleted per code asked for: far more than end between two
 * codes, so the table stays small without one request paying for a backlog.
 */
const PRUNE_BATCH = 200;

export const sqliteContactMethods = ({ st, one, many, immediate }: SqliteContext): ContactMethodStore => ({
  async listContactMethods(workspaceId, userId) {
    return many<Flat>(
      contactMethods,
      'SELECT * FROM contact_methods WHERE workspace_id = ? AND user_id = ? ORDER BY created_at, id',
      workspaceId,
      userId,
    ).map(record);
  },
  async getContactMethod(workspaceId, userId, id) {
    const row = one<Flat>(
      contactMethods,
      'SELECT * FROM contact_methods WHERE id = ? AND workspace_id = ? AND user_id = ?',
      id,
      workspaceId,
      userId,
    );
    return row ? record(row) : null;
  },
  async insertContactMethod(method) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(() => {
      st(insertSql(contactMethods)).run(toRow(contactMethods, flat(method)));
    });
  },
  async updateContactMethod(method) {
    const row = toRow(contactMethods, flat(method));
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(
      () =>
        st(
          `UPDATE contact_methods SET address = @address, verified_at = @verified_at, code_hash = @code_hash,
           code_sent_at = @code_sent_at, code_expires_at = @code_expires_at,
           code_failed_attempts = @code_failed_attempts, version = version + 1
         WHERE id = @id AND workspace_id = @workspace_id AND user_id = @user_id AND version = @version`,
        ).run(row).changes === 1,
    );
  },
  async deleteContactMethod(workspaceId, userId, id) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(() => {
      return (
        st('DELETE FROM contact_methods WHERE id = ? AND workspace_id = ? AND user_id = ?').run(
          id,
          workspaceId,
          userId,
        ).changes === 1
      );
    });
  },
  async deleteUserContactMethods(workspaceId, userId) {
    return st('DELETE FROM contact_methods WHERE workspace_id = ? AND user_id = ?').run(workspaceId, userId)
      .changes;
  },
  // One IMMEDIATE transaction: read every counter, then take from all or none (processes sharing the
  // file take turns).
  async takeSendAllowance(allowances, now) {
    return immediate(() => {
      st(
        `DELETE FROM code_send_counters WHERE key IN
           (SELECT key FROM code_send_counters WHERE expires_at <= ? LIMIT ${PRUNE_BATCH})`,
      ).run(now.getTime());
      for (const a of allowances) {
        const row = st('SELECT n FROM code_send_counters WHERE key = ?').get(a.key) as
          | { n: number }
          | undefined;
        if ((row?.n ?? 0) >= a.limit) return a;
      }
      for (const a of allowances)
        st(
          `INSERT INTO code_send_counters (key, n, expires_at) VALUES (?, 1, ?)
             ON CONFLICT (key) DO UPDATE SET n = n + 1`,
        ).run(a.key, a.expires_at.getTime());
      return null;
    });
  },
});
