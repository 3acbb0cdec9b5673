// npm run bench -- assertions: what three JSON assertions cost an http check on a 10 KB body.
//
// 1. The evaluation alone (agent/src/assertions/: JSON.parse of the body, three JSONPath selections and
//    comparisons), as a prober runs it once per check: µs a check, the median of ROUNDS rounds.
// 2. Whole checks through the agent's http prober and deadline against a loopback target (its own
//    process, pinned to core 1) answering the same 10 KB document: CPU µs a check of this process
//    (pinned to core 0) without assertions and with the three, run in turn (A B A B …) in one run.
//    The difference is what the assertions add to a check: reading the body, parsing, evaluating.
import { join } from 'node:path';
import { evaluateAssertions } from '../../agent/dist/assertions/index.js';
import { probeWithDeadline } from '../../agent/dist/deadline.js';
import { createHttpProber } from '../../agent/dist/probers/http-prober.js';
import { realTimers } from '../../agent/dist/scheduler.js';
import { machine, writeSection } from './report.js';
import { linux, spawnPinned, waitLine } from './support.js';

const ROUNDS = Number(process.env.ROUNDS ?? 4);
const SECONDS = Number(process.env.SECONDS ?? 5);
const CONCURRENCY = 32;
const BODY_BYTES = 10 * 1024;

const THREE = [
  { source: 'json_body', property: '$.status', comparison: 'equals', target: 'ok' },
  { source: 'json_body', property: '$.data[0].status', comparison: 'not_equals', target: 'down' },
  { source: 'json_body', property: '$.data[*].status', comparison: 'not_contains', target: 'down' },
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const spec = (port, assertions) => ({
  monitor_id: 'm',
  monitor_type: 'http',
  url: `http://127.0.0.1:${port}/`,
  timeout_ms: 5000,
  settings: {
    http_method: 'GET',
    request_headers: {},
    request_body: null,
    auth: null,
    expected_status_code: 200,
    required_keyword: null,
    follow_redirects: false,
    ssl_cert_monitoring: false,
    assertions,
  },
});

/** Checks for SECONDS, CONCURRENCY at a time over the target's ports: CPU µs a check and checks/s. */
const checks = async (prober, ports, assertions) => {
  const specs = ports.map((p) => spec(p, assertions));
  let next = 0;
  let done = 0;
  let failed = 0;
  const cpu0 = process.cpuUsage();
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        const r = await probeWithDeadline(prober, specs[next++ % specs.length], realTimers);
        if (r.ok) done++;
        else failed++;
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  if (failed > 0) throw new Error(`${failed} checks failed`);
  return { us: (cpu.user + cpu.system) / done, rate: done / SECONDS };
};

export const run = async () => {
  if (linux && !process.env.LOOKOUT_BENCH_PINNED) {
    // This process on core 0, the target on core 1.
    const self = spawnPinned(
      0,
      [process.execPath, ...process.execArgv, process.argv[1], ...process.argv.slice(2)],
      {
        LOOKOUT_BENCH_PINNED: '1',
      },
    );
    self.stdout.pipe(process.stdout);
    await new Promise((r) => self.once('exit', r));
    return;
  }
  const target = spawnPinned(1, [process.execPath, join(import.meta.dirname, 'target-server.js')], {
    TARGET_JSON_BYTES: String(BODY_BYTES),
  });
  const ports = (await waitLine(target, /READY ([\d,]+)/))[1].split(',').map(Number);
  try {
    const body = await (await fetch(`http://127.0.0.1:${ports[0]}/`)).text();
    // 1. The evaluation alone.
    const view = { status_code: 200, body, response_time: 1 };
    if (evaluateAssertions(view, THREE) !== null) throw new Error('the assertions do not hold on the body');
    // CPU time, not wall time: the box is shared (the load average says how much).
    const cpuUs = (f, n) => {
      const c0 = process.cpuUsage();
      for (let i = 0; i < n; i++) f();
      const c = process.cpuUsage(c0);
      return (c.user + c.system) / n;
    };
    const alone = [];
    const parse = [];
    cpuUs(() => evaluateAssertions(view, THREE), 20_000); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      alone.push(cpuUs(() => evaluateAssertions(view, THREE), 20_000));
      parse.push(cpuUs(() => JSON.parse(body), 20_000));
    }
    // 2. Whole checks, in turn.
    const prober = createHttpProber();
    await checks(prober, ports, THREE); // warm-up
    const without = [];
    const withThree = [];
    for (let round = 0; round < ROUNDS; round++) {
      without.push(await checks(prober, ports, []));
      withThree.push(await checks(prober, ports, THREE));
    }
    const w0 = median(without.map((r) => r.us));
    const w3 = median(withThree.map((r) => r.us));
    const fmt = (x) => x.toFixed(1);
    const section = `### Assertions on a check (\`npm run bench -- assertions\`)

Run ${new Date().toISOString().slice(0, 10)} on ${machine()}, load average ${(await import('node:os')).loadavg()[0].toFixed(1)}. Method: \`test/bench/assertions.js\` (its header); a ${body.length}-byte JSON body, three json_body assertions (\`$.status\` equals, \`$.data[0].status\` not_equals, \`$.data[*].status\` not_contains), medians of ${ROUNDS} rounds; the whole checks alternate without and with, ${SECONDS} s each, in one run.

| what | µs a check |
|---|---:|
| the three assertions alone (JSON.parse included; JSON.parse alone ${fmt(median(parse))}) | ${fmt(median(alone))} |
| http check without assertions, CPU (${without.map((r) => fmt(r.us)).join(', ')}) | ${fmt(w0)} |
| http check with the three, CPU (${withThree.map((r) => fmt(r.us)).join(', ')}) | ${fmt(w3)} |
| what they add to a check | ${fmt(w3 - w0)} (${((w3 / w0 - 1) * 100).toFixed(0)} %) |`;
    process.stdout.write(`${section}\n`);
    writeSection('assertions', section);
  } finally {
    target.kill();
  }
};
