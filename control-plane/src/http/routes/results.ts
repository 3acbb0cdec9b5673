import { AppError } from '@lookout/shared';
import { z } from 'zod';
import { isHealthy } from '../../domain/region-health.js';
import { type AppDeps, type Authed, route } from '../route.js';
import { resultJson } from '../serialize.js';
import { isoTime, pageQuery } from './query.js';

const DAY_MS = 86_400_000;

export const resultRoutes = ({ store, clock }: AppDeps) => {
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
      summary:
        'Share of successful checks in a window (default: the last 24 hours), across locations. Null when there were no checks.',
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
        const { total, ok } = await store.countResults(auth.workspace.id, m.id, since, until);
        return {
          monitor_id: m.id,
          since: since.toISOString(),
          until: until.toISOString(),
          total_checks: total,
          successful_checks: ok,
          uptime_percentage: total === 0 ? null : Math.round((ok / total) * 1_000_000) / 10_000,
        };
      },
    }),
  ];
};

export const agentRoutes = ({ store, clock, config }: AppDeps) => [
  route({
    method: 'get',
    path: '/agents',
    tag: 'Agents',
    summary:
      'Region agents with their health (admins). Healthy: heard from recently and, when it has monitors, reporting results.',
    role: 'admin',
    async handler() {
      const now = clock.now().getTime();
      const live = config.agent_live_seconds * 1000;
      const sessions = await store.listAgentSessions();
      return {
        data: sessions.map((s) => {
          return {
            instance_id: s.instance_id,
            region: s.region,
            hostname: s.hostname,
            agent_version: s.agent_version,
            epoch: s.epoch,
            connected_at: s.started_at.toISOString(),
            last_seen_at: s.last_seen_at.toISOString(),
            last_result_at: s.last_result_at?.toISOString() ?? null,
            healthy: isHealthy(s, now, live),
            health: s.health,
          };
        }),
      };
    },
  }),
];
