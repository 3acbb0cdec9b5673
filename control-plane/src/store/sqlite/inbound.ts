import { AppError } from '@lookout/shared';
import type { Alert, Heartbeat, Integration } from '../../domain/types.js';
import { decodeCursor, toPage } from '../cursor.js';
import { openKey } from '../open-key.js';
import type { InboundMethods } from '../port.js';
import type { SqliteHelpers } from './routing.js';
import { alerts, heartbeats, insertSql, integrations, toRow } from './tables.js';

const isUniqueViolation = (e: unknown) =>
  e instanceof Error && 'code' in e && (e as { code: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';

/**
 * Heartbeat deadlines and inbound integrations in SQLite. A deadline step is one IMMEDIATE
 * transaction: the compare-and-set on `state_version` and the alert it raises or resolves commit
 * together, so two replicas on one file raise one alert, and a crash never leaves half a step.
 */
export const sqliteInbound = ({ st, one, many, immediate }: SqliteHelpers): InboundMethods => ({
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
        const key = openKey(input.raise);
        alert = one<Alert>(alerts, 'SELECT * FROM alerts WHERE open_key = ?', key);
        if (!alert) {
          st(insertSql(alerts, ['open_key'])).run({ ...toRow(alerts, input.raise), open_key: key });
          alert = input.raise;
          created = true;
        }
        alertId = alert.id;
      } else if (input.resolve && alertId) {
        // As resolveAlert does: the open key is freed, so the next failure raises a new alert.
        st(
          `UPDATE alerts SET status = 'resolved', resolved_at = ?, resolved_by = ?, updated_at = ?, open_key = NULL,
             escalation_due_at = NULL
           WHERE workspace_id = ? AND id = ? AND status != 'resolved'`,
        ).run(
          input.at.getTime(),
          JSON.stringify(input.resolve),
          input.at.getTime(),
          input.workspace_id,
          alertId,
        );
        alert = one<Alert>(alerts, 'SELECT * FROM alerts WHERE id = ?', alertId);
        alertId = null;
      }
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

  async refreshOpenAlert(workspaceId, id, patch, at) {
    const r = st(
      `UPDATE alerts SET title = ?, description = ?, severity = ?, updated_at = ?
       WHERE workspace_id = ? AND id = ? AND status != 'resolved'`,
    ).run(patch.title, patch.description, patch.severity, at.getTime(), workspaceId, id);
    if (r.changes !== 1) return null;
    return one<Alert>(alerts, 'SELECT * FROM alerts WHERE workspace_id = ? AND id = ?', workspaceId, id);
  },

  async insertIntegration(integration) {
    try {
      st(insertSql(integrations)).run(toRow(integrations, integration));
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError('conflict', 'That service key is taken; try again.');
      throw e;
    }
  },
  async getIntegration(workspaceId, id) {
    return one<Integration>(
      integrations,
      'SELECT * FROM integrations WHERE workspace_id = ? AND id = ?',
      workspaceId,
      id,
    );
  },
  async findIntegrationByKeyHash(keyHash) {
    return one<Integration>(integrations, 'SELECT * FROM integrations WHERE key_hash = ?', keyHash);
  },
  async listIntegrations(workspaceId, q) {
    const cur = decodeCursor(q.cursor);
    const rows = cur
      ? many<Integration>(
          integrations,
          `SELECT * FROM integrations WHERE workspace_id = ? AND (created_at < ? OR (created_at = ? AND id < ?))
           ORDER BY created_at DESC, id DESC LIMIT ?`,
          workspaceId,
          cur.t,
          cur.t,
          cur.id,
          q.limit + 1,
        )
      : many<Integration>(
          integrations,
          'SELECT * FROM integrations WHERE workspace_id = ? ORDER BY created_at DESC, id DESC LIMIT ?',
          workspaceId,
          q.limit + 1,
        );
    return toPage(rows, q.limit);
  },
  async updateIntegration(i) {
    return (
      st(
        `UPDATE integrations SET name = @name, escalation_policy_id = @escalation_policy_id,
           key_hash = @key_hash, key_last_four = @key_last_four, updated_at = @updated_at
         WHERE workspace_id = @workspace_id AND id = @id`,
      ).run(toRow(integrations, i)).changes === 1
    );
  },
  async deleteIntegration(workspaceId, id) {
    return (
      st('DELETE FROM integrations WHERE workspace_id = ? AND id = ?').run(workspaceId, id).changes === 1
    );
  },
});

/**
 * A ping's effect on its heartbeat, in one UPDATE (every right-hand side sees the row as it was):
 * - a ping's time never moves a heartbeat backwards: a success or fail older than last_ping_at, or a
 *   start older than last_ping_at or the pending run's start, changes nothing (the WHERE below); the
 *   ping itself is still kept in the log. So last_ping_at and every deadline derived from it only
 *   move forward, and the heartbeat's state is that of its newest ping.
 * - success: last_ping_at becomes the ping's time; state up; a run it finishes (same run id, or
 *   either side without one) ends; due_at becomes the next deadline (last ping + period, or an
 *   unfinished run's start + grace if sooner) — or now, when an alert is open, so the job resolves it.
 * - fail: like success, but state down and due now so the job raises the alert (unless one is open).
 * - start: a run begins; due_at becomes start + grace if that is sooner (unless the heartbeat is down
 *   with its alert open: an overrun adds nothing to that outage). State unchanged.
 * - success and fail clear rearmed_at (set when a person resolved the alert of a heartbeat still
 *   down; see evaluateHeartbeat): a fail then makes it due now and the job raises a new alert.
 * A paused heartbeat records pings but keeps its state and has no deadline.
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
    WHEN alert_id IS NOT NULL THEN @received
    ELSE min(
      @at + period_seconds * 1000,
      CASE WHEN @rid IS NOT NULL AND start_rid IS NOT NULL AND start_rid != @rid
        THEN started_at + grace_seconds * 1000
        ELSE @at + period_seconds * 1000 END)
    END,
  state_version = state_version + 1
WHERE id = @id AND (last_ping_at IS NULL OR @at >= last_ping_at)
  AND (@kind != 'start' OR started_at IS NULL OR @at >= started_at)`;
