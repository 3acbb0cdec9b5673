import { AppError } from '@lookout/shared';
import { z } from 'zod';
import {
  createMonitor,
  createMonitorBody,
  setPaused,
  updateMonitor,
  updateMonitorBody,
} from '../../domain/monitors.js';
import type { Monitor } from '../../domain/types.js';
import { MONITOR_TYPES } from '../../domain/types.js';
import { type AppDeps, type Authed, route } from '../route.js';
import { monitorJson } from '../serialize.js';
import { boolParam, pageQuery } from './query.js';

export const monitorRoutes = ({ store, clock, config }: AppDeps) => {
  const context = (auth: Authed) => ({
    workspace: auth.workspace,
    plan: config.plans[auth.workspace.plan] ?? { max_monitors: 0, min_interval_seconds: 86400 },
    planName: auth.workspace.plan,
    regions: config.regions,
    store,
    now: clock.now(),
  });
  const load = async (auth: Authed, id: string): Promise<Monitor> => {
    const m = await store.getMonitor(auth.workspace.id, id);
    if (!m) throw new AppError('not_found', 'Monitor not found.');
    return m;
  };

  return [
    route({
      method: 'post',
      path: '/monitors/create',
      tag: 'Monitors',
      summary:
        'Create a monitor. An interval below the plan minimum is raised to it, and `warnings` says so.',
      role: 'member',
      body: createMonitorBody,
      status: 201,
      responses: {
        201: 'The monitor, with `warnings`',
        402: 'Plan monitor limit reached: upgrade to add more',
      },
      async handler({ auth, body }) {
        const { monitor, notices } = await createMonitor(context(auth), body);
        return { ...monitorJson(monitor, auth.user.role), warnings: notices };
      },
    }),
    route({
      method: 'get',
      path: '/monitors',
      tag: 'Monitors',
      summary: 'List monitors, newest first.',
      query: z.strictObject({
        ...pageQuery,
        monitor_type: z.enum(MONITOR_TYPES).optional(),
        paused: boolParam.optional(),
        search: z.string().min(1).max(200).optional(),
      }),
      async handler({ auth, query }) {
        const page = await store.listMonitors(auth.workspace.id, query);
        return { data: page.data.map((m) => monitorJson(m, auth.user.role)), next_cursor: page.next_cursor };
      },
    }),
    route({
      method: 'get',
      path: '/monitors/{id}',
      tag: 'Monitors',
      summary: 'Get a monitor.',
      responses: { 404: 'No such monitor in this workspace' },
      async handler({ auth, params }) {
        return monitorJson(await load(auth, params.id!), auth.user.role);
      },
    }),
    route({
      method: 'patch',
      path: '/monitors/{id}',
      tag: 'Monitors',
      summary: 'Change some fields of a monitor; the result is checked as a whole.',
      role: 'member',
      body: updateMonitorBody,
      responses: { 404: 'No such monitor in this workspace', 409: 'Changed concurrently; retry' },
      async handler({ auth, params, body }) {
        const { monitor, notices } = await updateMonitor(context(auth), await load(auth, params.id!), body);
        return { ...monitorJson(monitor, auth.user.role), warnings: notices };
      },
    }),
    route({
      method: 'delete',
      path: '/monitors/{id}',
      tag: 'Monitors',
      summary: 'Delete a monitor.',
      role: 'member',
      status: 204,
      responses: { 404: 'No such monitor in this workspace' },
      async handler({ auth, params }) {
        if (!(await store.deleteMonitor(auth.workspace.id, params.id!)))
          throw new AppError('not_found', 'Monitor not found.');
        return undefined;
      },
    }),
    ...(['pause', 'resume'] as const).map((action) =>
      route({
        method: 'post',
        path: `/monitors/{id}/${action}`,
        tag: 'Monitors',
        summary: action === 'pause' ? 'Stop running checks until resumed.' : 'Run checks again.',
        role: 'member',
        responses: { 404: 'No such monitor in this workspace' },
        async handler({ auth, params }) {
          return monitorJson(
            await setPaused(store, await load(auth, params.id!), action === 'pause', clock.now()),
            auth.user.role,
          );
        },
      }),
    ),
  ];
};
