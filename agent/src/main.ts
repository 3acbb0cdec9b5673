// First: V8 settings that must hold before the agent allocates (see there).
import './v8-flags.js';
import { createLogger } from '@lookout/shared';
import { assembleAgent } from './assemble.js';
import { startBrowserChecks } from './browser/browser-checks.js';
import { type AgentConfig, AgentConfigError, loadAgentConfig } from './config.js';
import { startMetricsServer } from './metrics.js';
import { lowerPriority } from './priority.js';
import { findFping } from './probers/fping.js';

/** The agent process: `node agent/dist/main.js` with LOOKOUT_AGENT_* set. */
const main = async () => {
  let config: AgentConfig;
  try {
    config = loadAgentConfig();
  } catch (e) {
    if (e instanceof AgentConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const logger = createLogger({ level: config.log_level, name: 'agent' });
  const priority = lowerPriority(config.nice);
  if (priority.changed > 0)
    logger.info({ nice: config.nice, threads: priority.changed }, 'CPU priority lowered');
  if (priority.failed.length > 0)
    logger.warn(
      { nice: config.nice, failed: priority.failed },
      'could not lower the priority of every thread',
    );
  // Ping checks only when fping gets an echo reply here (the agent then declares ping at Register).
  const fping =
    config.fping === 'off'
      ? { program: null, why: 'LOOKOUT_AGENT_FPING=off' }
      : await findFping(config.fping);
  if (fping.program === null)
    logger.warn({ why: fping.why }, 'no ping checks on this agent: fping does not run');
  else logger.info({ fping: fping.program }, 'ping checks: fping runs');
  // Browser checks only with a Chromium here (the agent then declares browser at Register).
  const browser = await startBrowserChecks(config, logger.child({ component: 'browser' }));
  const { agent, metrics } = assembleAgent(config, {
    logger,
    fping: fping.program,
    browser: browser?.prober ?? null,
  });
  const listener = await startMetricsServer({
    host: config.metrics_host,
    port: config.metrics_port,
    registry: metrics.registry,
    health: () => {
      const h = agent.health();
      return {
        status: 'ok',
        connected: agent.connected,
        region: agent.region || null,
        assigned: h.assigned,
        in_flight: h.inFlight,
        queue_depth: h.queueDepth,
        buffered_results: h.bufferedResults,
        schedule_lag_p99_ms: h.scheduleLagP99Ms,
      };
    },
  });
  logger.info({ port: listener.port }, 'metrics and health listening');
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'draining: finishing running checks and flushing results');
    await agent.stop();
    await browser?.close();
    await listener.close();
    logger.info({ buffered: agent.health().bufferedResults }, 'stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await agent.start();
};

main().catch((err) => {
  process.stderr.write(`Lookout agent failed: ${(err as Error).message}\n`);
  process.exit(1);
});
