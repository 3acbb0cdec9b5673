import type { PingKeyRecord, PingKeyStore } from '../../domain/heartbeats/ping-key-store.js';
import { type Doc, type IndexDecl, type MongoContext, retryOnDuplicate } from './db.js';

/** A ping is looked up by its key's hash. */
export const pingKeyIndexes: IndexDecl[] = [
  { on: 'pingKeys', key: { key_hash: 1 }, options: { unique: true } },
];

const fromKeyDoc = (d: Doc | null): PingKeyRecord | null => {
  if (!d) return null;
  const { _id, ...rest } = d;
  return { workspace_id: _id, ...rest } as PingKeyRecord;
};

/** Ping keys in MongoDB: one document per workspace in `ping_keys`, keyed by the workspace id. */
export const mongoPingKeys = ({ col, inTransaction }: MongoContext): PingKeyStore => {
  const { pingKeys } = col;
  const get = async (workspaceId: string) => fromKeyDoc(await pingKeys.findOne({ _id: workspaceId }));
  return {
    getPingKey: get,
    async createPingKey(key) {
      const { workspace_id, ...rest } = key;
      // Two first uses racing: one upsert inserts, the other matches it (or, having raced on _id,
      // gets a duplicate key and retries into a match); both return the stored key.
      await retryOnDuplicate(() =>
        pingKeys.updateOne({ _id: workspace_id }, { $setOnInsert: rest }, { upsert: true }),
      );
      return (await get(workspace_id))!;
    },
    async replacePingKey(key) {
      const { workspace_id, ...rest } = key;
      // In a transaction: the request's audit entry is written with it (db.ts `inTransaction`).
      await inTransaction((session) =>
        pingKeys.replaceOne({ _id: workspace_id }, rest, { upsert: true, session }),
      );
    },
    async findPingKey(keyHash) {
      return fromKeyDoc(await pingKeys.findOne({ key_hash: keyHash }));
    },
  };
};
