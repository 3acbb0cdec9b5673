import type { AuditEntry, AuditStore } from '../../domain/audit/audit-store.js';
import type { SqliteContext } from './db.js';
import { auditLog, insertSql, toRow } from './tables.js';

interface AuditRow {
  id: string;
  workspace_id: string;
  at: Date;
  actor_type: AuditEntry['actor']['type'];
  actor_id: string | null;
  actor_name: string;
  actor_user_id: string | null;
  ip: string | null;
  user_agent: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  changes: AuditEntry['changes'];
}

const toAuditRow = (e: AuditEntry): AuditRow => ({
  id: e.id,
  workspace_id: e.workspace_id,
  at: e.at,
  actor_type: e.actor.type,
  actor_id: e.actor.id,
  actor_name: e.actor.name,
  actor_user_id: e.actor.user_id ?? null,
  ip: e.ip,
  user_agent: e.user_agent,
  action: e.action,
  resource_type: e.resource_type,
  resource_id: e.resource_id,
  changes: e.changes,
});

const fromAuditRow = (r: AuditRow): AuditEntry => ({
  id: r.id,
  workspace_id: r.workspace_id,
  at: r.at,
  actor: {
    type: r.actor_type,
    id: r.actor_id,
    name: r.actor_name,
    ...(r.actor_user_id === null ? {} : { user_id: r.actor_user_id }),
  },
  ip: r.ip,
  user_agent: r.user_agent,
  action: r.action,
  resource_type: r.resource_type,
  resource_id: r.resource_id,
  changes: r.changes,
});

/** Writes one entry with the caller's connection (inside its transaction when it holds one). */
export const insertAuditEntry = (st: SqliteContext['st'], e: AuditEntry) => {
  st(insertSql(auditLog)).run(toRow(auditLog, toAuditRow(e)));
};

/**
 * The audit log in SQLite. Besides `appendAuditEntry`, entries are written by `immediate` (db.ts):
 * the request's draft goes into the transaction that commits its change. Lists are newest-first keyset
 * pages on (at, id), each filter served by an index that starts (workspace_id, field, at).
 */
export const sqliteAudit = ({ st, page }: SqliteContext): AuditStore => ({
  async appendAuditEntry(entry) {
    insertAuditEntry(st, entry);
  },
  async listAuditEntries(workspaceId, f, q) {
    const where = ['workspace_id = ?'];
    const params: unknown[] = [workspaceId];
    if (f.actor !== undefined) {
      where.push('(actor_id = ? OR actor_name = ? OR actor_user_id = ?)');
      params.push(f.actor, f.actor, f.actor);
    }
    if (f.resource_type !== undefined) {
      where.push('resource_type = ?');
      params.push(f.resource_type);
    }
    if (f.action !== undefined) {
      where.push('action = ?');
      params.push(f.action);
    }
    if (f.from !== undefined) {
      where.push('at >= ?');
      params.push(f.from.getTime());
    }
    if (f.to !== undefined) {
      where.push('at < ?');
      params.push(f.to.getTime());
    }
    const p = page<AuditRow>(auditLog, where, params, q, 'at');
    return { data: p.data.map(fromAuditRow), next_cursor: p.next_cursor };
  },
  async pruneAuditEntries(before, limit) {
    const ids = (
      st('SELECT id FROM audit_log WHERE at < ? ORDER BY at LIMIT ?').all(before.getTime(), limit) as {
        id: string;
      }[]
    ).map((r) => r.id);
    if (ids.length === 0) return 0;
    return st('DELETE FROM audit_log WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(ids))
      .changes;
  },
});
