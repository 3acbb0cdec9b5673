import type { AckLink, AckLinkStore } from '../../domain/alerts/ack-link-store.js';
import type { SqliteContext } from './db.js';
import { insertSql, type Table, toRow } from './tables.js';

/** Layout of the ack_links table (created by migrations/0020-ack-links.ts, `alert_ids` by 0034; frozen SQL). */
export const ackLinks: Table = {
  name: 'ack_links',
  columns: {
    id: 'text',
    workspace_id: 'text',
    alert_id: 'text',
    alert_ids: 'json',
    token_hash: 'text',
    user_id: 'text',
    channel_id: 'text',
    via: 'text',
    recipient: 'text',
    created_at: 'date',
    expires_at: 'date',
  },
};

/** Acknowledge links in SQLite: found by the token's hash (unique index), pruned by expiry. */
export const sqliteAckLinks = ({ st, one }: SqliteContext): AckLinkStore => ({
  async insertAckLink(link) {
    st(insertSql(ackLinks)).run(toRow(ackLinks, link));
  },
  async findAckLink(tokenHash) {
    return one<AckLink>(ackLinks, 'SELECT * FROM ack_links WHERE token_hash = ?', tokenHash);
  },
  async pruneAckLinks(before, limit) {
    return st(
      'DELETE FROM ack_links WHERE id IN (SELECT id FROM ack_links WHERE expires_at < ? LIMIT ?)',
    ).run(before.getTime(), limit).changes;
  },
});
