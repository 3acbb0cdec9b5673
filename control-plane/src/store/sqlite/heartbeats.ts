import {
  HEARTBEAT_RUNTIME_FIELDS,
  type PingTouch,
  pingTouches,
} from '../../domain/heartbeats/heartbeat-rules.js';
import type { HeartbeatStore } from '../../domain/heartbeats/heartbeat-store.js';
import type { Alert, Heartbeat, Ping } from '../../domain/types.js';
import { raiseInTransaction, resolveInTransaction } from './alerts.js';
import type { SqliteContext } from './db.js';
import { createPingWriter, type PingWriter } from './ping-writer.js';
import { heartbeats, insertSql, pings, toRow } from './tables.js';

/**
 * touchPing (domain/heartbeats/heartbeat-rules.ts) as one UPDATE, the fast path of every ping: every right-hand
 * side sees the row as it was. The rules are the TypeScript module's; test/contract/heartbeat-rules.test.ts
 * holds this statement to them with generated sequences. Named parameters: a PingTouch.
 */
export const touchHeartbeatSql = `UPDATE heartbeats SET
  last_ping_at = CASE WHEN @kind = 'start' THEN last_ping_at ELSE @at END,
  started_at = CASE WHEN @kind = 'start' THEN @at
    WHEN @rid IS NULL OR start_rid IS NULL OR start_rid = @rid THEN NULL ELSE started_at END,
  start_rid = CASE WHEN @kind = 'start' THEN @rid
    WHEN @rid IS NULL OR start_rid IS NULL OR start_rid = @rid THEN NULL ELSE start_rid END,
  state = CASE WHEN paused = 1 OR @kind = 'start' THEN state WHEN @kind = 'fail' THEN 'down' ELSE 'up' END,
  rearmed_at = CASE WHEN @kind = 'start' THEN rearmed_at ELSE NULL END,
  due_at = CASE
    WHEN paused = 1 THEN NULL
    WHEN @kind = 'start' THEN CASE WHEN state = 'down' AND alert_id IS NOT NULL THEN due_at
      ELSE min(coalesce(due_at, @at + grace_seconds * 1000), @at + grace_seconds * 1000) END
    WHEN @kind = 'fail' THEN CASE WHEN alert_id IS NULL THEN @received ELSE NULL END
    WHEN alert_id IS NOT NULL OR schedule IS NOT NULL THEN @received
    ELSE min(
      @at + period_seconds * 1000,
      CASE WHEN @rid IS NOT NULL AND start_rid IS NOT NULL AND start_rid != @rid
        THEN started_at + grace_seconds * 1000
        ELSE @at + period_seconds * 1000 END)
    END,
  last_duration_ms = CASE WHEN @kind != 'start' AND started_at IS NOT NULL AND @at >= started_at
      AND (@rid IS NULL OR start_rid IS NULL OR start_rid = @rid)
    THEN @at - started_at ELSE last_duration_ms END,
  state_version = state_version + 1
WHERE id = @id AND (last_ping_at IS NULL OR @at >= last_ping_at)
  AND (@kind != 'start' OR started_at IS NULL OR @at >= started_at)`;

/** The columns an edit writes: all but the keys and what pings and the deadline job own. */
const editable = Object.keys(heartbeats.columns).filter(
  (c) => c !== 'id' && c !== 'workspace_id' && !(HEARTBEAT_RUNTIME_FIELDS as readonly string[]).includes(c),
);

/** Positional, in `pings` column order; a ping for a heartbeat deleted meanwhile is dropped, not kept as an orphan. */
const pingColumns = Object.keys(pings.columns);
const insertPingSql = `INSERT INTO pings (${pingColumns.join(', ')}) SELECT ${pingColumns.map(() => '?').join(', ')}
     WHERE EXISTS (SELECT 1 FROM heartbeats WHERE id = ?)`;
/** The insert's parameters: the columns, then the heartbeat id again for the EXISTS. */
const pingParams = (p: Ping) => [...Object.values(toRow(pings, p)), p.heartbeat_id];
const pingWidth = pingColumns.length + 1;

/**
 * Heartbeats and pings in SQLite. A ping batch (its pings and the heartbeats they touch) is one
 * transaction, written by a worker thread (ping-writer.ts) so the fsync never blocks the event loop.
 * A deadline step is one IMMEDIATE transaction: the compare-and-set on `state_version` and the alert
 * it raises or resolves commit together, so two replicas on one file raise one alert.
 */
