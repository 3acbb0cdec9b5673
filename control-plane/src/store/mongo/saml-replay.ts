import type { SamlReplayStore } from '../../domain/access/saml-replay-store.js';
import { deleteSome, type IndexDecl, isDuplicate, type MongoContext } from './db.js';

/**
 * Accepted SAML assertions in MongoDB (`saml_assertions`): `_id` is workspace|issuer|assertion id, so
 * `insertOne` is the atomic insert-if-absent (a duplicate key error, code 11000, means a replay, on any
 * replica). Pruned through the index on the expiry.
 */
export const samlReplayIndexes: IndexDecl[] = [{ on: 'samlAssertions', key: { expires_at: 1 } }];

export const mongoSamlReplay = ({ col }: MongoContext): SamlReplayStore => ({
  async rememberSamlAssertion(seen) {
    try {
      await col.samlAssertions.insertOne({
        _id: `${seen.workspace_id}|${seen.issuer}|${seen.assertion_id}`,
        workspace_id: seen.workspace_id,
        issuer: seen.issuer,
        assertion_id: seen.assertion_id,
        expires_at: seen.expires_at,
      });
      return true;
    } catch (e) {
      if (isDuplicate(e)) return false;
      throw e;
    }
  },
  async pruneSamlAssertions(now, limit) {
    return deleteSome(col.samlAssertions, { expires_at: { $lt: now } }, limit);
  },
});
