// The control plane of the dashboard bench: the real startControlPlane on the bench's store. With
// `bare`, the monitor list leaves out its checks summary (the store's internal `checks: false`): the
// same list, statuses included, without uptime, last response time and recent checks.
import { createLogger } from '@lookout/shared';
import { loadConfig } from '../../control-plane/dist/config.js';
import { startControlPlane } from '../../control-plane/dist/process/server.js';
import { openStore } from '../../control-plane/dist/store/open-store.js';

const bare = process.argv[2] === 'bare';
const config = loadConfig(process.env);
const store = await openStore(config);
const served = bare
  ? {
      ...store,
      listMonitorsWithStatus: (ws, q, at) => store.listMonitorsWithStatus(ws, { ...q, checks: false }, at),
    }
  : store;
const cp = await startControlPlane({
  config,
  store: served,
  logger: createLogger({ level: 'silent', name: 'dashboard-bench' }),
});
process.on('SIGTERM', async () => {
  await cp.stop();
  await store.close();
  process.exit(0);
});
process.stdout.write(`READY ${cp.port}\n`);
