import { AppError } from '@lookout/shared';
import { z } from 'zod';
import type { AgentStore } from '../../domain/agents/agent-store.js';
import type { AlertStore } from '../../domain/alerts/alert-store.js';
import type { MaintenanceLookup, PolicyLookup } from '../../domain/lookups.js';
import type { MonitorStore } from '../../domain/monitors/monitor-store.js';
import type { ResultStore } from '../../domain/results/result-store.js';
import { monitorUptime, percent, resultsKeptFrom } from '../../domain/results/uptime.js';
import { isoTime, pageQuery } from '../query.js';
import { page, time } from '../responses.js';
import { type Authed, type RouteDeps, route } from '../route.js';
import { resultJson, resultResponse } from './responses.js';

const DAY_MS = 86_400_000;

export const resultRoutes = ({
  store,
  clock,
  config,
}: RouteDeps<ResultStore & MonitorStore & AgentStore & AlertStore & PolicyLookup & MaintenanceLookup>) => {
  const load = async (auth: Authed, id: string) => {
    const m = await store.getMonitor(auth.workspace.id, id);
    if (!m) throw new AppError('not_found', 'Monitor not found.');
    return m;
  };
  return [
    route({
      method: 'get',
      path: '/monitors/{id}/results',
      tag: 'Monitors',
      response: page(resultResponse),
      summary: 'Check results of a monitor, newest first, from every location (or one).',
      query: z.strictObject({
        ...pageQuery,
        location: z.string().min(1).max(64).optional(),
        since: isoTime.optional(),
        until: isoTime.optional(),
      }),
      async handler({ auth, params, query }) {
        const m = await load(auth, params.id!);
        const page = await store.listResults(auth.workspace.id, m.id, query);
        return { data: page.data.map(resultJson), next_cursor: page.next_cursor };
      },
    }),
    route({
      method: 'get',
      path: '/monitors/{id}/uptime',
      tag: 'Monitors',
      response: z.strictObject({
        monitor_id: z.string(),
        since: time,
        until: time,
        total_checks: z.number().int(),
        successful_checks: z.number().int(),
        uptime_percentage: z.number().nullable(),
      }),
      summary:
        'Share of successful checks in a window (default: the last 24 hours), across locations. Null when there were no checks. Answered from hourly rollups (kept at least 35 days, longer than results) and, for the partial hours at the window’s edges, from the results; an edge hour older than the results’ retention counts whole.',
      query: z.strictObject({ since: isoTime.optional(), until: isoTime.optional() }),
      async handler({ auth, params, query }) {
        const m = await load(auth, params.id!);
        const until = query.until ?? clock.now();
        const since = query.since ?? new Date(until.getTime() - DAY_MS);
        if (since >= until) {
          throw new AppError('validation_failed', 'The request has invalid fields.', [
            { field: 'since', message: 'must be before until' },
          ]);
        }
        const { total, ok } = await monitorUptime(
          store,
          auth.workspace.id,
          m.id,
          since,
          until,
          resultsKeptFrom(clock.now(), config.result_retention_days),
        );
        return {
          monitor_id: m.id,
          since: since.toISOString(),
          until: until.toISOString(),
          total_checks: total,
          successful_checks: ok,
          uptime_percentage: percent(ok, total),
        };
      },
    }),
  ];
};
