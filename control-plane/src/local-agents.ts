import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Clock, Logger } from '@lookout/shared';
import { createAgentToken } from './domain/agent-tokens.js';
import type { Store } from './store/port.js';

const AGENT_MAIN = fileURLToPath(new URL('../../agent/dist/main.js', import.meta.url));

/**
 * `npm start` runs one agent process per region next to the control plane (LOOKOUT_LOCAL_AGENTS).
 * Each start makes fresh tokens and revokes the previous local ones (their values were never kept).
 * A crashed agent is restarted after a short pause.
 */
export const startLocalAgents = async (deps: {
  regions: string[];
  rpcUrl: string;
  store: Store;
  clock: Clock;
  logger: Logger;
  allRegions: readonly string[];
}) => {
  const log = deps.logger.child({ component: 'local-agents' });
  const children = new Map<string, ChildProcess>();
  let stopping = false;
  for (const t of await deps.store.listAgentTokens()) {
    if (!t.revoked_at && t.name.startsWith('local ') && t.name.endsWith(' (npm start)')) {
      await deps.store.revokeAgentToken(t.id, deps.clock.now());
    }
  }
  const launch = (region: string, token: string) => {
    const child = spawn(process.execPath, [AGENT_MAIN], {
      env: {
        ...process.env,
        LOOKOUT_AGENT_CONTROL_PLANE_URL: deps.rpcUrl,
        LOOKOUT_AGENT_TOKEN: token,
        LOOKOUT_AGENT_REGION: region,
        LOOKOUT_AGENT_INSTANCE_ID: `local-${region}`,
        LOOKOUT_AGENT_LOG_LEVEL: process.env.LOOKOUT_AGENT_LOG_LEVEL ?? 'warn',
        // Free ports for the local agents' metrics listeners (two run side by side).
        LOOKOUT_AGENT_METRICS_PORT: process.env.LOOKOUT_AGENT_METRICS_PORT ?? '0',
        LOOKOUT_AGENT_METRICS_HOST: process.env.LOOKOUT_AGENT_METRICS_HOST ?? '127.0.0.1',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.set(region, child);
    child.once('exit', (code, signal) => {
      children.delete(region);
      if (stopping) return;
      log.warn({ region, code, signal }, 'local agent exited; restarting in 2 s');
      setTimeout(() => !stopping && launch(region, token), 2000).unref();
    });
  };
  for (const region of deps.regions) {
    if (!deps.allRegions.includes(region))
      throw new Error(`LOOKOUT_LOCAL_AGENTS names unknown region ${region}`);
    const { value } = await createAgentToken(
      deps.store,
      deps.allRegions,
      { region, name: `local ${region} agent (npm start)` },
      deps.clock.now(),
    );
    launch(region, value);
  }
  log.info({ regions: deps.regions }, 'local agents started');
  return {
    async stop() {
      stopping = true;
      const exits = [...children.values()].map((c) => new Promise((r) => c.once('exit', r)));
      for (const c of children.values()) c.kill('SIGTERM');
      await Promise.all(exits);
    },
  };
};
