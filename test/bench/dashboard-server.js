// The control plane of the dashboard bench: the real startControlPlane on the bench's store. With
// `bare`, the monitor list leaves out its checks summary (the store's internal `checks: false`): the
// same list, statuses included, without uptime, last response time and recent checks. With `created`,
// the list is served newest first (the store's internal `sort: 'created'`, the order before the list
// sorted by status): the baseline of the 100,000-monitor run (dashboard-scale.js).
import { createLogger } from '@lookout/shared';
import { loadConfig } from '../../control-plane/dist/config.js';
import { startControlPlane } from '../../control-plane/dist/process/server.js';
import { openStore } from '../../control-plane/dist/store/open-store.js';

const variant = process.argv[2];
const config = loadConfig(process.env);
const store = await openStore(config);
const served =
  variant === 'bare' || variant === 'created'
    ? {
        ...store,
        listMonitorsWithStatus: (ws, q, at, cover) =>
          store.listMonitorsWithStatus(
            ws,
            variant === 'bare' ? { ...q, checks: false } : { ...q, sort: 'created' },
            at,
            cover,
          ),
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
