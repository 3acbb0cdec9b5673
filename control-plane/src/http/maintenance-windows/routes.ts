import { AppError } from '@lookout/shared';
import { z } from 'zod';
import type { HeartbeatStore } from '../../domain/heartbeats/heartbeat-store.js';
import {
  createWindow,
  createWindowBody,
  deleteWindow,
  endWindow,
  updateWindow,
  updateWindowBody,
} from '../../domain/maintenance/maintenance.js';
import type { MaintenanceWindowStore } from '../../domain/maintenance/maintenance-store.js';
import type { GroupStore } from '../../domain/monitors/group-store.js';
import type { MonitorStore } from '../../domain/monitors/monitor-store.js';
import { idOf, pageQuery } from '../query.js';
import { page } from '../responses.js';
import { type RouteDeps, route } from '../route.js';
import { maintenanceWindowJson, maintenanceWindowResponse } from './responses.js';

export const maintenanceWindowRoutes = ({
  store,
  clock,
}: RouteDeps<MaintenanceWindowStore & MonitorStore & HeartbeatStore & GroupStore>) => [
  route({
    method: 'get',
    path: '/maintenance-windows',
    tag: 'Maintenance windows',
    response: page(maintenanceWindowResponse),
    summary:
      'List maintenance windows, latest start first (a recurring window starts when it was created); each with its occurrence in progress or next (`next_occurrence`).',
    query: z.strictObject(pageQuery),
    async handler({ auth, query }) {
      const now = clock.now();
      const page = await store.listMaintenanceWindows(auth.workspace.id, query);
      return { data: page.data.map((w) => maintenanceWindowJson(w, now)), next_cursor: page.next_cursor };
    },
  }),
  route({
    method: 'post',
    path: '/maintenance-windows',
    tag: 'Maintenance windows',
    response: maintenanceWindowResponse,
    summary:
      'Plan a window for a monitor, a heartbeat, a group, a tag or the whole workspace (`scope_type`, `scope_id`: the id, or the tag). One-off: `starts_at` and `ends_at`. Recurring: `schedule` (five cron fields), `timezone` (IANA, default UTC) and `duration_seconds` (at most 7 days and at most the shortest time between two occurrences). Alerts raised inside it are recorded but not escalated. A workspace holds at most 200 windows that have not ended (409 beyond).',
    role: 'admin',
    body: createWindowBody,
    status: 201,
    async handler({ auth, body }) {
      const now = clock.now();
      return maintenanceWindowJson(await createWindow(store, auth.workspace.id, body, now), now);
    },
  }),
  route({
    method: 'get',
    path: '/maintenance-windows/{id}',
    tag: 'Maintenance windows',
    response: maintenanceWindowResponse,
    summary: 'Get a maintenance window.',
    responses: { 404: 'No such window in this workspace' },
    async handler({ auth, params }) {
      const w = await store.getMaintenanceWindow(auth.workspace.id, idOf(params.id));
      if (!w) throw new AppError('not_found', 'Maintenance window not found.');
      return maintenanceWindowJson(w, clock.now());
    },
  }),
  route({
    method: 'patch',
    path: '/maintenance-windows/{id}',
    tag: 'Maintenance windows',
    response: maintenanceWindowResponse,
    summary:
      "Rename a window, move a one-off window's start or end, or change a recurring window's schedule, time zone or duration (its scope and its form stay). The times follow the rules of a new window; an ended window cannot change (409).",
    role: 'admin',
    body: updateWindowBody,
    responses: { 404: 'No such window in this workspace', 409: 'The window has ended' },
    async handler({ auth, params, body }) {
      const now = clock.now();
      return maintenanceWindowJson(
        await updateWindow(store, auth.workspace.id, idOf(params.id), body, now),
        now,
      );
    },
  }),
  route({
    method: 'post',
    path: '/maintenance-windows/{id}/end',
    tag: 'Maintenance windows',
    response: maintenanceWindowResponse,
    summary:
      'End an active one-off window now: its end becomes the present, and it stays listed. 409 for one that has ended or not started, and for a recurring window (delete those instead).',
    role: 'admin',
    responses: { 404: 'No such window in this workspace', 409: 'Not active' },
    async handler({ auth, params }) {
      const now = clock.now();
      return maintenanceWindowJson(await endWindow(store, auth.workspace.id, idOf(params.id), now), now);
    },
  }),
  route({
    method: 'delete',
    path: '/maintenance-windows/{id}',
    tag: 'Maintenance windows',
    response: null,
    summary: 'Delete a maintenance window (to end an active one and keep its record: POST …/end).',
    role: 'admin',
    status: 204,
    responses: { 404: 'No such window in this workspace' },
    async handler({ auth, params }) {
      await deleteWindow(store, auth.workspace.id, idOf(params.id));
      return undefined;
    },
  }),
];
