// The pacing of issue 27's floor (the workplace's reference loop), shared by the loops that measure
// against it: `fire(now, end)` RATE / 100 times on every 10 ms tick, like an agent's scheduler, each
// check calling `end(ok)` once; after 2 s of warm-up the window starts, and once SECONDS have passed
// `onDone({ done, failed, cpuMs, seconds })` gets the checks that ended in it and this process's CPU.
import http from 'node:http';

const WARM_MS = 2000;

export const pacedTicks = ({ rate, seconds, fire, onDone }) => {
  let done = 0;
  let failed = 0;
  const end = (ok) => {
    if (ok) done++;
    else failed++;
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
      fire(now, end);
    }
    if (cpu0 && now - start >= seconds * 1000) {
      clearInterval(tick);
      const c = process.cpuUsage(cpu0);
      onDone({ done, failed, cpuMs: (c.user + c.system) / 1000, seconds: (now - start) / 1000 });
    }
  }, 10);
};

/**
 * The floor's request: bare node:http through `agent` (no keep-alive: a fresh connection), the body
 * read as text; calls `end(ok)` once.
 */
export const floorRequest = (agent, port, end) => {
  const req = http.get(`http://127.0.0.1:${port}/`, { agent, timeout: 5000 }, (res) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (c) => {
      body += c;
    });
    res.on('end', () => end(res.statusCode === 200 && body.length > 0));
  });
  req.on('error', () => end(false));
};
