// The floor for doing R checks a second, as issue 27 defines it (the workplace's reference loop): bare
// node:http, a fresh connection per check, fired on a 10 ms tick like an agent's scheduler (rate / 100
// starts per tick, not one timer per check), in a fresh process, 2 s of warm-up, then this process's CPU
// per successful check over the window. Ports are used in turn, so the loop does not measure the
// kernel's search for a free ephemeral port towards one address.
//
//   node test/bench/paced-floor.js PORT[,PORT…] RATE SECONDS   → one JSON line {checks, failed, cpuMs, seconds}
import http from 'node:http';
import { floorRequest, pacedTicks } from './paced-ticks.js';

const ports = process.argv[2].split(',').map(Number);
const rate = Number(process.argv[3]);
const seconds = Number(process.argv[4]);
const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
let turn = 0;
pacedTicks({
  rate,
  seconds,
  fire: (_now, end) => floorRequest(agent, ports[turn++ % ports.length], end),
  onDone: ({ done, failed, cpuMs, seconds: measured }) => {
    const out = { checks: done, failed, cpuMs, seconds: measured };
    setTimeout(() => {
      process.stdout.write(`${JSON.stringify(out)}\n`);
      process.exit(0);
    }, 500);
  },
});
