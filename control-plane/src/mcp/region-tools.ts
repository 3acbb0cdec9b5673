import { z } from 'zod';
import { ok } from '../api-client/client.js';
import type { McpApi } from './api.js';

/** get_region_health: `GET /regions` for an assistant (are failures of one region the probes' own?). */
export const getRegionHealth = {
  name: 'get_region_health',
  title: 'Health of the regions',
  description:
    'For each region monitors may run from (the names check_locations takes): healthy (an agent there is reporting results) or unhealthy (no check runs there until an agent is back), and how many of the workspace’s monitors it checks (0 where none run). Also its live agents (unnamed) with the check types each can run, and no_capable_agent: the types of the workspace’s monitors there that no agent can run (those are not checked there). Use it when failures or a no_healthy_agent or no_capable_agent alert come from one region: an unhealthy region means the probes are down, not the monitored services.',
  input: z.object({}),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (api: McpApi) => ok(api.client.GET('/regions')),
};
