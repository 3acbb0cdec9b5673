import { nameKey, STATUS_OF_VERDICT } from '../../domain/monitors/monitor-status.js';
import type { MonitorStore } from '../../domain/monitors/monitor-store.js';
import { assertMonitorLevel } from '../../domain/monitors/monitor-store.js';
import type { Monitor, MonitorChange } from '../../domain/types.js';
import type { SqliteContext } from './db.js';
import type { MonitorLevels } from './monitor-levels.js';
import { type ColumnKind, insertSql, monitorStates, monitors, toRow, updateSql } from './tables.js';

type Row = Record<string, unknown>;

/** One record field as its column stores it (as toRow converts a whole record). */
const columnValue = (kind: ColumnKind, v: unknown) => {
  if (kind === 'flag') return v ? 1 : 0;
  if (v == null) return null;
  if (kind === 'date') return (v as Date).getTime();
  if (kind === 'bool') return v ? 1 : 0;
  return kind === 'json' ? JSON.stringify(v) : v;
};

/** Thrown inside a bulk transaction when one record is not as expected: rolls the whole step back. */
const BULK_MISS = new Error('bulk step: a monitor changed meanwhile');

/**
 * Monitors, the monitor feed and the location states in SQLite. Every change to a monitor appends to
 * the feed in the same IMMEDIATE transaction, so the feed's sequence has no gaps and no lost entries;
 * creates and deletes move the workspace's `monitor_count` (the plan cap) in it too.
 */
