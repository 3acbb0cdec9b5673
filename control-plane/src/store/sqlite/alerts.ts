import { type AlertStore, newestAlertFirst, sourceSlices } from '../../domain/alerts/alert-store.js';
import type { Actor, Alert, Delivery } from '../../domain/types.js';
import { openKey } from '../open-key.js';
import type { SqliteContext } from './db.js';
import { sqliteAlertExport } from './exports.js';
import { alerts, deliveries, insertSql, toRow } from './tables.js';

type Ctx = Pick<SqliteContext, 'st' | 'one'>;

const getAlert = ({ one }: Ctx, workspaceId: string, id: string) =>
  one<Alert>(alerts, 'SELECT * FROM alerts WHERE workspace_id = ? AND id = ?', workspaceId, id);

/**
 * Raises `alert` unless one with its key is unresolved (the unique `open_key` decides); call inside a
 * transaction. Shared by raiseAlert and the heartbeat deadline step (heartbeats.ts).
 */
export const raiseInTransaction = ({ st, one }: Ctx, alert: Alert): { alert: Alert; created: boolean } => {
  const key = openKey(alert);
  const existing = one<Alert>(alerts, 'SELECT * FROM alerts WHERE open_key = ?', key);
  if (existing) return { alert: existing, created: false };
  st(insertSql(alerts, ['open_key'])).run({
    ...toRow(alerts, alert),
    open_key: alert.status === 'resolved' ? null : key,
  });
  return { alert, created: true };
};

/** On acknowledge and resolve: an alert with an escalation is due for its follow-ups (one parameter: now). */
const FOLLOW_DUE = 'escalation_due_at = CASE WHEN escalation IS NULL THEN NULL ELSE ? END';

/**
 * Resolves the alert if it is not resolved yet (its open key is freed, so the next failure raises a new
 * alert); call inside a transaction. Returns whether it changed and the alert as it now is.
 */
export const resolveInTransaction = (
  ctx: Ctx,
  workspaceId: string,
  id: string,
  by: Actor,
  at: Date,
): { changed: boolean; alert: Alert | null } => {
  const changed = ctx
    .st(
      `UPDATE alerts SET status = 'resolved', resolved_at = ?, resolved_by = ?, updated_at = ?, open_key = NULL,
         ${FOLLOW_DUE}
       WHERE workspace_id = ? AND id = ? AND status != 'resolved'`,
    )
    .run(at.getTime(), JSON.stringify(by), at.getTime(), at.getTime(), workspaceId, id).changes;
  return { changed: changed === 1, alert: getAlert(ctx, workspaceId, id) };
};

/**
 * Alerts, their escalation and deliveries in SQLite. Every decision two replicas could race on
 * (raise, resolve, acknowledge, claim a due step, advance it) is one UPDATE with its condition in the
 * WHERE clause, or an IMMEDIATE transaction. A resolve re-arms its source in the same transaction.
 */
