import type { ClientSession } from 'mongodb';
import type { AuditEntry, AuditStore } from '../../domain/audit/audit-store.js';
import { encodeCursor } from '../cursor.js';
import type { Collections, Doc, IndexDecl, MongoContext } from './db.js';
import { pageQuery, runQuery } from './db.js';

export const auditIndexes: IndexDecl[] = [
  { on: 'auditLog', key: { workspace_id: 1, at: -1, _id: -1 } },
  { on: 'auditLog', key: { workspace_id: 1, 'actor.id': 1, at: -1, _id: -1 } },
  { on: 'auditLog', key: { workspace_id: 1, 'actor.name': 1, at: -1, _id: -1 } },
  { on: 'auditLog', key: { workspace_id: 1, 'actor.user_id': 1, at: -1, _id: -1 } },
  { on: 'auditLog', key: { workspace_id: 1, resource_type: 1, at: -1, _id: -1 } },
  { on: 'auditLog', key: { workspace_id: 1, action: 1, at: -1, _id: -1 } },
  { on: 'auditLog', key: { at: 1 } },
];

/**
 * `changes` is kept as its JSON text: its keys are the resource's field names and its values any
 * JSON (headers, channel settings), whose own keys may hold dots or start with `$`.
 */
const toAuditDoc = (e: AuditEntry): Doc => ({
  _id: e.id,
  workspace_id: e.workspace_id,
  at: e.at,
  actor: { type: e.actor.type, id: e.actor.id, name: e.actor.name, user_id: e.actor.user_id ?? null },
  ip: e.ip,
  user_agent: e.user_agent,
  action: e.action,
  resource_type: e.resource_type,
  resource_id: e.resource_id,
  changes: e.changes === null ? null : JSON.stringify(e.changes),
});

const fromAuditDoc = (d: Doc): AuditEntry => {
  const a = d.actor as {
    type: AuditEntry['actor']['type'];
    id: string | null;
    name: string;
    user_id: string | null;
  };
  return {
    id: d._id,
    workspace_id: d.workspace_id as string,
    at: d.at as Date,
    actor: { type: a.type, id: a.id, name: a.name, ...(a.user_id === null ? {} : { user_id: a.user_id }) },
    ip: (d.ip as string | null) ?? null,
    user_agent: (d.user_agent as string | null) ?? null,
    action: d.action as string,
    resource_type: d.resource_type as string,
    resource_id: (d.resource_id as string | null) ?? null,
    changes: typeof d.changes === 'string' ? (JSON.parse(d.changes) as AuditEntry['changes']) : null,
  };
};

/** Writes one entry, in `session`'s transaction when given (db.ts `inTransaction` writes the draft so). */
export const insertAuditDoc = async (col: Collections, e: AuditEntry, session?: ClientSession) => {
  await col.auditLog.insertOne(toAuditDoc(e), session ? { session } : {});
};

/**
 * The audit log in MongoDB. Besides `appendAuditEntry`, entries are written by `inTransaction`
 * (db.ts) with the session of the transaction that commits the change. Lists are newest-first keyset
 * pages on (at, _id), each filter served by an index (workspace_id, field, at, _id).
 */
export const mongoAudit = ({ col }: MongoContext): AuditStore => ({
  async appendAuditEntry(entry) {
    await insertAuditDoc(col, entry);
  },
  async listAuditEntries(workspaceId, f, q) {
    const filter: Record<string, unknown> = { workspace_id: workspaceId };
    if (f.actor !== undefined)
      filter.$or = [{ 'actor.id': f.actor }, { 'actor.name': f.actor }, { 'actor.user_id': f.actor }];
    if (f.resource_type !== undefined) filter.resource_type = f.resource_type;
    if (f.action !== undefined) filter.action = f.action;
    if (f.from !== undefined || f.to !== undefined)
      filter.at = { ...(f.from ? { $gte: f.from } : {}), ...(f.to ? { $lt: f.to } : {}) };
    const docs = await runQuery(col.auditLog, pageQuery(filter, q, 'at'));
    const more = docs.length > q.limit;
    const data = (more ? docs.slice(0, q.limit) : docs).map(fromAuditDoc);
    const last = data[data.length - 1];
    return { data, next_cursor: more && last ? encodeCursor(last.at, last.id) : null };
  },
  async pruneAuditEntries(before, limit) {
    const old = await col.auditLog
      .find({ at: { $lt: before } }, { projection: { _id: 1 } })
      .sort({ at: 1 })
      .limit(limit)
      .toArray();
    if (old.length === 0) return 0;
    const r = await col.auditLog.deleteMany({ _id: { $in: old.map((d) => d._id) } });
    return r.deletedCount;
  },
});
