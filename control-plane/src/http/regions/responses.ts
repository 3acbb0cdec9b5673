import { z } from 'zod';
import { isHealthy, type RegionHealth } from '../../domain/agents/region-health.js';
import type { AgentSession } from '../../domain/types.js';
import { iso, responseSchemas } from '../responses.js';

export const regionHealthResponse = z
  .strictObject({
    region: z.string(),
    healthy: z.boolean(),
    status: z.enum(['healthy', 'unhealthy']),
    monitors: z.number().int(),
  })
  .register(responseSchemas, { id: 'RegionHealth' });

/** A region as a workspace sees it: health and its own monitor count, nothing identifying agents. */
export const regionHealthJson = (r: RegionHealth): z.output<typeof regionHealthResponse> => ({
  region: r.region,
  healthy: r.healthy,
  status: r.healthy ? 'healthy' : 'unhealthy',
  monitors: r.monitors,
});

/** An agent as the operator sees it (`npx lookout agent list`); never served by the workspace API. */
export const agentJson = (s: AgentSession, nowMs: number, liveMs: number) => ({
  instance_id: s.instance_id,
  region: s.region,
  hostname: s.hostname,
  agent_version: s.agent_version,
  epoch: s.epoch,
  connected_at: s.started_at.toISOString(),
  last_seen_at: s.last_seen_at.toISOString(),
  last_result_at: iso(s.last_result_at),
  healthy: isHealthy(s, nowMs, liveMs),
  health: s.health,
});
