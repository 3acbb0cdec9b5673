import { AppError, newId } from '@lookout/shared';
import { z } from 'zod';
import type { HeartbeatStore } from './heartbeat-store.js';
import type { MonitorStore } from './monitor-store.js';
import type { RoutingStore } from './routing-store.js';
import { MAINTENANCE_SCOPES, type MaintenanceWindow } from './types.js';
import { parseOrThrow, throwIfProblems, uuid } from './validation.js';

const time = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

export const createWindowBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  scope_type: z.enum(MAINTENANCE_SCOPES),
  /** The monitor or heartbeat id; omitted for the whole workspace. */
  scope_id: uuid().optional(),
  starts_at: time,
  ends_at: time,
});

const MAX_DAYS = 31;

export const createWindow = async (
  store: HeartbeatStore & MonitorStore & RoutingStore,
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
  if (v.ends_at <= v.starts_at) problems.push({ field: 'ends_at', message: 'must be after starts_at' });
  else if (v.ends_at.getTime() - v.starts_at.getTime() > MAX_DAYS * 86_400_000)
    problems.push({ field: 'ends_at', message: `must be at most ${MAX_DAYS} days after starts_at` });
  else if (v.ends_at <= now) problems.push({ field: 'ends_at', message: 'must be in the future' });
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
  store: HeartbeatStore & MonitorStore & RoutingStore,
  workspaceId: string,
  id: string,
) => {
  if (!(await store.deleteMaintenanceWindow(workspaceId, id)))
    throw new AppError('not_found', 'Maintenance window not found.');
};
