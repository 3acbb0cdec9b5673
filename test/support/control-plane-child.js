// A real control-plane process whose clock the test drives: for escalation tests that need minutes to
// pass (two processes on one SQLite file, a restart mid-escalation). Config comes from LOOKOUT_* as
// usual; the clock starts at TEST_CLOCK_START (epoch ms) and moves only on IPC {set: ms} messages,
// each answered with {ack: id}. Reports {ready: {port}} once listening.
import { createLogger, ManualClock } from '@lookout/shared';
import { loadConfig } from '../../control-plane/dist/config.js';
import { startControlPlane } from '../../control-plane/dist/process/server.js';
import { openStore } from '../../control-plane/dist/store/open-store.js';

const config = loadConfig();
const clock = new ManualClock(Number(process.env.TEST_CLOCK_START));
const store = await openStore(config);
const cp = await startControlPlane({
  config,
  store,
  logger: createLogger({ level: config.log_level, name: 'control-plane-child' }),
  clock,
});
process.on('message', (m) => {
  if (m && typeof m.set === 'number') {
    clock.set(m.set);
    process.send?.({ ack: m.id });
  }
});
process.on('disconnect', async () => {
  await cp.stop();
  await store.close();
  process.exit(0);
});
process.send?.({ ready: { port: cp.port } });
