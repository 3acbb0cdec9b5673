import { z } from 'zod';
import type { AgentSession } from '../../domain/agents/agent-store.js';
import { isHealthy, type RegionHealth } from '../../domain/agents/region-health.js';
import { iso, responseSchemas } from '../responses.js';

export const regionHealthResponse = z
  .strictObject({
    region: z.string(),
    healthy: z.boolean(),
    status: z.enum(['healthy', 'unhealthy']),
    monitors: z.number().int(),
    agents: z
      .array(z.strictObject({ healthy: z.boolean(), check_types: z.array(z.string()) }))
      .describe(
        'The live agents of the region, unnamed (agents belong to the operator), each with the check types it can run.',
      ),
    no_capable_agent: z
      .array(z.strictObject({ monitor_type: z.string(), monitors: z.number().int() }))
      .describe(
        'Types of your monitors (not paused) here that no live agent of the region can run: those monitors are not checked here until one that can registers. Empty when the region has no live agent at all (`healthy` is false then).',
      ),
  })
  .register(responseSchemas, { id: 'RegionHealth' });

/** A region as a workspace sees it: health and its own monitor count, nothing identifying agents. */
export const regionHealthJson = (r: RegionHealth): z.output<typeof regionHealthResponse> => ({
  region: r.region,
  healthy: r.healthy,
  status: r.healthy ? 'healthy' : 'unhealthy',
  monitors: r.monitors,
  agents: r.agents,
  no_capable_agent: r.no_capable_agent,
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
  check_types: s.check_types,
  health: s.health,
});
