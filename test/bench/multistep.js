// npm run bench -- multistep [--seconds N] [--rounds N] [--dry-run]: a multi-step check's CPU cost per
// step against one http check, in one process, in the same run, rounds alternating. Both run the
// agent's probers (agent/dist) against the same local shop (test/support/shop-app.ts) in a child
// process: the multi-step check signs in (a JSON body, the token extracted by JSONPath), creates an
// order (the token in a header, the id extracted from Location by a regex) and reads it back (a
// json_body assertion); the http check is one GET with its status checked. 8 checks in flight a side.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { CheckDeadline } from '../../agent/dist/deadline.js';
import { createHttpProber } from '../../agent/dist/probers/http-prober.js';
import { createMultistepProber } from '../../agent/dist/probers/multistep-prober.js';
import { machine, writeSection } from './report.js';

const status = (n) => ({ source: 'status_code', property: '', comparison: 'equals', target: String(n) });
const STEPS = [
  {
    name: 'Sign in',
    method: 'POST',
    url: '{{url}}/login',
    headers: { 'content-type': 'application/json' },
    body: '{"user": "ann", "password": "{{secrets.PW}}"}',
    timeout_ms: null,
    extract: [{ name: 'token', source: 'json_body', property: '$.token', regex: null }],
    assertions: [status(200)],
  },
  {
    name: 'Create order',
    method: 'POST',
    url: '{{url}}/orders',
    headers: { authorization: 'Bearer {{token}}' },
    body: null,
    timeout_ms: null,
    extract: [{ name: 'order', source: 'headers', property: 'location', regex: '/orders/(\\d+)' }],
    assertions: [status(201)],
  },
  {
    name: 'Read order',
    method: 'GET',
    url: '{{url}}/orders/{{order}}',
    headers: { authorization: 'Bearer {{token}}' },
    body: null,
    timeout_ms: null,
    extract: [],
    assertions: [{ source: 'json_body', property: '$.status', comparison: 'equals', target: 'created' }],
  },
];

const loop = async (one, seconds, concurrency) => {
  let done = 0;
  let failed = 0;
  const cpu0 = process.cpuUsage();
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        if (await one()) done++;
        else failed++;
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { done, failed, usPerCheck: (cpu.user + cpu.system) / done };
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export const run = async (args) => {
  const opt = (name, dflt) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : dflt;
  };
  const seconds = opt('seconds', 3);
  const rounds = opt('rounds', 5);
  const concurrency = 8;
  const child = spawn(process.execPath, [new URL('./shop-server.js', import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d)))));
  const url = `http://127.0.0.1:${port}`;
  try {
    const multistep = createMultistepProber();
    const http = createHttpProber();
    const msSpec = {
      monitor_id: 'bench-ms',
      monitor_type: 'multistep',
      url,
      timeout_ms: 5000,
      settings: { steps: STEPS, secrets: { PW: 'correct horse' } },
    };
    const httpSpec = {
      monitor_id: 'bench-http',
      monitor_type: 'http',
      url: `${url}/big?bytes=32`,
      timeout_ms: 5000,
      settings: {
        http_method: 'GET',
        request_headers: {},
        request_body: null,
        auth: null,
        expected_status_code: 200,
        required_keyword: null,
        follow_redirects: false,
        max_redirects: 0,
        ssl_cert_monitoring: false,
        assertions: [],
      },
    };
    const sides = {
      multistep: async () => (await multistep.run(msSpec, new CheckDeadline())).ok,
      http: async () => (await http.run(httpSpec, new CheckDeadline())).ok,
    };
    // Warm both (JIT) before counting.
    await loop(sides.multistep, 3, concurrency);
    await loop(sides.http, 3, concurrency);
    const got = { multistep: [], http: [] };
    for (let r = 0; r < rounds; r++) {
      for (const side of r % 2 ? ['http', 'multistep'] : ['multistep', 'http']) {
        const res = await loop(sides[side], seconds, concurrency);
        if (res.failed) throw new Error(`${side}: ${res.failed} checks failed`);
        got[side].push(res.usPerCheck);
        process.stderr.write(`${side} ${res.usPerCheck.toFixed(1)} µs a check (${res.done})\n`);
      }
    }
    const ms = median(got.multistep);
    const one = median(got.http);
    const perStep = ms / STEPS.length;
    const f = (n) => n.toFixed(0);
    const text = [
      '### Multi-step checks (`npm run bench -- multistep`)',
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${machine()}, load ${loadavg()[0].toFixed(1)} at the end (shared); \`test/bench/multistep.js\` (its header: the agent's probers against the local shop in a child process, ${concurrency} in flight, ${rounds} rounds of ${seconds} s a side alternating, CPU of the bench process, medians). **A 3-step check (sign in, create an order, read it back; 2 extracts, 3 assertions) ${f(ms)} µs, ${f(perStep)} µs a step; one http check (a GET, its status) ${f(one)} µs in the same run: a step costs ${(perStep / one).toFixed(2)} × an http check** (rounds: ${got.multistep.map((x) => f(x / STEPS.length)).join(', ')} against ${got.http.map(f).join(', ')}).`,
    ].join('\n');
    if (args.includes('--dry-run')) process.stdout.write(`${text}\n`);
    else writeSection('multistep', text);
  } finally {
    child.kill('SIGTERM');
  }
};
