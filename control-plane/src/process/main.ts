import './v8-flags.js';
import { createLogger, systemClock } from '@lookout/shared';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { createMonitorSlots } from '../domain/monitors/monitor-slots.js';
import { workspaceBaseUrl } from '../public-url.js';
import { describeStore, openStore } from '../store/open-store.js';
import { ensureDemoWorkspace } from './bootstrap.js';
import { type LocalAgents, startLocalAgents } from './local-agents.js';
import { startControlPlane } from './server.js';

/** `npm start`: the control plane on the configured store, with the demo workspace on first start. */
const main = async () => {
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const logger = createLogger({ level: config.log_level, name: 'control-plane' });
  // One number per monitor id for the whole process: the store's tables, the catalog and the agent
  // streams share it (domain/monitors/monitor-slots.ts).
  const monitorSlots = createMonitorSlots();
  const store = await openStore(config, { monitorSlots });
  logger.info({ store: describeStore(config) }, 'store ready');
  const demo = config.demo_workspace ? await ensureDemoWorkspace(store, config.plans, systemClock) : null;
  let agents: LocalAgents | null = null;
  const cp = await startControlPlane({
    config,
    store,
    logger,
    monitorSlots,
    // /healthz lists the local agents (started below, once the RPC listener's address is known).
    health: () => (agents ? { local_agents: agents.health() } : {}),
  });
  // Drain on a signal from the moment the listeners are up (before the banner: a supervisor may stop
  // the process as soon as it sees it).
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'draining');
    await agents?.stop();
    await cp.stop();
    await store.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  if (config.local_agents.length > 0) {
    agents = await startLocalAgents({
      regions: config.local_agents,
      rpcUrl: cp.rpcUrl,
      store,
      clock: systemClock,
      logger,
      allRegions: config.regions,
      env: process.env,
      dataDir: config.data_dir,
    });
  }

  const base = workspaceBaseUrl(config, 'demo', cp.port);
  if (demo) {
    process.stdout.write(
      [
        '',
        'Lookout is running. Created workspace "demo" (shown once; keep these):',
        `  web app:        ${base}/  (sign in with the admin email and password)`,
        `  API:            ${base}/api/v1`,
        `  admin email:    ${demo.admin.email}`,
        `  admin password: ${demo.password}`,
        `  API key:        ${demo.apiKey}`,
        `  agents connect: ${cp.rpcUrl}`,
        '',
        `Try: curl -s -H 'X-API-Key: ${demo.apiKey}' ${base}/api/v1/monitors`,
        '',
      ].join('\n'),
    );
  } else if (config.demo_workspace) {
    process.stdout.write(
      `\nLookout is running: ${base}/ (web app) and ${base}/api/v1 (workspace "demo" exists; create more keys with npx lookout api-key create)\n  agents connect: ${cp.rpcUrl}\n`,
    );
  } else {
    process.stdout.write(
      `\nLookout is running: HTTP API on port ${cp.port} (${workspaceBaseUrl(config, '<workspace>', cp.port)}/api/v1; create workspaces with npx lookout workspace create)\n  agents connect: ${cp.rpcUrl}\n`,
    );
  }
};

main().catch((err) => {
  process.stderr.write(`Lookout failed to start: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
