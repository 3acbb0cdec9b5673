import type Database from 'better-sqlite3';
import type {
  Alert,
  Delivery,
  EscalationPolicy,
  MaintenanceWindow,
  NotificationChannel,
  Page,
  PageQuery,
} from '../../domain/types.js';
import type { PageOrder } from '../cursor.js';
import type { RoutingMethods } from '../port.js';
import {
  alerts,
  channels,
  deliveries,
  insertSql,
  maintenanceWindows,
  policies,
  type Table,
  toRow,
  updateSql,
} from './tables.js';

/** What the SQLite adapter lends to this module: its statement cache and transaction helper. */
export interface SqliteHelpers {
  st(sql: string): Database.Statement;
  one<T>(t: Table, sql: string, ...params: unknown[]): T | null;
  many<T>(t: Table, sql: string, ...params: unknown[]): T[];
  immediate<T>(fn: () => T): T;
  page<T extends { id: string }>(
    t: Table,
    where: string[],
    params: unknown[],
    q: PageQuery,
    by?: PageOrder,
  ): Page<T>;
}

/**
 * Alert routing in SQLite. Every decision two replicas could race on (acknowledge, claim a due step,
 * advance it, switch the default policy, delete something in use) is one UPDATE with its condition
 * in the WHERE clause, or an IMMEDIATE transaction (the file's write lock is taken first).
 */
export const sqliteRouting = ({ st, one, many, immediate, page }: SqliteHelpers): RoutingMethods => {
  const getAlert = (workspaceId: string, id: string) =>
    one<Alert>(alerts, 'SELECT * FROM alerts WHERE workspace_id = ? AND id = ?', workspaceId, id);
  const clearOtherDefaults = (p: EscalationPolicy) => {
    if (p.is_default)
      st('UPDATE escalation_policies SET is_default = 0 WHERE workspace_id = ? AND id != ?').run(
        p.workspace_id,
        p.id,
      );
  };

  return {
    async acknowledgeAlert(workspaceId, id, by, at) {
      return immediate(() => {
        const r = st(
          `UPDATE alerts SET status = 'acknowledged', acknowledged_at = ?, acknowledged_by = ?, updated_at = ?,
             escalation_due_at = NULL
           WHERE workspace_id = ? AND id = ? AND status = 'open'`,
        ).run(at.getTime(), JSON.stringify(by), at.getTime(), workspaceId, id);
        const alert = getAlert(workspaceId, id);
        if (!alert) return { outcome: 'not_found' as const, alert: null };
        if (r.changes === 1) return { outcome: 'acknowledged' as const, alert };
        return {
          outcome:
            alert.status === 'resolved' ? ('already_resolved' as const) : ('already_acknowledged' as const),
          alert,
        };
      });
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
        return r.changes === 1 ? getAlert(workspaceId, id) : null;
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

    async listEscalationPolicies(workspaceId, q) {
      return page<EscalationPolicy>(policies, ['workspace_id = ?'], [workspaceId], q);
    },
    async insertEscalationPolicy(p) {
      immediate(() => {
        clearOtherDefaults(p);
        st(insertSql(policies)).run(toRow(policies, p));
      });
    },
    async updateEscalationPolicy(p) {
      return immediate(() => {
        const r = st(updateSql(policies, 'id = @id AND workspace_id = @workspace_id')).run(
          toRow(policies, p),
        );
        if (r.changes !== 1) return false;
        clearOtherDefaults(p);
        return true;
      });
    },
    async deleteEscalationPolicy(workspaceId, id) {
      return immediate(() => {
        const p = one<EscalationPolicy>(
          policies,
          'SELECT * FROM escalation_policies WHERE workspace_id = ? AND id = ?',
          workspaceId,
          id,
        );
        if (!p) return 'not_found' as const;
        if (p.is_default) return 'is_default' as const;
        const used = st(
          `SELECT EXISTS (SELECT 1 FROM monitors WHERE workspace_id = ? AND escalation_policy_id = ?)
               OR EXISTS (SELECT 1 FROM heartbeats WHERE workspace_id = ? AND escalation_policy_id = ?) used`,
        ).get(workspaceId, id, workspaceId, id) as { used: number };
        if (used.used) return 'in_use' as const;
        st('DELETE FROM escalation_policies WHERE workspace_id = ? AND id = ?').run(workspaceId, id);
        return 'deleted' as const;
      });
    },

    async insertChannel(c) {
      st(insertSql(channels)).run(toRow(channels, c));
    },
    async getChannel(workspaceId, id) {
      return one<NotificationChannel>(
        channels,
        'SELECT * FROM notification_channels WHERE workspace_id = ? AND id = ?',
        workspaceId,
        id,
      );
    },
    async listChannels(workspaceId, q) {
      return page<NotificationChannel>(channels, ['workspace_id = ?'], [workspaceId], q);
    },
    async updateChannel(c) {
      return (
        st(updateSql(channels, 'id = @id AND workspace_id = @workspace_id')).run(toRow(channels, c))
          .changes === 1
      );
    },
    async deleteChannel(workspaceId, id) {
      return immediate(() => {
        const used = st(
          `SELECT EXISTS (SELECT 1 FROM escalation_policies p, json_each(p.steps) s,
                json_each(s.value, '$.notify_channel_ids') c
              WHERE p.workspace_id = ? AND c.value = ?) used`,
        ).get(workspaceId, id) as { used: number };
        const exists = st('SELECT 1 FROM notification_channels WHERE workspace_id = ? AND id = ?').get(
          workspaceId,
          id,
        );
        if (!exists) return 'not_found' as const;
        if (used.used) return 'in_use' as const;
        st('DELETE FROM notification_channels WHERE workspace_id = ? AND id = ?').run(workspaceId, id);
        return 'deleted' as const;
      });
    },

    async insertDelivery(d) {
      st(insertSql(deliveries)).run(toRow(deliveries, d));
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
    async hasSentDelivery(key) {
      return (
        st("SELECT 1 FROM deliveries WHERE idempotency_key = ? AND outcome = 'sent' LIMIT 1").get(key) !==
        undefined
      );
    },

    async insertMaintenanceWindow(w) {
      st(insertSql(maintenanceWindows)).run(toRow(maintenanceWindows, w));
    },
    async getMaintenanceWindow(workspaceId, id) {
      return one<MaintenanceWindow>(
        maintenanceWindows,
        'SELECT * FROM maintenance_windows WHERE workspace_id = ? AND id = ?',
        workspaceId,
        id,
      );
    },
    async listMaintenanceWindows(workspaceId, q) {
      return page<MaintenanceWindow>(maintenanceWindows, ['workspace_id = ?'], [workspaceId], q, 'starts_at');
    },
    async deleteMaintenanceWindow(workspaceId, id) {
      return (
        st('DELETE FROM maintenance_windows WHERE workspace_id = ? AND id = ?').run(workspaceId, id)
          .changes === 1
      );
    },
    async findActiveMaintenanceWindow(workspaceId, source, at) {
      return one<MaintenanceWindow>(
        maintenanceWindows,
        `SELECT * FROM maintenance_windows
         WHERE workspace_id = ? AND ends_at > ? AND starts_at <= ?
           AND (scope_type = 'workspace' OR (scope_type = ? AND scope_id = ?))
         ORDER BY starts_at, id LIMIT 1`,
        workspaceId,
        at.getTime(),
        at.getTime(),
        source.type,
        source.id,
      );
    },
  };
};
