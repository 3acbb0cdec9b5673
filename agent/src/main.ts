import { createLogger } from '@lookout/shared';
import { createAgent } from './agent.js';
import { type AgentConfig, AgentConfigError, loadAgentConfig } from './config.js';
import { createProbers } from './probers/index.js';

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
  const agent = createAgent({ config, logger, prober: createProbers() });
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'draining: finishing running checks and flushing results');
    await agent.stop();
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
