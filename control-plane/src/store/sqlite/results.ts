import type { ResultStore } from '../../domain/results/result-store.js';
import { DAY_MS } from '../../domain/results/uptime.js';
import type { CheckResultRecord, MonitorLocationState } from '../../domain/types.js';
import type { SqliteContext } from './db.js';
import { type SqliteRollups, WAITING_CTE, waitingAfter } from './rollups.js';
import type { SqliteStateBook } from './state-book.js';
import { insertSql, monitorStates, results, runWith } from './tables.js';

/**
 * Check results in SQLite. `recordResults` is the ingestion step: the new results, each carrying the
 * location state it moved, commit in one IMMEDIATE transaction (one fsync per batch); the states are
 * held in memory with those rows as their log and snapshotted behind it (state-book.ts), and the
 * uptime buckets they add to are written behind it from the stored results (rollups.ts), every read of
 * the buckets adding what is still waiting.
 */
export const sqliteResults = (
  { st, many, immediate, page }: SqliteContext,
  rollups: SqliteRollups,
  book: SqliteStateBook,
): ResultStore => {
  /**
   * Row ids only rise: every reader of the log (the buckets' flush, each process's state book) keeps
   * its place by row id, and SQLite hands out max(rowid) + 1, so once pruning has taken every row up
   * to the marks, new rows would get ids already read. In recordResults' transaction, before its
   * inserts: when the table's max is below the higher mark, a placeholder row at that mark makes the
   * batch's rows come after it; it is deleted before the commit. Returns its row id, or null.
   */
  const keepRowidsRising = (): number | null => {
    const { top, marks } = st(
      `SELECT (SELECT coalesce(max(rowid), 0) FROM check_results) AS top,
         max((SELECT upto FROM uptime_rollup_mark), (SELECT upto FROM result_state_mark)) AS marks`,
    ).get() as { top: number; marks: number };
    if (top >= marks) return null;
    st('INSERT INTO check_results (rowid) VALUES (?)').run(marks);
    return marks;
  };
  return {
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
      // Only results already in the buckets and in the states' snapshot go (another process's may still
      // wait): write ours first.
      await rollups.flush();
      await book.snapshot();
      return st(
        `DELETE FROM check_results WHERE rowid IN (SELECT rowid FROM check_results
         WHERE received_at < ? AND rowid <= (SELECT upto FROM uptime_rollup_mark)
           AND rowid <= (SELECT upto FROM result_state_mark) LIMIT ?)`,
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
         SELECT 1, r.ok != 0 FROM check_results r
           WHERE r.monitor_id = @m AND r.scheduled_at >= max(@from, (SELECT since FROM w)) AND r.scheduled_at < @to
             AND ${waitingAfter('r')} AND r.workspace_id = @ws)`,
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
      const touched = [...new Set(batch.map((r) => r.monitor_id))];
      const out = immediate(() => {
        // Under the write lock: what other processes stored since, so every step sees the newest state.
        book.catchUp();
        const floor = keepRowidsRising();
        const insert = st(`${insertSql(results, [], 'positional')} ON CONFLICT DO NOTHING`);
        const logState = st(
          'UPDATE check_results SET state_status = ?, state_failures = ?, state_successes = ?, state_slow = ? WHERE rowid = ?',
        );
        const stored: string[] = [];
        /** States moved by this batch, by `monitor|location`: the book takes them once it commits. */
        const moved = new Map<string, MonitorLocationState>();
        let earliest = Number.POSITIVE_INFINITY;
        let last = 0;
        for (const r of batch) {
          const info = runWith(results, insert, r);
          if (info.changes !== 1) continue;
          stored.push(r.id);
          last = Number(info.lastInsertRowid);
          const t = r.scheduled_at.getTime();
          if (t < earliest) earliest = t;
          const key = `${r.monitor_id}|${r.location}`;
          const next = step(moved.get(key) ?? book.get(r.monitor_id, r.location), r);
          if (!next) continue;
          moved.set(key, next);
          // The state after this result, in its own row: the log the book is rebuilt from.
          logState.run(
            next.status,
            next.consecutive_failures,
            next.consecutive_successes,
            next.consecutive_slow,
            last,
          );
        }
        if (floor !== null) st('DELETE FROM check_results WHERE rowid = ?').run(floor);
        // Only the results stored now count in the buckets, each once, from the next flush on.
        if (stored.length > 0) rollups.stored(earliest);
        const stars = many<MonitorLocationState>(
          monitorStates,
          "SELECT * FROM monitor_states WHERE location = '*' AND monitor_id IN (SELECT value FROM json_each(?))",
          JSON.stringify(touched),
        );
        return { stored, moved, last, stars };
      });
      book.committed(out.moved.values(), out.last);
      const after = [...out.stars];
      for (const id of touched) after.push(...book.locations(id));
      after.sort((a, b) => a.monitor_id.localeCompare(b.monitor_id) || a.location.localeCompare(b.location));
      return { stored: out.stored, states: after };
    },
  };
};
