import { AppError, newId } from '@lookout/shared';
import { z } from 'zod';
import type { Group } from '../types.js';
import { nameText, parseOrThrow } from '../validation.js';
import type { GroupStore } from './group-store.js';

/**
 * Groups of monitors and heartbeats (docs/decisions.md, "Groups and tags"): one level deep, a name
 * unique in the workspace ignoring case, at most MAX_GROUPS a workspace.
 */

/** The most groups one workspace holds (a list people scroll and pick from, not a tag cloud). */
export const MAX_GROUPS = 1000;

export const groupBody = z.strictObject({ name: nameText(100) });

/** The key a name is unique by: Unicode-normalised, lower case ("Edge", "EDGE" and "edge" collide). */
export const groupNameKey = (name: string) => name.normalize('NFKC').toLowerCase();

const nameTaken = (name: string) =>
  new AppError('conflict', `Another group in this workspace is named "${name}".`, [
    { field: 'name', message: 'is taken by another group in this workspace (names ignore case)' },
  ]);

export const createGroup = async (
  store: GroupStore,
  workspaceId: string,
  body: unknown,
  now: Date,
): Promise<Group> => {
  const { name } = parseOrThrow(groupBody, body);
  const group: Group = { id: newId(), workspace_id: workspaceId, name, created_at: now, updated_at: now };
  const outcome = await store.insertGroup(group, { maxGroups: MAX_GROUPS });
  if (outcome === 'name_taken') throw nameTaken(name);
  if (outcome === 'limit_reached')
    throw new AppError(
      'conflict',
      `A workspace holds at most ${MAX_GROUPS} groups; delete one you no longer use first.`,
    );
  return group;
};

export const loadGroup = async (store: GroupStore, workspaceId: string, id: string): Promise<Group> => {
  const g = await store.getGroup(workspaceId, id);
  if (!g) throw new AppError('not_found', 'Group not found.');
  return g;
};

export const renameGroup = async (
  store: GroupStore,
  workspaceId: string,
  id: string,
  body: unknown,
  now: Date,
): Promise<Group> => {
  const { name } = parseOrThrow(groupBody, body);
  const next = { ...(await loadGroup(store, workspaceId, id)), name, updated_at: now };
  const outcome = await store.updateGroup(next);
  if (outcome === 'name_taken') throw nameTaken(name);
  if (outcome === 'not_found') throw new AppError('not_found', 'Group not found.');
  return next;
};

export const deleteGroup = async (store: GroupStore, workspaceId: string, id: string, now: Date) => {
  if (!(await store.deleteGroup(workspaceId, id, now))) throw new AppError('not_found', 'Group not found.');
};
