import { AppError, newId } from '@lookout/shared';
import { z } from 'zod';
import type { HeartbeatStore } from '../heartbeats/heartbeat-store.js';
import type { MonitorStore } from '../monitors/monitor-store.js';
import { MAINTENANCE_SCOPES, type MaintenanceWindow } from '../types.js';
import { nameText, parseOrThrow, throwIfProblems, uuid } from '../validation.js';
import type { MaintenanceWindowStore } from './maintenance-store.js';

const time = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

export const createWindowBody = z.strictObject({
  name: nameText(200),
  scope_type: z.enum(MAINTENANCE_SCOPES),
  /** The monitor or heartbeat id; omitted for the whole workspace. */
  scope_id: uuid().optional(),
  starts_at: time,
  ends_at: time,
});

export const updateWindowBody = z.strictObject({
  name: createWindowBody.shape.name.optional(),
  starts_at: time.optional(),
  ends_at: time.optional(),
});

const MAX_DAYS = 31;

/** The rules on a window's times, for a new window and for an edited one alike. */
const timeProblems = (starts: Date, ends: Date, now: Date) =>
  ends <= starts
    ? [{ field: 'ends_at', message: 'must be after starts_at' }]
    : ends.getTime() - starts.getTime() > MAX_DAYS * 86_400_000
      ? [{ field: 'ends_at', message: `must be at most ${MAX_DAYS} days after starts_at` }]
      : ends <= now
        ? [{ field: 'ends_at', message: 'must be in the future' }]
        : [];

export const createWindow = async (
  store: HeartbeatStore & MonitorStore & MaintenanceWindowStore,
  workspaceId: string,
  body: unknown,
  now: Date,
): Promise<MaintenanceWindow> => {
  const v = parseOrThrow(createWindowBody, body);
  const problems = [];
  if (v.scope_type === 'workspace' && v.scope_id !== undefined)
    problems.push({ field: 'scope_id', message: 'must be omitted for a workspace-wide window' });
  if (v.scope_type !== 'workspace' && v.scope_id === undefined)
    problems.push({ field: 'scope_id', message: `is required for a ${v.scope_type} window` });
  if (
    v.scope_type === 'monitor' &&
    v.scope_id &&
    !(await store.getMonitor(workspaceId, v.scope_id.toLowerCase()))
  )
    problems.push({ field: 'scope_id', message: 'no monitor with this id in the workspace' });
  if (
    v.scope_type === 'heartbeat' &&
    v.scope_id &&
    !(await store.getHeartbeat(workspaceId, v.scope_id.toLowerCase()))
  )
    problems.push({ field: 'scope_id', message: 'no heartbeat with this id in the workspace' });
  problems.push(...timeProblems(v.starts_at, v.ends_at, now));
  throwIfProblems(problems);
  const w: MaintenanceWindow = {
    id: newId(),
    workspace_id: workspaceId,
    name: v.name,
    scope_type: v.scope_type,
    scope_id: v.scope_id?.toLowerCase() ?? null,
    starts_at: v.starts_at,
    ends_at: v.ends_at,
    created_at: now,
  };
  await store.insertMaintenanceWindow(w);
  return w;
};

export const deleteWindow = async (
  store: HeartbeatStore & MonitorStore & MaintenanceWindowStore,
  workspaceId: string,
  id: string,
) => {
  if (!(await store.deleteMaintenanceWindow(workspaceId, id)))
    throw new AppError('not_found', 'Maintenance window not found.');
};

const loadWindow = async (store: MaintenanceWindowStore, workspaceId: string, id: string) => {
  const w = await store.getMaintenanceWindow(workspaceId, id);
  if (!w) throw new AppError('not_found', 'Maintenance window not found.');
  return w;
};

const saveWindow = async (store: MaintenanceWindowStore, w: MaintenanceWindow) => {
  if (!(await store.updateMaintenanceWindow(w)))
    throw new AppError('not_found', 'Maintenance window not found.');
  return w;
};

/**
 * Renames a window or moves its times (its scope stays: plan another window for something else).
 * An ended window is history and stays as it was; the edited times follow the rules of a new window.
 */
export const updateWindow = async (
  store: MaintenanceWindowStore,
  workspaceId: string,
  id: string,
  body: unknown,
  now: Date,
): Promise<MaintenanceWindow> => {
  const patch = parseOrThrow(updateWindowBody, body);
  const existing = await loadWindow(store, workspaceId, id);
  if (existing.ends_at <= now)
    throw new AppError('conflict', 'This maintenance window has ended; plan a new one instead.');
  const next: MaintenanceWindow = {
    ...existing,
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.starts_at ? { starts_at: patch.starts_at } : {}),
    ...(patch.ends_at ? { ends_at: patch.ends_at } : {}),
  };
  throwIfProblems(timeProblems(next.starts_at, next.ends_at, now));
  return saveWindow(store, next);
};

/** Ends an active window now (its record stays, with its real end); an upcoming one is deleted instead. */
export const endWindow = async (
  store: MaintenanceWindowStore,
  workspaceId: string,
  id: string,
  now: Date,
): Promise<MaintenanceWindow> => {
  const existing = await loadWindow(store, workspaceId, id);
  if (existing.ends_at <= now) throw new AppError('conflict', 'This maintenance window has already ended.');
  if (existing.starts_at > now)
    throw new AppError('conflict', 'This maintenance window has not started; delete it instead.');
  return saveWindow(store, { ...existing, ends_at: now });
};
