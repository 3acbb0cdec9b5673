import { createLogger } from '@lookout/shared';
import { createAgent } from './agent.js';
import { type AgentConfig, AgentConfigError, loadAgentConfig } from './config.js';
import { createProbers } from './probers/index.js';
import { createRdapBootstrap } from './probers/rdap-refresh.js';

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
  const rdap = createRdapBootstrap({
    url: config.rdap_bootstrap_url === 'off' ? null : config.rdap_bootstrap_url,
    onRefreshed: (services) => logger.info({ services }, 'RDAP bootstrap data refreshed'),
    onError: (err) =>
      logger.warn({ err: (err as Error).message }, 'RDAP bootstrap refresh failed; keeping the data we have'),
  });
  rdap.start(10 * 60_000, config.rdap_refresh_hours * 3_600_000);
  const agent = createAgent({ config, logger, prober: createProbers({ rdapBootstrap: rdap.current }) });
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'draining: finishing running checks and flushing results');
    rdap.stop();
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
