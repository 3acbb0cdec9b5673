import type { Session, SessionStore } from '../../domain/access/sessions.js';
import { fromDoc, type IndexDecl, type MongoContext, toDoc } from './db.js';

/**
 * Indexes for sessions. The TTL index (expireAfterSeconds 0 on a Date field) lets the server delete a
 * session at its absolute expiry; its monitor runs about once a minute, so readers still check expiry
 * (domain/access/sessions.ts), and pruneSessions removes idle ones.
 */
export const sessionIndexes: IndexDecl[] = [
  { on: 'sessions', key: { token_hash: 1 }, options: { unique: true } },
  { on: 'sessions', key: { workspace_id: 1, user_id: 1 } },
  { on: 'sessions', key: { expires_at: 1 }, options: { expireAfterSeconds: 0 } },
  { on: 'sessions', key: { last_seen_at: 1 } },
];

/** Web app sessions in MongoDB; a password change and the end of the user's sessions commit together. */
export const mongoSessions = ({ col, inTransaction }: MongoContext): SessionStore => {
  const { sessions, users } = col;
  return {
    async insertSession(session) {
      await sessions.insertOne(toDoc(session));
    },
    async findSessionByHash(tokenHash) {
      return fromDoc<Session>(await sessions.findOne({ token_hash: tokenHash }));
    },
    async touchSession(id, at) {
      await sessions.updateOne({ _id: id, last_seen_at: { $lt: at } }, { $set: { last_seen_at: at } });
    },
    async deleteSession(id) {
      // In a transaction: the request's audit entry is written with it (db.ts `inTransaction`).
      await inTransaction((session) => sessions.deleteOne({ _id: id }, { session }));
    },
    async changePassword({ workspace_id, user_id, password_hash, next }) {
      return inTransaction(async (session) => {
        const r = await users.updateOne(
          { workspace_id, _id: user_id },
          { $set: { password_hash } },
          { session },
        );
        if (r.matchedCount !== 1) return false;
        await sessions.deleteMany({ workspace_id, user_id }, { session });
        await sessions.insertOne(toDoc(next), { session });
        return true;
      });
    },
    async pruneSessions(now, idleBefore, limit) {
      const ids = (
        await sessions
          .find({ $or: [{ expires_at: { $lte: now } }, { last_seen_at: { $lte: idleBefore } }] })
          .project({ _id: 1 })
          .limit(limit)
          .toArray()
      ).map((d) => d._id);
      if (ids.length === 0) return 0;
      return (await sessions.deleteMany({ _id: { $in: ids } })).deletedCount;
    },
  };
};
