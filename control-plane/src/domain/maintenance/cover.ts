import type { MaintenanceLookup } from '../lookups.js';
import type { MaintenanceCover, MaintenanceWindow } from '../types.js';

export type { MaintenanceCover } from '../types.js';

/** Nothing covered. */
export const NO_COVER: MaintenanceCover = Object.freeze({
  workspace: false,
  monitorIds: [],
  heartbeatIds: [],
  groupIds: [],
  tags: [],
}) as MaintenanceCover;

/** Whether `w` is in effect at `at`: a one-off window from `starts_at` (inclusive) to `ends_at`. */
const activeAt = (w: MaintenanceWindow, at: Date) =>
  w.starts_at.getTime() <= at.getTime() && at.getTime() < w.ends_at.getTime();

/**
 * The cover of `windows` (one workspace's) at `at`. Every status derivation (the monitor list, its
 * counts, a single monitor's status) asks this, never a comparison of `starts_at`/`ends_at` in a
 * query, so that a new kind of window (recurring) or of scope (tag, group) is understood in one place.
 */
export const coverAt = (windows: MaintenanceWindow[], at: Date): MaintenanceCover => {
  const cover: MaintenanceCover = {
    workspace: false,
    monitorIds: [],
    heartbeatIds: [],
    groupIds: [],
    tags: [],
  };
  for (const w of windows) {
    if (!activeAt(w, at)) continue;
    if (w.scope_type === 'workspace') cover.workspace = true;
    else if (w.scope_type === 'monitor' && w.scope_id) cover.monitorIds.push(w.scope_id);
    else if (w.scope_type === 'heartbeat' && w.scope_id) cover.heartbeatIds.push(w.scope_id);
  }
  for (const k of ['monitorIds', 'heartbeatIds', 'groupIds', 'tags'] as const)
    cover[k] = [...new Set(cover[k])].sort();
  return cover;
};

/** The cover of the workspace's windows now: one bounded read of them, then `coverAt`. */
export const coverNow = async (
  store: MaintenanceLookup,
  workspaceId: string,
  at: Date,
): Promise<MaintenanceCover> => coverAt(await store.listCoveringWindows(workspaceId, at), at);