export const sqliteHeartbeats = (
  ctx: SqliteContext,
  opts: { path: string; busyTimeoutMs: number },
): { port: HeartbeatStore; close(): Promise<void> } => {
  const { db, st, one, many, immediate, page } = ctx;
  const getHeartbeat = (workspaceId: string, id: string) =>
    one<Heartbeat>(heartbeats, 'SELECT * FROM heartbeats WHERE workspace_id = ? AND id = ?', workspaceId, id);

  let pingWriter: PingWriter | null = null;
  /** For ':memory:' databases, which a worker cannot share. */
  const recordPingsInThread = db.transaction((rows: unknown[], touches: PingTouch[]) => {
    const insert = st(insertPingSql);
    const touch = st(touchHeartbeatSql);
    for (let i = 0; i < rows.length; i += pingWidth) insert.run(rows.slice(i, i + pingWidth));
    for (const t of touches) touch.run(t);
  });

  /** A write that may hit the (workspace_id, slug) unique index; the only unique index besides the key. */
  const slugSafe = <T>(fn: () => T): T | 'slug_taken' => {
    try {
      return fn();
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' && /slug/.test(String(e)))
        return 'slug_taken';
      throw e;
    }
  };

  const port: HeartbeatStore = {
    async insertHeartbeat(heartbeat) {
      // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
      return immediate(() => {
        return slugSafe(() => {
          st(insertSql(heartbeats)).run(toRow(heartbeats, heartbeat));
          return 'inserted' as const;
        });
      });
    },
    async getHeartbeat(workspaceId, id) {
      return getHeartbeat(workspaceId, id);
    },
    async findHeartbeat(id) {
      return one<Heartbeat>(heartbeats, 'SELECT * FROM heartbeats WHERE id = ?', id);
    },
    async findHeartbeatBySlug(workspaceId, slug) {
      return one<Heartbeat>(
        heartbeats,
        'SELECT * FROM heartbeats WHERE workspace_id = ? AND slug = ?',
        workspaceId,
        slug,
      );
    },
    async countHeartbeats(workspaceId) {
      return (
        st('SELECT count(*) n FROM heartbeats WHERE workspace_id = ?').get(workspaceId) as { n: number }
      ).n;
    },
    async listHeartbeats(workspaceId, q) {
      const where = ['workspace_id = ?'];
      const params: unknown[] = [workspaceId];
      if (q.search) {
        where.push("(instr(fold_case(display_name), ?) > 0 OR instr(coalesce(slug, ''), ?) > 0)");
        params.push(q.search.toLowerCase(), q.search.toLowerCase());
      }
      if (q.group_id !== undefined) {
        if (q.group_id === 'none') where.push('group_id IS NULL');
        else {
          where.push('group_id = ?');
          params.push(q.group_id);
        }
      }
      if (q.tag !== undefined) {
        // Heartbeats are few beside monitors (a plan's cap): their tags stay a JSON column.
        where.push('EXISTS (SELECT 1 FROM json_each(heartbeats.tags) WHERE value = ?)');
        params.push(q.tag);
      }
      return page<Heartbeat>(heartbeats, where, params, q);
    },
    async updateHeartbeat(next, expectedVersion) {
      // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
      return immediate(() => {
        // State, last ping, deadline, run and alert belong to pings and the deadline job, not to edits;
        // an edit makes the heartbeat due now, so the job re-evaluates it (afterEdit in heartbeat-rules.ts).
        const row = toRow(heartbeats, next);
        const r = slugSafe(() =>
          st(
            `UPDATE heartbeats SET ${editable.map((c) => `${c} = @${c}`).join(', ')},
             due_at = @updated_at, state_version = state_version + 1
           WHERE id = @id AND workspace_id = @workspace_id AND version = @expected`,
          ).run({
            ...Object.fromEntries(['id', 'workspace_id', ...editable].map((c) => [c, row[c]])),
            expected: expectedVersion,
          }),
        );
        if (r === 'slug_taken') return r;
        if (r.changes === 1) return 'updated';
        return getHeartbeat(next.workspace_id, next.id) ? 'conflict' : 'not_found';
      });
    },
    async deleteHeartbeat(workspaceId, id) {
      return immediate(() => {
        const gone = st('DELETE FROM heartbeats WHERE workspace_id = ? AND id = ?').run(workspaceId, id);
        if (gone.changes === 1) st('DELETE FROM pings WHERE heartbeat_id = ?').run(id);
        return gone.changes === 1;
      });
    },

    async recordPings(batch) {
      if (batch.length === 0) return;
      const touches = pingTouches(batch);
      const rows = batch.flatMap(pingParams);
      if (opts.path === ':memory:') return recordPingsInThread.immediate(rows, touches);
      pingWriter ??= createPingWriter({
        path: opts.path,
        busyTimeoutMs: opts.busyTimeoutMs,
        insertSql: insertPingSql,
        width: pingWidth,
        touchSql: touchHeartbeatSql,
      });
      await pingWriter.write(rows, touches);
    },
    async listPings(workspaceId, heartbeatId, q) {
      return page<Ping>(pings, ['workspace_id = ?', 'heartbeat_id = ?'], [workspaceId, heartbeatId], q, 'at');
    },

    async listDueHeartbeats(at, limit) {
      return many<Heartbeat>(
        heartbeats,
        'SELECT * FROM heartbeats WHERE due_at <= ? ORDER BY due_at LIMIT ?',
        at.getTime(),
        limit,
      );
    },
    async stepHeartbeat(input) {
      return immediate(() => {
        const h = one<Heartbeat>(
          heartbeats,
          'SELECT * FROM heartbeats WHERE workspace_id = ? AND id = ? AND state_version = ?',
          input.workspace_id,
          input.id,
          input.expected_state_version,
        );
        if (!h) return { stepped: false, alert: null, created: false };
        let alertId = h.alert_id;
        let alert: Alert | null = null;
        let created = false;
        if (input.raise) {
          ({ alert, created } = raiseInTransaction(ctx, input.raise));
          alertId = alert.id;
        } else if (input.resolve && alertId) {
          alert = resolveInTransaction(ctx, input.workspace_id, alertId, input.resolve, input.at).alert;
          alertId = null;
        }
        // stepHeartbeat's effect in domain/heartbeats/heartbeat-rules.ts (applyStep)
        st(
          `UPDATE heartbeats SET state = ?, due_at = ?, alert_id = ?, updated_at = ?,
             rearmed_at = CASE WHEN ? THEN NULL ELSE rearmed_at END, state_version = state_version + 1
           WHERE id = ?`,
        ).run(
          input.next.state,
          input.next.due_at ? input.next.due_at.getTime() : null,
          alertId,
          input.at.getTime(),
          input.raise ? 1 : 0,
          input.id,
        );
        return { stepped: true, alert, created };
      });
    },
  };

  return {
    port,
    async close() {
      await pingWriter?.close();
      pingWriter = null;
    },
  };
};
