// The floor for doing R checks a second, as issue 27 defines it (the workplace's reference loop): bare
// node:http, a fresh connection per check, fired on a 10 ms tick like an agent's scheduler (rate / 100
// starts per tick, not one timer per check), in a fresh process, 2 s of warm-up, then this process's CPU
// per successful check over the window. Ports are used in turn, so the loop does not measure the
// kernel's search for a free ephemeral port towards one address.
//
//   node test/bench/paced-floor.js PORT[,PORT…] RATE SECONDS   → one JSON line {checks, failed, cpuMs, seconds}
import http from 'node:http';

const ports = process.argv[2].split(',').map(Number);
const rate = Number(process.argv[3]);
const seconds = Number(process.argv[4]);
const WARM_MS = 2000;
const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
let turn = 0;
let done = 0;
let failed = 0;
const one = () => {
  const port = ports[turn++ % ports.length];
  const req = http.get(`http://127.0.0.1:${port}/`, { agent, timeout: 5000 }, (res) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (c) => {
      body += c;
    });
    res.on('end', () => {
      if (res.statusCode === 200 && body.length > 0) done++;
      else failed++;
    });
  });
  req.on('error', () => failed++);
};
const t0 = Date.now();
let cpu0 = null;
let start = 0;
let due = 0;
const tick = setInterval(() => {
  const now = Date.now();
  if (!cpu0 && now - t0 >= WARM_MS) {
    cpu0 = process.cpuUsage();
    start = now;
    done = 0;
    failed = 0;
  }
  due += rate / 100;
  while (due >= 1) {
    due--;
    one();
  }
  if (cpu0 && now - start >= seconds * 1000) {
    clearInterval(tick);
    const c = process.cpuUsage(cpu0);
    const out = { checks: done, failed, cpuMs: (c.user + c.system) / 1000, seconds: (now - start) / 1000 };
    setTimeout(() => {
      process.stdout.write(`${JSON.stringify(out)}\n`);
      process.exit(0);
    }, 500);
  }
}, 10);
