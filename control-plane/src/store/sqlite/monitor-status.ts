import type {
  MonitorStatus,
  MonitorStatusInfo,
  MonitorStatusStore,
  MonitorWithStatus,
} from '../../domain/monitor-status.js';
import type { Monitor } from '../../domain/types.js';
import { decodeCursor, toPage } from '../cursor.js';
import type { SqliteContext } from './db.js';
import { fromRow, monitors } from './tables.js';

type Row = Record<string, unknown>;

/**
 * A monitor's status as SQL over `m` (a monitors row), at the time bound to the two `?` it holds:
 * paused, then an active maintenance window (workspace-wide or the monitor's), then the monitor-level
 * ('*') state, else pending. Each part is an indexed lookup (maintenance_windows_ws, the
 * monitor_states primary key).
 */
const STATUS_SQL = `CASE
    WHEN m.paused = 1 THEN 'paused'
    WHEN EXISTS (SELECT 1 FROM maintenance_windows w
      WHERE w.workspace_id = m.workspace_id AND w.ends_at > ? AND w.starts_at <= ?
        AND (w.scope_type = 'workspace' OR (w.scope_type = 'monitor' AND w.scope_id = m.id))) THEN 'maintenance'
    ELSE coalesce((SELECT CASE s.status WHEN 'up' THEN 'up' WHEN 'down' THEN 'down' END
      FROM monitor_states s WHERE s.monitor_id = m.id AND s.location = '*'), 'pending')
  END`;
const LAST_CHECKED_SQL = `(SELECT max(s.last_result_at) FROM monitor_states s
  WHERE s.monitor_id = m.id AND s.location != '*')`;

const infoOf = (row: Row): MonitorStatusInfo => ({
  status: row.status as MonitorStatus,
  last_checked_at: row.last_checked_at === null ? null : new Date(row.last_checked_at as number),
});

/** Monitor status in SQLite: one query per page, whatever the filter. */
export const sqliteMonitorStatus = ({ st }: SqliteContext): MonitorStatusStore => ({
  async listMonitorsWithStatus(workspaceId, q, at) {
    const where = ['m.workspace_id = ?'];
    const params: unknown[] = [workspaceId];
    if (q.monitor_type) {
      where.push('m.monitor_type = ?');
      params.push(q.monitor_type);
    }
    if (q.paused !== undefined) {
      where.push('m.paused = ?');
      params.push(q.paused ? 1 : 0);
    }
    if (q.search) {
      where.push('(instr(lower(m.display_name), ?) > 0 OR instr(lower(m.url), ?) > 0)');
      params.push(q.search.toLowerCase(), q.search.toLowerCase());
    }
    const cur = decodeCursor(q.cursor);
    if (cur) {
      where.push('(m.created_at < ? OR (m.created_at = ? AND m.id < ?))');
      params.push(cur.t, cur.t, cur.id);
    }
    const statuses = q.status?.length ? q.status : null;
    const sql = `SELECT * FROM (
        SELECT m.*, ${STATUS_SQL} AS status, ${LAST_CHECKED_SQL} AS last_checked_at
        FROM monitors m WHERE ${where.join(' AND ')}
      ) ${statuses ? `WHERE status IN (${statuses.map(() => '?').join(', ')})` : ''}
      ORDER BY created_at DESC, id DESC LIMIT ?`;
    const rows = st(sql).all(
      at.getTime(),
      at.getTime(),
      ...params,
      ...(statuses ?? []),
      q.limit + 1,
    ) as Row[];
    return toPage<MonitorWithStatus>(
      rows.map((r) => ({ ...fromRow<Monitor>(monitors, r), ...infoOf(r) })),
      q.limit,
    );
  },
  async getMonitorStatuses(workspaceId, ids, at) {
    if (ids.length === 0) return new Map();
    const rows = st(
      `SELECT m.id, ${STATUS_SQL} AS status, ${LAST_CHECKED_SQL} AS last_checked_at FROM monitors m
       WHERE m.workspace_id = ? AND m.id IN (SELECT value FROM json_each(?))`,
    ).all(at.getTime(), at.getTime(), workspaceId, JSON.stringify(ids)) as Row[];
    return new Map(rows.map((r) => [r.id as string, infoOf(r)]));
  },
});