export const sqliteAlerts = (ctx: SqliteContext): AlertStore => {
  const { st, one, many, immediate, page } = ctx;
  return {
    ...sqliteAlertExport(ctx),
    async raiseAlert(alert) {
      return immediate(() => raiseInTransaction(ctx, alert));
    },
    async findOpenAlert(key) {
      return one<Alert>(alerts, 'SELECT * FROM alerts WHERE open_key = ?', openKey(key));
    },
    async findOpenAlerts(keys) {
      if (keys.length === 0) return [];
      return many<Alert>(
        alerts,
        'SELECT * FROM alerts WHERE open_key IN (SELECT value FROM json_each(?))',
        JSON.stringify(keys.map(openKey)),
      );
    },
    async getAlert(workspaceId, id) {
      return getAlert(ctx, workspaceId, id);
    },
    async listAlerts(workspaceId, q) {
      const where = ['workspace_id = ?'];
      const params: unknown[] = [workspaceId];
      if (q.status?.length) {
        where.push(`status IN (${q.status.map(() => '?').join(', ')})`);
        params.push(...q.status);
      }
      if (q.source_type) {
        where.push('source_type = ?');
        params.push(q.source_type);
      }
      if (q.source_id) {
        where.push('source_id = ?');
        params.push(q.source_id);
      }
      if (q.since) {
        where.push('created_at >= ?');
        params.push(q.since.getTime());
      }
      if (q.until) {
        where.push('created_at < ?');
        params.push(q.until.getTime());
      }
      return page<Alert>(alerts, where, params, q);
    },
    async listAlertsBetween(workspaceId, sources, from, to, limit) {
      if (limit <= 0) return [];
      // The workspace's created_at index (alerts_ws), walked newest first from `to` (so the limit stops
      // it); the sources and the resolve time are filtered on the way (docs/decisions.md, "Reports").
      const found = sourceSlices(sources).flatMap(({ type, ids }) =>
        many<Alert>(
          alerts,
          `SELECT * FROM alerts WHERE workspace_id = ? AND created_at < ?
             AND (resolved_at IS NULL OR resolved_at >= ?)
             AND source_type = ? AND source_id IN (SELECT value FROM json_each(?))
           ORDER BY created_at DESC, id DESC LIMIT ?`,
          workspaceId,
          to.getTime(),
          from.getTime(),
          type,
          JSON.stringify(ids),
          limit,
        ),
      );
      return found.sort(newestAlertFirst).slice(0, limit);
    },
    async resolveAlert(workspaceId, id, by, at) {
      // One transaction: the resolve and the re-arming of its source (see AlertStore) commit together.
      const r = immediate(() => {
        const { changed, alert } = resolveInTransaction(ctx, workspaceId, id, by, at);
        if (changed && alert?.source_type === 'monitor' && alert.cause === 'down') {
          const rearmed = st(
            `UPDATE monitor_states SET status = 'unknown', version = version + 1
             WHERE monitor_id = ? AND location = '*' AND status = 'down'`,
          ).run(alert.source_id).changes;
          // The monitor record's copy of the verdict (store/sqlite/monitor-list.ts), in step.
          if (rearmed)
            st(`UPDATE monitors SET verdict = 'pending', status_changed_at = ? WHERE id = ?`).run(
              at.getTime(),
              alert.source_id,
            );
        }
        if (changed && alert?.source_type === 'heartbeat') {
          // rearmHeartbeat in domain/heartbeats/heartbeat-rules.ts
          st(
            `UPDATE heartbeats SET alert_id = NULL, rearmed_at = CASE WHEN state = 'down' THEN ? ELSE rearmed_at END,
               due_at = ?, state_version = state_version + 1
             WHERE workspace_id = ? AND id = ? AND alert_id = ?`,
          ).run(at.getTime(), at.getTime(), workspaceId, alert.source_id, id);
        }
        return { changed, alert };
      });
      if (!r.alert) return { outcome: 'not_found', alert: null };
      return { outcome: r.changed ? 'resolved' : 'already_resolved', alert: r.alert };
    },
    async acknowledgeAlert(workspaceId, id, by, at) {
      return immediate(() => {
        const r = st(
          `UPDATE alerts SET status = 'acknowledged', acknowledged_at = ?, acknowledged_by = ?, updated_at = ?,
             ${FOLLOW_DUE}
           WHERE workspace_id = ? AND id = ? AND status = 'open'`,
        ).run(at.getTime(), JSON.stringify(by), at.getTime(), at.getTime(), workspaceId, id);
        const alert = getAlert(ctx, workspaceId, id);
        if (!alert) return { outcome: 'not_found' as const, alert: null };
        if (r.changes === 1) return { outcome: 'acknowledged' as const, alert };
        return {
          outcome:
            alert.status === 'resolved' ? ('already_resolved' as const) : ('already_acknowledged' as const),
          alert,
        };
      });
    },
    async refreshOpenAlert(workspaceId, id, patch, at) {
      const r = st(
        `UPDATE alerts SET title = ?, description = ?, severity = ?, updated_at = ?
         WHERE workspace_id = ? AND id = ? AND status != 'resolved'`,
      ).run(patch.title, patch.description, patch.severity, at.getTime(), workspaceId, id);
      return r.changes === 1 ? getAlert(ctx, workspaceId, id) : null;
    },

    async listDueEscalations(at, limit) {
      return many<Alert>(
        alerts,
        `SELECT * FROM alerts WHERE escalation_due_at <= ? AND status = 'open'
         ORDER BY escalation_due_at LIMIT ?`,
        at.getTime(),
        limit,
      );
    },
    async claimEscalation(workspaceId, id, expectedDueAt, claim, leaseUntil) {
      return immediate(() => {
        const r = st(
          `UPDATE alerts SET escalation = json_set(escalation, '$.claim', ?), escalation_due_at = ?
           WHERE workspace_id = ? AND id = ? AND status = 'open' AND escalation IS NOT NULL
             AND escalation_due_at = ?`,
        ).run(claim, leaseUntil.getTime(), workspaceId, id, expectedDueAt.getTime());
        return r.changes === 1 ? getAlert(ctx, workspaceId, id) : null;
      });
    },
    async advanceEscalation(workspaceId, id, claim, next) {
      return (
        st(
          `UPDATE alerts SET escalation = ?, escalation_due_at = ?
           WHERE workspace_id = ? AND id = ? AND status = 'open'
             AND json_extract(escalation, '$.claim') = ?`,
        ).run(
          next.escalation ? JSON.stringify(next.escalation) : null,
          next.escalation_due_at?.getTime() ?? null,
          workspaceId,
          id,
          claim,
        ).changes === 1
      );
    },

    async listDueFollowUps(at, limit) {
      return many<Alert>(
        alerts,
        `SELECT * FROM alerts WHERE escalation_due_at <= ? AND status != 'open' AND escalation IS NOT NULL
         ORDER BY escalation_due_at LIMIT ?`,
        at.getTime(),
        limit,
      );
    },
    async claimFollowUp(workspaceId, id, expectedDueAt, claim, leaseUntil) {
      return immediate(() => {
        const r = st(
          `UPDATE alerts SET escalation = json_set(escalation, '$.claim', ?), escalation_due_at = ?
           WHERE workspace_id = ? AND id = ? AND status != 'open' AND escalation IS NOT NULL
             AND escalation_due_at = ?`,
        ).run(claim, leaseUntil.getTime(), workspaceId, id, expectedDueAt.getTime());
        return r.changes === 1 ? getAlert(ctx, workspaceId, id) : null;
      });
    },
    async finishFollowUp(workspaceId, id, claim, leaseUntil) {
      return (
        st(
          `UPDATE alerts SET escalation_due_at = NULL
           WHERE workspace_id = ? AND id = ? AND status != 'open' AND escalation_due_at = ?
             AND json_extract(escalation, '$.claim') = ?`,
        ).run(workspaceId, id, leaseUntil.getTime(), claim).changes === 1
      );
    },
    async insertDelivery(d) {
      st(insertSql(deliveries)).run(toRow(deliveries, d));
    },
    async insertDeliveries(ds) {
      const insert = st(insertSql(deliveries));
      immediate(() => {
        for (const d of ds) insert.run(toRow(deliveries, d));
      });
    },
    async listDeliveries(workspaceId, filter) {
      const where = ['workspace_id = ?'];
      const params: unknown[] = [workspaceId];
      if (filter.alert_id !== undefined) {
        where.push('alert_id = ?');
        params.push(filter.alert_id);
      }
      if (filter.channel_id !== undefined) {
        where.push('channel_id = ?');
        params.push(filter.channel_id);
      }
      return many<Delivery>(
        deliveries,
        `SELECT * FROM deliveries WHERE ${where.join(' AND ')} ORDER BY at, rowid LIMIT ?`,
        ...params,
        filter.limit,
      );
    },
    async listChannelDeliveries(workspaceId, channelId, q) {
      return page<Delivery>(
        deliveries,
        ['workspace_id = ?', 'channel_id = ?'],
        [workspaceId, channelId],
        q,
        'at',
      );
    },
    async hasSentDelivery(key) {
      return (
        st("SELECT 1 FROM deliveries WHERE idempotency_key = ? AND outcome = 'sent' LIMIT 1").get(key) !==
        undefined
      );
    },
  };
};
