import type { AckLink, AckLinkStore } from '../../domain/alerts/ack-link-store.js';
import { deleteSome, fromDoc, type IndexDecl, type MongoContext, toDoc } from './db.js';

/**
 * Acknowledge links in MongoDB (`ack_links`): found by the token's hash (unique index); expired ones
 * pruned by the job (an index on `expires_at`; no TTL index, so pruning is one rule on both adapters).
 */
export const ackLinkIndexes: IndexDecl[] = [
  { on: 'ackLinks', key: { token_hash: 1 }, options: { unique: true } },
  { on: 'ackLinks', key: { expires_at: 1 } },
];

export const mongoAckLinks = ({ col }: MongoContext): AckLinkStore => ({
  async insertAckLink(link) {
    await col.ackLinks.insertOne(toDoc(link));
  },
  async findAckLink(tokenHash) {
    return fromDoc<AckLink>(await col.ackLinks.findOne({ token_hash: tokenHash }));
  },
  async pruneAckLinks(before, limit) {
    return deleteSome(col.ackLinks, { expires_at: { $lt: before } }, limit);
  },
});
