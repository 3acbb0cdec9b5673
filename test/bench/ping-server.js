// A control plane process for the ping benchmark: the real HTTP API on the real SQLite store.
// BENCH_MODE=bare answers 200 without touching storage (the ceiling of Node's HTTP stack here).
import { createServer } from 'node:http';
import { silentLogger } from '@lookout/shared';
import { loadConfig } from '../../control-plane/dist/config.js';
import { startControlPlane } from '../../control-plane/dist/process/server.js';
import { openStore } from '../../control-plane/dist/store/open-store.js';

const mode = process.env.BENCH_MODE ?? 'grouped';
if (mode === 'bare') {
  const body = JSON.stringify({ message: 'Ping recorded.', status: 'ok' });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`READY ${server.address().port}\n`));
} else {
  const config = loadConfig({
    ...process.env,
    LOOKOUT_HTTP_PORT: '0',
    LOOKOUT_RPC_PORT: '0',
    LOOKOUT_LOG_LEVEL: 'silent',
    // The benchmark measures the storage path: hundreds of pings a second per heartbeat, on purpose.
    LOOKOUT_PINGS_PER_HEARTBEAT_PER_SECOND: '0',
  });
  const store = await openStore(config);
  const cp = await startControlPlane({ config, store, logger: silentLogger() });
  process.stdout.write(`READY ${cp.port}\n`);
  process.on('SIGTERM', async () => {
    await cp.stop();
    await store.close();
    process.exit(0);
  });
}
