import type { AgentStore } from '../../domain/agents/agent-store.js';
import { workspaceRegionHealth } from '../../domain/agents/region-health.js';
import type { AlertStore } from '../../domain/alerts/alert-store.js';
import type { MaintenanceLookup, PolicyLookup } from '../../domain/lookups.js';
import type { MonitorStore } from '../../domain/monitors/monitor-store.js';
import type { ResultStore } from '../../domain/results/result-store.js';
import { page } from '../responses.js';
import { type RouteDeps, route } from '../route.js';
import { regionHealthJson, regionHealthResponse } from './responses.js';

/** Agents belong to the operator (`npx lookout agent list`); a workspace sees the health of its regions. */
export const regionRoutes = ({
  store,
  clock,
  config,
}: RouteDeps<ResultStore & MonitorStore & AgentStore & AlertStore & PolicyLookup & MaintenanceLookup>) => [
  route({
    method: 'get',
    path: '/regions',
    tag: 'Regions',
    response: page(regionHealthResponse),
    summary:
      'The regions monitors may run from (the names `check_locations` takes), each with its health: `healthy` when an agent there is reporting results, and how many of your monitors (not paused) it checks (0 for a region you do not use). The list is short (the regions configured), so it is one page.',
    async handler({ auth }) {
      const regions = await workspaceRegionHealth(
        store,
        auth.workspace.id,
        config.regions,
        clock.now(),
        config.agent_live_seconds * 1000,
      );
      return { data: regions.map(regionHealthJson), next_cursor: null };
    },
  }),
];
