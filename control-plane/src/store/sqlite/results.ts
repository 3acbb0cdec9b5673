import type { ResultStore } from '../../domain/results/result-store.js';
import { DAY_MS } from '../../domain/results/uptime.js';
import type { CheckResultRecord, MonitorLocationState } from '../../domain/types.js';
import type { SqliteContext } from './db.js';
import { type SqliteRollups, WAITING_CTE } from './rollups.js';
import { insertSql, monitorStates, results, runWith } from './tables.js';

/**
 * Check results in SQLite. `recordResults` is the ingestion step: the new results and the location
 * states they move commit in one IMMEDIATE transaction (one fsync per batch); the uptime buckets they
 * add to are written behind it from the stored results (rollups.ts), and every read of the buckets
 * adds what is still waiting.
 */
export const sqliteResults = (
  { st, many, immediate, page }: SqliteContext,
  rollups: SqliteRollups,
): ResultStore => ({
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
    // Only results already in the buckets go (another process's may still wait): write ours first.
    await rollups.flush();
    return st(
      `DELETE FROM check_results WHERE rowid IN (SELECT rowid FROM check_results
         WHERE received_at < ? AND rowid <= (SELECT upto FROM uptime_rollup_mark) LIMIT ?)`,
    ).run(before.getTime(), limit).changes;
  },
  async sumRollups(workspaceId, monitorId, fromHour, toHour) {
    // The buckets and the results still waiting for them (rollups.ts), in one snapshot.
    return st(
      `WITH ${WAITING_CTE}
       SELECT coalesce(sum(total), 0) total, coalesce(sum(ok), 0) ok FROM (
         SELECT total, ok FROM uptime_rollups
           WHERE monitor_id = @m AND hour >= @from AND hour < @to AND workspace_id = @ws
         UNION ALL
         SELECT 1, ok != 0 FROM check_results
           WHERE monitor_id = @m AND scheduled_at >= max(@from, (SELECT since FROM w)) AND scheduled_at < @to
             AND rowid > (SELECT upto FROM w) AND workspace_id = @ws)`,
    ).get({ m: monitorId, from: fromHour.getTime(), to: toHour.getTime(), ws: workspaceId }) as {
      total: number;
      ok: number;
    };
  },
  async pruneRollups(before, limit, dailyBefore = before) {
    const hourly = st(
      `DELETE FROM uptime_rollups WHERE (monitor_id, hour, location) IN
         (SELECT monitor_id, hour, location FROM uptime_rollups WHERE hour < ? LIMIT ?)`,
    ).run(before.getTime(), limit).changes;
    // A day goes once all of it is before `dailyBefore`.
    const daily = st(
      `DELETE FROM uptime_daily WHERE (monitor_id, day, location) IN
         (SELECT monitor_id, day, location FROM uptime_daily WHERE day <= ? LIMIT ?)`,
    ).run(dailyBefore.getTime() - DAY_MS, limit).changes;
    return hourly + daily;
  },

  async recordResults(batch, step) {
    if (batch.length === 0) return { stored: [], states: [] };
    const touched = JSON.stringify([...new Set(batch.map((r) => r.monitor_id))]);
    return immediate(() => {
      rollups.beforeInsert();
      const insert = st(`${insertSql(results, [], 'positional')} ON CONFLICT DO NOTHING`);
      const put = st(
        `${insertSql(monitorStates, [], 'positional')} ON CONFLICT (monitor_id, location) DO UPDATE SET ${Object.keys(
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
      // Each state written once, as it is after the batch's last result of its location.
      const changed = new Set<string>();
      let earliest = Number.POSITIVE_INFINITY;
      for (const r of batch) {
        if (runWith(results, insert, r).changes !== 1) continue;
        stored.push(r.id);
        const t = r.scheduled_at.getTime();
        if (t < earliest) earliest = t;
        const key = `${r.monitor_id}|${r.location}`;
        const next = step(states.get(key) ?? null, r);
        if (!next) continue;
        states.set(key, next);
        changed.add(key);
      }
      for (const key of changed) runWith(monitorStates, put, states.get(key)!);
      const after = [...states.values()].sort(
        (a, b) => a.monitor_id.localeCompare(b.monitor_id) || a.location.localeCompare(b.location),
      );
      // Only the results stored now count in the buckets, each once, from the next flush on.
      if (stored.length > 0) rollups.stored(earliest);
      return { stored, states: after };
    });
  },
});
