import { nextRunAfter } from '../heartbeats/schedule.js';
import { describeSchedule } from '../heartbeats/schedule-text.js';
import type { MaintenanceCover, MaintenanceWindow } from '../types.js';
import type { MaintenanceWindowStore } from './maintenance-store.js';

/**
 * What maintenance covers at one moment, asked by everything that derives a status or raises an alert
 * (the monitor list and counts, heartbeats, status pages, alert suppression), so one-off and recurring
 * windows and every scope mean the same everywhere.
 *
 * A recurring window is active from each occurrence of its `schedule` (read in its `timezone`, as
 * heartbeat schedules are: croner, which follows Vixie cron across DST) for `duration_seconds` of real
 * time. The occurrence covering `at`, if any, is the first one strictly after `at - duration`: one
 * `nextRun` on the parsed cron, which is cached by expression and zone (domain/heartbeats/schedule.ts),
 * so a cover costs one step per window of the workspace (at most MAX_WINDOWS), never one per monitor.
 */

/**
 * What the active maintenance windows of one workspace cover at one moment. Declared at the root
 * (domain/types.ts) so that the monitor-status port, a layer below, can take one.
 */
export type { MaintenanceCover } from '../types.js';

export const NO_COVER: MaintenanceCover = Object.freeze({
  workspace: false,
  monitorIds: [],
  heartbeatIds: [],
  groupIds: [],
  tags: [],
}) as MaintenanceCover;

/** Windows a workspace may hold that have not ended (every recurring one counts): docs/decisions.md. */
export const MAX_WINDOWS = 200;
/** How long an ended one-off window stays listed (history) before the jobs delete it. */
export const ENDED_WINDOW_DAYS = 400;

export interface Occurrence {
  starts_at: Date;
  ends_at: Date;
}

type Timed = Pick<
  MaintenanceWindow,
  'starts_at' | 'ends_at' | 'schedule' | 'timezone' | 'duration_seconds'
> & {
  id?: string;
};

const isRecurring = (w: Timed): w is Timed & { schedule: string; duration_seconds: number } =>
  w.schedule !== null && w.schedule !== undefined && typeof w.duration_seconds === 'number';

/**
 * The answer of `firstEndingAfter` per window, with the moment it was computed for: it stays the answer
 * for every later moment until that occurrence ends, so a window costs one cron step per occurrence,
 * not one per question (a step in a time zone takes ~0.1 ms). Bounded; the oldest goes first.
 */
const memo = new Map<string, { from: number; o: Occurrence | null }>();
const MEMO_MAX = 10_000;

/** The first occurrence of a recurring window that ends after `after` (it may have begun already). */
const firstEndingAfter = (w: Timed & { schedule: string; duration_seconds: number }, after: Date) => {
  const t = after.getTime();
  const key = `${w.id}\u0000${w.schedule}\u0000${w.timezone}\u0000${w.duration_seconds}\u0000${w.starts_at.getTime()}`;
  const known = memo.get(key);
  if (known && t >= known.from && (known.o === null || t < known.o.ends_at.getTime())) return known.o;
  const ms = w.duration_seconds * 1000;
  // Occurrences before the window began to recur do not count: search from just before its start.
  const from = Math.max(t - ms, w.starts_at.getTime() - 1);
  const start = nextRunAfter(w.schedule, w.timezone ?? 'UTC', new Date(from));
  const o = start ? { starts_at: start, ends_at: new Date(start.getTime() + ms) } : null;
  memo.delete(key);
  if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value as string);
  memo.set(key, { from: t, o });
  return o;
};

/** The occurrence of `w` that covers `at`, or null. */
export const occurrenceAt = (w: Timed, at: Date): Occurrence | null => {
  if (!isRecurring(w))
    return w.ends_at && w.starts_at <= at && at < w.ends_at
      ? { starts_at: w.starts_at, ends_at: w.ends_at }
      : null;
  const o = firstEndingAfter(w, at);
  return o && o.starts_at <= at ? o : null;
};

/** The occurrence covering `at`, else the next one to begin; null for an ended one-off window. */
export const currentOrNext = (w: Timed, at: Date): Occurrence | null => {
  if (!isRecurring(w))
    return w.ends_at && at < w.ends_at ? { starts_at: w.starts_at, ends_at: w.ends_at } : null;
  return firstEndingAfter(w, at);
};

