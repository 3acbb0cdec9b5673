import type { ResultStore } from '../../domain/result-store.js';
import type { CheckResultRecord, MonitorLocationState } from '../../domain/types.js';
import { DAY_MS, dailyDeltas, rollupDeltas } from '../../domain/uptime.js';
import type { SqliteContext } from './db.js';
import { insertSql, monitorStates, results, toRow } from './tables.js';

/** Adds a bucket increment (domain/uptime.ts RollupDelta); the newest successful check wins. */
const ADD_TO_ROLLUP = `INSERT INTO uptime_rollups (monitor_id, hour, location, workspace_id, total, ok,
    response_ms_sum, last_ok_at, last_ok_ms)
  VALUES (@monitor_id, @hour, @location, @workspace_id, @total, @ok, @response_ms_sum, @last_ok_at, @last_ok_ms)
  ON CONFLICT (monitor_id, hour, location) DO UPDATE SET
    total = total + excluded.total, ok = ok + excluded.ok,
    response_ms_sum = response_ms_sum + excluded.response_ms_sum,
    last_ok_ms = CASE WHEN excluded.last_ok_at >= coalesce(last_ok_at, 0) THEN excluded.last_ok_ms ELSE last_ok_ms END,
    last_ok_at = max(coalesce(last_ok_at, 0), coalesce(excluded.last_ok_at, 0))`;
const ADD_TO_DAILY = `INSERT INTO uptime_daily (monitor_id, day, location, workspace_id, total, ok, response_ms_sum)
  VALUES (@monitor_id, @hour, @location, @workspace_id, @total, @ok, @response_ms_sum)
  ON CONFLICT (monitor_id, day, location) DO UPDATE SET
    total = total + excluded.total, ok = ok + excluded.ok,
    response_ms_sum = response_ms_sum + excluded.response_ms_sum`;

/**
 * Check results in SQLite. `recordResults` is the ingestion step: the new results, the location
 * states they move and the hourly rollup buckets they add to commit in one IMMEDIATE transaction (one
 * fsync per batch).
 */
export const sqliteResults = ({ st, many, immediate, page }: SqliteContext): ResultStore => ({
  async listResults(workspaceId, monitorId, q) {
    const where = ['workspace_id = ?', 'monitor_id = ?'];
    const params: unknown[] = [workspaceId, monitorId];
    if (q.location) {
      where.push('location = ?');
      params.push(q.location);
    }
    if (q.since) {
      where.push('scheduled_at >= ?');
      params.push(q.since.getTime());
    }
    if (q.until) {
      where.push('scheduled_at < ?');
      params.push(q.until.getTime());
    }
    return page<CheckResultRecord>(results, where, params, q, 'scheduled_at');
  },
  async countResults(workspaceId, monitorId, since, until) {
    return st(
      `SELECT count(*) total, coalesce(sum(ok), 0) ok FROM check_results
       WHERE workspace_id = ? AND monitor_id = ? AND scheduled_at >= ? AND scheduled_at < ?`,
    ).get(workspaceId, monitorId, since.getTime(), until.getTime()) as { total: number; ok: number };
  },
  async pruneResults(before, limit) {
    return st(
      'DELETE FROM check_results WHERE rowid IN (SELECT rowid FROM check_results WHERE received_at < ? LIMIT ?)',
    ).run(before.getTime(), limit).changes;
  },
  async sumRollups(workspaceId, monitorId, fromHour, toHour) {
    return st(
      `SELECT coalesce(sum(total), 0) total, coalesce(sum(ok), 0) ok FROM uptime_rollups
       WHERE monitor_id = ? AND hour >= ? AND hour < ? AND workspace_id = ?`,
    ).get(monitorId, fromHour.getTime(), toHour.getTime(), workspaceId) as { total: number; ok: number };
  },
  async pruneRollups(before, limit) {
    const hourly = st(
      `DELETE FROM uptime_rollups WHERE (monitor_id, hour, location) IN
         (SELECT monitor_id, hour, location FROM uptime_rollups WHERE hour < ? LIMIT ?)`,
    ).run(before.getTime(), limit).changes;
    // A day goes once all of it is before `before`.
    const daily = st(
      `DELETE FROM uptime_daily WHERE (monitor_id, day, location) IN
         (SELECT monitor_id, day, location FROM uptime_daily WHERE day <= ? LIMIT ?)`,
    ).run(before.getTime() - DAY_MS, limit).changes;
    return hourly + daily;
  },

  async recordResults(batch, step) {
    if (batch.length === 0) return { stored: [], states: [] };
    const touched = JSON.stringify([...new Set(batch.map((r) => r.monitor_id))]);
    return immediate(() => {
      const insert = st(`${insertSql(results)} ON CONFLICT DO NOTHING`);
      const put = st(
        `${insertSql(monitorStates)} ON CONFLICT (monitor_id, location) DO UPDATE SET ${Object.keys(
          monitorStates.columns,
        )
          .filter((c) => c !== 'monitor_id' && c !== 'location')
          .map((c) => `${c} = excluded.${c}`)
          .join(', ')}`,
      );
      // Every state of the monitors concerned in one read; steps then work on this map.
      const states = new Map<string, MonitorLocationState>();
      for (const s of many<MonitorLocationState>(
        monitorStates,
        'SELECT * FROM monitor_states WHERE monitor_id IN (SELECT value FROM json_each(?))',
        touched,
      ))
        states.set(`${s.monitor_id}|${s.location}`, s);
      const stored: string[] = [];
      const fresh: CheckResultRecord[] = [];
      for (const r of batch) {
        if (insert.run(toRow(results, r)).changes !== 1) continue;
        stored.push(r.id);
        fresh.push(r);
        const key = `${r.monitor_id}|${r.location}`;
        const next = step(states.get(key) ?? null, r);
        if (!next) continue;
        put.run(toRow(monitorStates, next));
        states.set(key, next);
      }
      // Only the results stored now count, each once.
      const roll = st(ADD_TO_ROLLUP);
      const daily = st(ADD_TO_DAILY);
      const deltas = rollupDeltas(fresh);
      for (const d of deltas) roll.run(d);
      for (const { last_ok_at: _a, last_ok_ms: _m, ...d } of dailyDeltas(deltas)) daily.run(d);
      const after = [...states.values()].sort(
        (a, b) => a.monitor_id.localeCompare(b.monitor_id) || a.location.localeCompare(b.location),
      );
      return { stored, states: after };
    });
  },
});