export const sqliteMonitors = (
  { st, one, many, immediate, page }: SqliteContext,
  levels: MonitorLevels,
): MonitorStore => {
  /** Appends a 'changed' entry to the monitor feed; call inside the transaction that changed it. */
  const monitorChanged = (monitorId: string) =>
    st(`INSERT INTO monitor_changes (monitor_id, kind, at) VALUES (?, 'changed', ?)`).run(
      monitorId,
      Date.now(),
    );
  /**
   * The row of a new monitor, with what the list orders by (monitor-list.ts): its folded name, and
   * its status's last change (its creation). `verdict` keeps its default, pending.
   */
  const newRow = (m: Monitor) => ({
    ...toRow(monitors, m),
    name_key: nameKey(m.display_name),
    status_changed_at: m.created_at.getTime(),
  });
  const insertMonitorSql = insertSql(monitors, ['name_key', 'status_changed_at']);
  /**
   * A whole record by compare-and-set on its version. The list's columns stay the store's: the verdict
   * is never written here, the folded name follows the name, and a change of `paused` is a change of
   * status (the right-hand side reads the row before the update).
   */
  const updateMonitorSql = updateSql(
    monitors,
    'id = @id AND workspace_id = @workspace_id AND version = @expected',
    ['name_key'],
  ).replace(
    ' WHERE ',
    ', status_changed_at = CASE WHEN paused != @paused THEN @updated_at ELSE status_changed_at END WHERE ',
  );
  /**
   * Puts `monitor`'s tags into `monitor_tags` (the tag filter's index), after clearing its old rows when
   * `replace`; call inside the transaction that writes the monitor.
   */
  const writeTags = (monitor: Monitor, replace: boolean) => {
    if (replace) st('DELETE FROM monitor_tags WHERE monitor_id = ?').run(monitor.id);
    const insert = st('INSERT OR IGNORE INTO monitor_tags (workspace_id, tag, monitor_id) VALUES (?, ?, ?)');
    for (const tag of monitor.tags) insert.run(monitor.workspace_id, tag, monitor.id);
  };
  /** One 'changed' entry each, in order, in one statement (a bulk step's feed). */
  const feedAll = (ids: string[]) =>
    st(
      `INSERT INTO monitor_changes (monitor_id, kind, at) SELECT value, 'changed', ? FROM json_each(?) ORDER BY key`,
    ).run(Date.now(), JSON.stringify(ids));
  const getMonitor = (workspaceId: string, id: string) =>
    one<Monitor>(monitors, 'SELECT * FROM monitors WHERE workspace_id = ? AND id = ?', workspaceId, id);

  return {
    async insertMonitor(monitor, { maxMonitors }) {
      return immediate(() => {
        // The workspace's counter, moved only below the cap: one row by primary key, whatever the
        // workspace's size (a missing workspace counts as full).
        const counted = st(
          'UPDATE workspaces SET monitor_count = monitor_count + 1 WHERE id = ? AND monitor_count < ?',
        ).run(monitor.workspace_id, maxMonitors);
        if (counted.changes !== 1) return 'limit_reached' as const;
        st(insertMonitorSql).run(newRow(monitor));
        writeTags(monitor, false);
        monitorChanged(monitor.id);
        return 'inserted' as const;
      });
    },
    async insertMonitors(list, { maxMonitors }) {
      if (list.length === 0) return 'inserted';
      const ws = list[0]!.workspace_id;
      if (list.some((m) => m.workspace_id !== ws)) throw new Error('insertMonitors: one workspace per batch');
      // One IMMEDIATE transaction, one fsync for the whole batch; any throw rolls all of it back.
      return immediate(() => {
        const counted = st(
          'UPDATE workspaces SET monitor_count = monitor_count + ? WHERE id = ? AND monitor_count + ? <= ?',
        ).run(list.length, ws, list.length, maxMonitors);
        if (counted.changes !== 1) return 'limit_reached' as const;
        const insert = st(insertMonitorSql);
        for (const m of list) {
          insert.run(newRow(m));
          writeTags(m, false);
          monitorChanged(m.id);
        }
        return 'inserted' as const;
      });
    },
    async getMonitor(workspaceId, id) {
      return getMonitor(workspaceId, id);
    },
    async countMonitors(workspaceId) {
      const r = st('SELECT monitor_count FROM workspaces WHERE id = ?').get(workspaceId) as
        | { monitor_count: number }
        | undefined;
      return r?.monitor_count ?? 0;
    },
    async listMonitors(workspaceId, q) {
      const where = ['workspace_id = ?'];
      const params: unknown[] = [workspaceId];
      if (q.monitor_type) {
        where.push('monitor_type = ?');
        params.push(q.monitor_type);
      }
      if (q.paused !== undefined) {
        where.push('paused = ?');
        params.push(q.paused ? 1 : 0);
      }
      if (q.search) {
        where.push('(instr(fold_case(display_name), ?) > 0 OR instr(fold_case(url), ?) > 0)');
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
        where.push('id IN (SELECT monitor_id FROM monitor_tags WHERE workspace_id = ? AND tag = ?)');
        params.push(workspaceId, q.tag);
      }
      return page<Monitor>(monitors, where, params, q);
    },
    async updateMonitor(next, expectedVersion) {
      const changed = immediate(() => {
        const r = st(updateMonitorSql).run({
          ...toRow(monitors, next),
          name_key: nameKey(next.display_name),
          expected: expectedVersion,
        });
        if (r.changes === 1) {
          writeTags(next, true);
          monitorChanged(next.id);
        }
        return r.changes === 1;
      });
      if (changed) return 'updated';
      return getMonitor(next.workspace_id, next.id) ? 'conflict' : 'not_found';
    },
    async deleteMonitor(workspaceId, id) {
      return immediate(() => {
        const gone =
          st('DELETE FROM monitors WHERE workspace_id = ? AND id = ?').run(workspaceId, id).changes === 1;
        if (gone) {
          st('UPDATE workspaces SET monitor_count = monitor_count - 1 WHERE id = ?').run(workspaceId);
          st('DELETE FROM monitor_tags WHERE monitor_id = ?').run(id);
          monitorChanged(id);
        }
        return gone;
      });
    },
    async updateMonitors(changes, fields) {
      if (changes.length === 0) return 'updated';
      const ws = changes[0]!.next.workspace_id;
      if (changes.some((c) => c.next.workspace_id !== ws)) throw new Error('updateMonitors: one workspace');
      const cols = [...new Set([...fields, 'version', 'updated_at'] as (keyof Monitor)[])];
      const kinds = cols.map((c) => {
        const kind = monitors.columns[c];
        if (!kind || c === 'id' || c === 'workspace_id') throw new Error(`updateMonitors: no column ${c}`);
        return kind;
      });
      // A change of `paused` is a change of status for the list's last_change order (monitor-list.ts).
      const pausing = cols.includes('paused');
      // The tag filter's rows move with the tags, when the step writes them.
      const tagsToo = cols.includes('tags');
      const update = st(
        `UPDATE monitors SET ${cols.map((c) => `${c} = ?`).join(', ')}${
          pausing ? ', status_changed_at = CASE WHEN paused != ? THEN ? ELSE status_changed_at END' : ''
        }
         WHERE id = ? AND workspace_id = ? AND version = ?`,
      );
      // One IMMEDIATE transaction; a miss throws, which rolls back every row written before it.
      try {
        return immediate(() => {
          for (const { next, expectedVersion } of changes) {
            const values = cols.map((c, i) => columnValue(kinds[i]!, next[c]));
            const pause = pausing ? [next.paused ? 1 : 0, next.updated_at.getTime()] : [];
            if (update.run(...values, ...pause, next.id, ws, expectedVersion).changes !== 1) throw BULK_MISS;
            if (tagsToo) writeTags(next, true);
          }
          feedAll(changes.map((c) => c.next.id));
          return 'updated' as const;
        });
      } catch (e) {
        if (e === BULK_MISS) return 'conflict';
        throw e;
      }
    },
    async deleteMonitors(workspaceId, list) {
      if (list.length === 0) return 'deleted';
      const del = st('DELETE FROM monitors WHERE workspace_id = ? AND id = ? AND version = ?');
      const untag = st('DELETE FROM monitor_tags WHERE monitor_id = ?');
      try {
        return immediate(() => {
          for (const { id, version } of list) {
            if (del.run(workspaceId, id, version).changes !== 1) throw BULK_MISS;
            untag.run(id);
          }
          feedAll(list.map((m) => m.id));
          st('UPDATE workspaces SET monitor_count = monitor_count - ? WHERE id = ?').run(
            list.length,
            workspaceId,
          );
          return 'deleted' as const;
        });
      } catch (e) {
        if (e === BULK_MISS) return 'conflict';
        throw e;
      }
    },

    async listRegionMonitors(region) {
      return many<Monitor>(
        monitors,
        `SELECT * FROM monitors WHERE paused = 0
           AND EXISTS (SELECT 1 FROM json_each(monitors.check_locations) WHERE value = ?)`,
        region,
      );
    },
    async getMonitorsByIds(ids) {
      if (ids.length === 0) return [];
      return many<Monitor>(
        monitors,
        `SELECT * FROM monitors WHERE id IN (SELECT value FROM json_each(?))`,
        JSON.stringify(ids),
      );
    },
    async scanMonitors(afterId, limit) {
      return many<Monitor>(
        monitors,
        'SELECT * FROM monitors WHERE id > ? ORDER BY id LIMIT ?',
        afterId ?? '',
        limit,
      );
    },

    async listMonitorChanges(afterSeq, limit) {
      return (
        st('SELECT * FROM monitor_changes WHERE seq > ? ORDER BY seq LIMIT ?').all(afterSeq, limit) as Row[]
      ).map((r) => ({ ...(r as unknown as MonitorChange), at: new Date(r.at as number) }));
    },
    async latestMonitorChange() {
      return (st('SELECT max(seq) seq FROM monitor_changes').get() as { seq: number | null }).seq ?? 0;
    },
    async requestRuns(runs) {
      if (runs.length === 0) return;
      immediate(() => {
        for (const r of runs) {
          st(
            `INSERT INTO monitor_changes (monitor_id, kind, location, reason, request_id, at)
             VALUES (?, 'run', ?, ?, ?, ?)`,
          ).run(r.monitor_id, r.location, r.reason, r.request_id, r.at.getTime());
        }
      });
    },
    async pruneMonitorChanges(before, limit) {
      return st(
        `DELETE FROM monitor_changes WHERE seq IN (SELECT seq FROM monitor_changes WHERE at < ?
           AND seq < (SELECT max(seq) FROM monitor_changes) ORDER BY seq LIMIT ?)`,
      ).run(before.getTime(), limit).changes;
    },

    async putMonitorStates(writes) {
      if (writes.length === 0) return [];
      assertMonitorLevel(writes);
      const cols = Object.keys(monitorStates.columns).filter((c) => c !== 'monitor_id' && c !== 'location');
      const insert = st(`${insertSql(monitorStates)} ON CONFLICT (monitor_id, location) DO NOTHING`);
      const update = st(
        `UPDATE monitor_states SET ${cols.map((c) => `${c} = @${c}`).join(', ')}
         WHERE monitor_id = @monitor_id AND location = @location AND version = @expected`,
      );
      // The monitor record's copy of the verdict, in the same transaction (monitor-list.ts sorts on it).
      const verdict = st(
        'UPDATE monitors SET verdict = ?, status_changed_at = ? WHERE id = ? AND verdict != ?',
      );
      return immediate(() => {
        const won = writes.map(({ next, expectedVersion }) => {
          const ok =
            (expectedVersion === 0
              ? insert.run(toRow(monitorStates, next))
              : update.run({ ...toRow(monitorStates, next), expected: expectedVersion })
            ).changes === 1;
          if (ok) {
            const v = STATUS_OF_VERDICT[next.status];
            verdict.run(v, next.last_result_at?.getTime() ?? 0, next.monitor_id, v);
          }
          return ok;
        });
        levels.wrote(writes.filter((_, i) => won[i]).map((w) => w.next));
        return won;
      });
    },
  };
};