/** The cover of `windows` (one workspace's) at `at`. */
export const coverAt = (windows: MaintenanceWindow[], at: Date): MaintenanceCover => {
  let cover: MaintenanceCover | null = null;
  for (const w of windows) {
    if (!occurrenceAt(w, at)) continue;
    cover ??= { workspace: false, monitorIds: [], heartbeatIds: [], groupIds: [], tags: [] };
    if (w.scope_type === 'workspace') cover.workspace = true;
    else if (w.scope_id === null) continue;
    else if (w.scope_type === 'monitor') cover.monitorIds.push(w.scope_id);
    else if (w.scope_type === 'heartbeat') cover.heartbeatIds.push(w.scope_id);
    else if (w.scope_type === 'group') cover.groupIds.push(w.scope_id);
    else if (w.scope_type === 'tag') cover.tags.push(w.scope_id);
  }
  return cover ?? NO_COVER;
};

/** The cover of the workspace's windows at `at`: one small indexed read of them, then `coverAt`. */
export const coverNow = async (
  store: Pick<MaintenanceWindowStore, 'listLiveMaintenanceWindows'>,
  workspaceId: string,
  at: Date,
): Promise<MaintenanceCover> =>
  coverAt(await store.listLiveMaintenanceWindows(workspaceId, at, MAX_WINDOWS), at);

/** A monitor or heartbeat as the cover sees it (group and tags where it has them). */
export interface CoveredSource {
  type: string;
  id: string;
  group_id?: string | null | undefined;
  tags?: readonly string[] | undefined;
}

/** Whether `w`'s scope takes in `source` (whatever the time). */
export const scopeCovers = (w: Pick<MaintenanceWindow, 'scope_type' | 'scope_id'>, source: CoveredSource) =>
  w.scope_type === 'workspace' ||
  (w.scope_type === source.type && w.scope_id === source.id) ||
  (w.scope_type === 'group' && !!source.group_id && w.scope_id === source.group_id) ||
  (w.scope_type === 'tag' &&
    (source.type === 'monitor' || source.type === 'heartbeat') &&
    !!source.tags?.includes(w.scope_id ?? ''));

/** Whether `cover` takes in `source`. */
export const isCovered = (cover: MaintenanceCover, source: CoveredSource): boolean =>
  cover !== NO_COVER &&
  (cover.workspace ||
    (source.type === 'monitor' && cover.monitorIds.includes(source.id)) ||
    (source.type === 'heartbeat' && cover.heartbeatIds.includes(source.id)) ||
    (!!source.group_id && cover.groupIds.includes(source.group_id)) ||
    (!!source.tags && source.tags.some((t) => cover.tags.includes(t))));

/**
 * The window covering `source` at `at` among `windows` (one workspace's), earliest occurrence first;
 * what `MaintenanceLookup.findActiveMaintenanceWindow` answers on both stores.
 */
export const windowOver = (
  windows: MaintenanceWindow[],
  source: CoveredSource,
  at: Date,
): MaintenanceWindow | null => {
  let best: { w: MaintenanceWindow; start: number } | null = null;
  for (const w of windows) {
    if (!scopeCovers(w, source)) continue;
    const o = occurrenceAt(w, at);
    if (!o) continue;
    const start = o.starts_at.getTime();
    if (!best || start < best.start || (start === best.start && w.id < best.w.id)) best = { w, start };
  }
  return best?.w ?? null;
};

const durationText = (seconds: number) => {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units)
    if (seconds % size === 0) return `${seconds / size} ${unit}${seconds === size ? '' : 's'}`;
  return `${seconds} seconds`;
};

/** A recurring window's rule in words ("At 02:00, only on Sunday, Europe/Berlin, for 2 hours"); null for one-off. */
export const describeRecurrence = (w: Timed): string | null =>
  isRecurring(w)
    ? `${describeSchedule({ schedule: w.schedule, timezone: w.timezone ?? 'UTC', period_seconds: 0 })}, for ${durationText(w.duration_seconds)}`
    : null;
