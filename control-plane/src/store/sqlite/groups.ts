import type { GroupStore } from '../../domain/monitors/group-store.js';
import { groupNameKey } from '../../domain/monitors/groups.js';
import type { Group, HeartbeatState } from '../../domain/types.js';
import type { SqliteContext } from './db.js';
import { groups, insertSql, toRow } from './tables.js';

const isUniqueViolation = (e: unknown) =>
  e instanceof Error && 'code' in e && (e as { code: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';

/**
 * Groups in SQLite. The name's key (`name_key`, unique per workspace) is written beside it; the count
 * of a workspace's groups is read in the IMMEDIATE transaction that inserts, so two creates never pass
 * the cap together. A delete ungroups the members in its transaction, and appends each ungrouped
 * monitor to the monitor feed (its version moves, as for any edit).
 */
export const sqliteGroups = ({ st, one, many, immediate, read, page }: SqliteContext): GroupStore => ({
  async insertGroup(group, { maxGroups }) {
    return immediate(() => {
      const n = (
        st('SELECT count(*) n FROM groups WHERE workspace_id = ?').get(group.workspace_id) as {
          n: number;
        }
      ).n;
      if (n >= maxGroups) return 'limit_reached' as const;
      try {
        st(insertSql(groups, ['name_key'])).run({
          ...toRow(groups, group),
          name_key: groupNameKey(group.name),
        });
      } catch (e) {
        if (isUniqueViolation(e)) return 'name_taken' as const;
        throw e;
      }
      return 'inserted' as const;
    });
  },
  async getGroup(workspaceId, id) {
    return one<Group>(groups, 'SELECT * FROM groups WHERE workspace_id = ? AND id = ?', workspaceId, id);
  },
  async getGroupsByIds(workspaceId, ids) {
    if (ids.length === 0) return [];
    return many<Group>(
      groups,
      'SELECT * FROM groups WHERE workspace_id = ? AND id IN (SELECT value FROM json_each(?))',
      workspaceId,
      JSON.stringify(ids.slice(0, 1000)),
    );
  },
  async listGroups(workspaceId, q) {
    const where = ['workspace_id = ?'];
    const params: unknown[] = [workspaceId];
    if (q.search) {
      where.push('instr(name_key, ?) > 0');
      params.push(groupNameKey(q.search));
    }
    return page<Group>(groups, where, params, q);
  },
  async updateGroup(next) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(() => {
      try {
        const r = st(
          'UPDATE groups SET name = ?, name_key = ?, updated_at = ? WHERE workspace_id = ? AND id = ?',
        ).run(next.name, groupNameKey(next.name), next.updated_at.getTime(), next.workspace_id, next.id);
        return r.changes === 1 ? 'updated' : 'not_found';
      } catch (e) {
        if (isUniqueViolation(e)) return 'name_taken';
        throw e;
      }
    });
  },
  async deleteGroup(workspaceId, id, at) {
    return immediate(() => {
      if (st('DELETE FROM groups WHERE workspace_id = ? AND id = ?').run(workspaceId, id).changes !== 1)
        return false;
      const ms = at.getTime();
      const members = st('SELECT id FROM monitors WHERE workspace_id = ? AND group_id = ?').all(
        workspaceId,
        id,
      ) as { id: string }[];
      st(
        `UPDATE monitors SET group_id = NULL, version = version + 1, updated_at = ?
         WHERE workspace_id = ? AND group_id = ?`,
      ).run(ms, workspaceId, id);
      const feed = st(`INSERT INTO monitor_changes (monitor_id, kind, at) VALUES (?, 'changed', ?)`);
      for (const m of members) feed.run(m.id, Date.now());
      st(
        `UPDATE heartbeats SET group_id = NULL, version = version + 1, updated_at = ?
         WHERE workspace_id = ? AND group_id = ?`,
      ).run(ms, workspaceId, id);
      return true;
    });
  },
  async listGroupMembers(workspaceId, groupIds, limit) {
    if (groupIds.length === 0) return { monitors: [], heartbeats: [] };
    const ids = JSON.stringify(groupIds);
    const inGroups = 'workspace_id = ? AND group_id IN (SELECT value FROM json_each(?)) LIMIT ?';
    return read(() => ({
      monitors: st(`SELECT id, group_id FROM monitors WHERE ${inGroups}`).all(workspaceId, ids, limit) as {
        id: string;
        group_id: string;
      }[],
      heartbeats: (
        st(`SELECT id, group_id, state, last_ping_at FROM heartbeats WHERE ${inGroups}`).all(
          workspaceId,
          ids,
          limit,
        ) as { id: string; group_id: string; state: HeartbeatState; last_ping_at: number | null }[]
      ).map((h) => ({ ...h, last_ping_at: h.last_ping_at === null ? null : new Date(h.last_ping_at) })),
    }));
  },
});
