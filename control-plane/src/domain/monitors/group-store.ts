import type { Group, HeartbeatState, Page, PageQuery } from '../types.js';

/** What a status page needs of a group's members: who they are, and a heartbeat's state. */
export interface GroupMembers {
  monitors: { id: string; group_id: string }[];
  heartbeats: { id: string; group_id: string; state: HeartbeatState; last_ping_at: Date | null }[];
}

export interface GroupQuery extends PageQuery {
  /** Case-insensitive part of the name (pickers search the whole set through it). */
  search?: string | undefined;
}

/**
 * Groups of monitors and heartbeats. Names are unique per workspace ignoring case (`groupNameKey` in
 * groups.ts is the key both adapters index). Adapters: store/sqlite/groups.ts, store/mongo/groups.ts;
 * contract test/contract/groups.test.ts.
 */
export interface GroupStore {
  /** Inserts unless the name is taken or the workspace already has `maxGroups` groups. */
  insertGroup(
    group: Group,
    limit: { maxGroups: number },
  ): Promise<'inserted' | 'name_taken' | 'limit_reached'>;
  getGroup(workspaceId: string, id: string): Promise<Group | null>;
  /** The groups of the workspace among `ids` (others, and unknown ids, left out). At most 1,000 ids. */
  getGroupsByIds(workspaceId: string, ids: string[]): Promise<Group[]>;
  /** Newest first. */
  listGroups(workspaceId: string, query: GroupQuery): Promise<Page<Group>>;
  /** Renames; 'name_taken' (nothing stored) when another group of the workspace has the name. */
  updateGroup(next: Group): Promise<'updated' | 'not_found' | 'name_taken'>;
  /**
   * Deletes the group and, in the same atomic step, ungroups its members: every monitor and heartbeat
   * whose `group_id` it was gets null (a monitor's `version` moves and the monitor feed learns of it,
   * as for any edit). False when there was no such group.
   */
  deleteGroup(workspaceId: string, id: string, at: Date): Promise<boolean>;
  /**
   * The monitors and heartbeats of these groups of the workspace, at most `limit` of each kind (all the
   * groups together; indexed by group, one bounded read whatever the groups hold).
   */
  listGroupMembers(workspaceId: string, groupIds: string[], limit: number): Promise<GroupMembers>;
}
