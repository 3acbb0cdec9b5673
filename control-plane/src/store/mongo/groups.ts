import type { GroupStore } from '../../domain/monitors/group-store.js';
import { groupNameKey } from '../../domain/monitors/groups.js';
import type { Group, HeartbeatState } from '../../domain/types.js';
import {
  bumpGuard,
  escapeRegex,
  fromDoc,
  fromDocs,
  type IndexDecl,
  isDuplicateOn,
  type MongoContext,
  page,
  toDoc,
} from './db.js';
import { appendMonitorChanges, changed } from './monitors.js';

export const groupIndexes: IndexDecl[] = [
  { on: 'groups', key: { workspace_id: 1, name_key: 1 }, options: { unique: true } },
  { on: 'groups', key: { workspace_id: 1, created_at: -1, _id: -1 } },
];

const NAME_KEY = ['workspace_id', 'name_key'];

/**
 * Groups in MongoDB. An insert bumps the workspace's guard before it counts, so two creates racing
 * for the last place conflict and one is retried (and finds the cap); the unique (workspace, name
 * key) index refuses a second group of the same name. A delete ungroups the members in its
 * transaction and appends each ungrouped monitor to the feed.
 */
export const mongoGroups = (ctx: MongoContext): GroupStore => {
  const { col, inTransaction } = ctx;
  const { groups, monitors, heartbeats, workspaces } = col;
  const nameTaken = (e: unknown) => isDuplicateOn(e, NAME_KEY);
  return {
    async insertGroup(group, { maxGroups }) {
      try {
        return await inTransaction(async (session) => {
          await bumpGuard(workspaces, group.workspace_id, session);
          const n = await groups.countDocuments({ workspace_id: group.workspace_id }, { session });
          if (n >= maxGroups) return 'limit_reached' as const;
          await groups.insertOne({ ...toDoc(group), name_key: groupNameKey(group.name) }, { session });
          return 'inserted' as const;
        });
      } catch (e) {
        if (nameTaken(e)) return 'name_taken';
        throw e;
      }
    },
    async getGroup(workspaceId, id) {
      return fromDoc<Group>(await groups.findOne({ workspace_id: workspaceId, _id: id }));
    },
    async getGroupsByIds(workspaceId, ids) {
      if (ids.length === 0) return [];
      return fromDocs<Group>(
        await groups.find({ workspace_id: workspaceId, _id: { $in: ids.slice(0, 1000) } }).toArray(),
      );
    },
    async listGroups(workspaceId, q) {
      const f: Record<string, unknown> = { workspace_id: workspaceId };
      if (q.search) f.name_key = new RegExp(escapeRegex(groupNameKey(q.search)));
      return page<Group>(groups, f, q);
    },
    async updateGroup(next) {
      try {
        // In a transaction: the request's audit entry is written with it (db.ts `inTransaction`).
        const r = await inTransaction((session) =>
          groups.updateOne(
            { _id: next.id, workspace_id: next.workspace_id },
            { $set: { name: next.name, name_key: groupNameKey(next.name), updated_at: next.updated_at } },
            { session },
          ),
        );
        return r.matchedCount === 1 ? 'updated' : 'not_found';
      } catch (e) {
        if (nameTaken(e)) return 'name_taken';
        throw e;
      }
    },
    async deleteGroup(workspaceId, id, at) {
      return inTransaction(async (session) => {
        const gone = await groups.deleteOne({ workspace_id: workspaceId, _id: id }, { session });
        if (gone.deletedCount !== 1) return false;
        const members = await monitors
          .find({ workspace_id: workspaceId, group_id: id }, { session, projection: { _id: 1 } })
          .toArray();
        const ungroup = { $set: { group_id: null, updated_at: at }, $inc: { version: 1 } };
        await monitors.updateMany({ workspace_id: workspaceId, group_id: id }, ungroup, { session });
        await appendMonitorChanges(
          col,
          session,
          members.map((m) => changed(m._id)),
        );
        await heartbeats.updateMany({ workspace_id: workspaceId, group_id: id }, ungroup, { session });
        return true;
      });
    },
    async listGroupMembers(workspaceId, groupIds, limit) {
      if (groupIds.length === 0) return { monitors: [], heartbeats: [] };
      const filter = { workspace_id: workspaceId, group_id: { $in: groupIds } };
      const [ms, hs] = await Promise.all([
        monitors
          .find(filter, { projection: { _id: 1, group_id: 1 } })
          .limit(limit)
          .toArray(),
        heartbeats
          .find(filter, { projection: { _id: 1, group_id: 1, state: 1, last_ping_at: 1 } })
          .limit(limit)
          .toArray(),
      ]);
      return {
        monitors: ms.map((m) => ({ id: m._id, group_id: m.group_id as string })),
        heartbeats: hs.map((h) => ({
          id: h._id,
          group_id: h.group_id as string,
          state: h.state as HeartbeatState,
          last_ping_at: (h.last_ping_at as Date | null | undefined) ?? null,
        })),
      };
    },
  };
};
