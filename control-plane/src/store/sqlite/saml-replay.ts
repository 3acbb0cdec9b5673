import type { SamlReplayStore } from '../../domain/access/saml-replay-store.js';
import type { SqliteContext } from './db.js';

/**
 * Accepted SAML assertions in SQLite: `INSERT … ON CONFLICT DO NOTHING` on the primary key is the
 * replay check (one statement, so two processes on one file record an assertion once); pruned through
 * the index on the expiry.
 */
export const sqliteSamlReplay = ({ st }: SqliteContext): SamlReplayStore => ({
  async rememberSamlAssertion(seen) {
    return (
      st(
        `INSERT INTO saml_assertions (workspace_id, issuer, assertion_id, expires_at) VALUES (?, ?, ?, ?)
           ON CONFLICT DO NOTHING`,
      ).run(seen.workspace_id, seen.issuer, seen.assertion_id, seen.expires_at.getTime()).changes === 1
    );
  },
  async pruneSamlAssertions(now, limit) {
    return st(
      `DELETE FROM saml_assertions WHERE rowid IN (SELECT rowid FROM saml_assertions WHERE expires_at < ? LIMIT ?)`,
    ).run(now.getTime(), limit).changes;
  },
});
