import { execFile, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childCommand } from './isolation.js';
import type { HostReply, PageHost, SandboxLimits } from './protocol.js';
import { MAX_CALLS, runSandboxed, sandboxIsolation, sandboxPlan } from './run-sandboxed.js';

/**
 * Hostile scripts (issue 56): each fails cleanly with its kind and a clear message, and the walls
 * behind the vm context are proved on their own with a probe run exactly as the child is.
 * Real child processes: `npx tsc -b` first (the child runs from dist/).
 */
const TOKEN = 'agent-token-6f1c2a9e';
const SLOW = { timeout: 120_000 };
/** Page calls as fast as the bridge takes them: 100 at once (16 reach the host, the rest are refused). */
const FLOOD = 'for (;;) await Promise.allSettled(Array.from({ length: 100 }, () => page.title()));';
const LIMITS: SandboxLimits = { wall_ms: 60_000, cpu_seconds: 1, memory_mb: 64 };

const page: PageHost = {
  async call(c) {
    const url = 'https://shop.test/';
    if (c.method === 'click') return { ok: false, error: 'Timeout 5000ms exceeded', url };
    return { ok: true, value: c.method === 'evaluate' ? { a: [1] } : 'Shop', url } as HostReply;
  },
};
const run = (script: string, limits = LIMITS) =>
  runSandboxed({ script, url: 'https://shop.test/', secrets: { PASSWORD: 'hunter2' } }, page, limits);

let dir = '';
let server: Server;
let port = 0;
beforeAll(async () => {
  process.env.LOOKOUT_AGENT_TOKEN = TOKEN;
  dir = await mkdtemp(join(tmpdir(), 'sandbox-walls-'));
  await chmod(dir, 0o755);
  server = createServer((s) => s.end('hello'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  delete process.env.LOOKOUT_AGENT_TOKEN;
  server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Every object a script can reach must be of its own realm: one of the agent's would lead to `process`. */
const REALM_WALK = `
const outer = [];
const check = (name, x) => {
  if (x === null || (typeof x !== 'object' && typeof x !== 'function')) return;
  let p = x;
  for (let i = 0; i < 50 && Object.getPrototypeOf(p) !== null; i++) p = Object.getPrototypeOf(p);
  if (p !== Object.prototype && p !== x) outer.push(name);
  try { const F = x.constructor && x.constructor.constructor; if (F && F !== Function) outer.push(name + '.constructor.constructor'); } catch {}
};
const thrown = async (name, f) => { try { await f(); outer.push(name + ' did not throw'); } catch (e) { check(name, e); } };
for (const k of Object.getOwnPropertyNames(globalThis)) check('globalThis.' + k, globalThis[k]);
check('globalThis', globalThis); check('this', this);
const loc = page.getByRole('button').first();
const all = { page, keyboard: page.keyboard, goto: page.goto, loc, click: loc.click, expect, m: expect(1), not: expect(1).not,
  pm: expect(page), lm: expect(loc).not, test, step: test.step, secrets, console, log: console.log };
for (const [k, v] of Object.entries(all)) { check(k, v); for (const n of Object.getOwnPropertyNames(v)) check(k + '.' + n, v[n]); }
check('promise', page.title());
check('value', await page.evaluate(() => 1));
check('step promise', test.step('s', async () => {}));
check('caller', await test.step('c', function () { return arguments.callee.caller; }));
await thrown('failed call', () => page.click('#x'));
await thrown('refused call', () => page.fill('#a', 'x'.repeat(300000)));
await thrown('unsendable', () => page.fill('#a', 1n));
await thrown('eval', () => eval('1'));
await thrown('Function', () => Function('return process')());
await thrown('constructor chain', () => page.constructor.constructor('return process')());
await thrown('import', () => import('node:fs'));
await thrown('stack overflow', () => { const f = () => f() + page.title(); f(); });
// Stack frames: only the script's own may give their function or receiver (strict code gives neither).
Error.prepareStackTrace = (e, frames) => frames;
const frames = [];
try { await page.click('#x'); } catch (e) { frames.push(e.stack); }
await test.step('frames', () => { frames.push(new Error().stack); });
for (const list of frames) {
  check('frames', list);
  for (const f of list) {
    check('frame', f);
    if (f.getFileName() !== 'script.js' && (f.getFunction() !== undefined || f.getThis() !== undefined)) outer.push('frame of ' + f.getFileName());
  }
}
Error.prepareStackTrace = undefined;
expect(outer).toEqual([]);
for (const name of ['process', 'module', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'fetch', 'XMLHttpRequest', 'WebSocket', 'Buffer', 'global'])
  expect(typeof globalThis[name] + ' ' + name).toBe('undefined ' + name);
`;

describe('a hostile script', () => {
  it('cannot reach the agent: every object it reaches is of its own realm', SLOW, async () => {
    const outcome = await run(REALM_WALK, { ...LIMITS, cpu_seconds: 10 });
    expect(outcome).toMatchObject({ ok: true, kind: 'ok' });
  });

  it.each([
    ['process.env.LOOKOUT_AGENT_TOKEN', 'ReferenceError: process is not defined'],
    ['globalThis.process.env', "TypeError: Cannot read properties of undefined (reading 'env')"],
    [
      "require('node:fs').readFileSync('/etc/passwd', 'utf8')",
      "require('node:fs') is not available in a browser check: a script has page, expect, test, url and secrets",
    ],
    [
      "require('@playwright/test').test.constructor('return process')()",
      'EvalError: Code generation from strings disallowed for this context',
    ],
    ["(await import('node:child_process')).execSync('id')", 'import() is not available in a browser script'],
    [
      "page.constructor.constructor('return process')().env",
      'EvalError: Code generation from strings disallowed for this context',
    ],
    [
      "test.step.constructor('return process')()",
      'EvalError: Code generation from strings disallowed for this context',
    ],
    ["eval('process')", 'EvalError: Code generation from strings disallowed for this context'],
    ["await fetch('http://169.254.169.254/latest/meta-data/')", 'ReferenceError: fetch is not defined'],
    [
      'new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))',
      'CompileError: WebAssembly.Module(): Wasm code generation disallowed by embedder',
    ],
  ])('%s fails cleanly', SLOW, async (expression, error) => {
    const outcome = await run(`\nreturn ${expression};`);
    expect(outcome).toMatchObject({ ok: false, kind: 'script_error', error, line: 2 });
    expect(JSON.stringify(outcome)).not.toContain(TOKEN);
  });

  it('allocating without bound ends as memory, in the heap or in ArrayBuffers', SLOW, async () => {
    const heap = await run('const a = [];\nfor (;;) a.push(new Array(1e5).fill(1.5));', {
      ...LIMITS,
      cpu_seconds: 30,
    });
    expect(heap).toMatchObject({
      ok: false,
      kind: 'memory',
      error: 'the script used more than 64 MiB of memory',
    });
    const buffers = await run('const a = [];\nfor (;;) a.push(new Uint8Array(32 << 20).fill(1));', {
      ...LIMITS,
      cpu_seconds: 30,
    });
    expect(buffers).toMatchObject({
      ok: false,
      kind: 'memory',
      error: 'RangeError: Array buffer allocation failed',
    });
  });

  it('looping forever ends as cpu (sync or async) or timeout (waiting)', SLOW, async () => {
    expect(await run('for (;;) {}')).toMatchObject({
      kind: 'cpu',
      error: 'the script used more than 1 s of CPU time',
    });
    expect(await run('for (;;) await null;')).toMatchObject({ kind: 'cpu' });
    expect(await run('for (;;) { try { for (;;) {} } finally { continue; } }')).toMatchObject({
      kind: 'cpu',
    });
    const waiting = await run('await new Promise(() => {});', { ...LIMITS, wall_ms: 1500 });
    expect(waiting).toMatchObject({ kind: 'timeout', error: 'the script ran longer than 1.5 s' });
  });

  it('a flood of page calls is cut at the call cap, or by a cap when it never yields', SLOW, async () => {
    const outcome = await run(FLOOD, { ...LIMITS, cpu_seconds: 30 });
    expect(outcome).toMatchObject({
      kind: 'script_error',
      error: `the script made more than ${MAX_CALLS} page calls`,
    });
    // Never yielding, its calls leave the child only as its socket drains: the call cap or the
    // memory the unsent ones take ends it, whichever comes first.
    const unyielding = await run('for (;;) page.title();', { ...LIMITS, cpu_seconds: 30 });
    expect([
      `script_error: the script made more than ${MAX_CALLS} page calls`,
      'memory: the script used more than 64 MiB of memory',
    ]).toContain(`${unyielding.kind}: ${unyielding.error}`);
  });

  it('ten hostile runs at once: each ends with its kind, a well-behaved run still passes', SLOW, async () => {
    const hostile = [
      ...Array.from({ length: 4 }, () => ['for (;;) {}', 'cpu'] as const),
      ...Array.from(
        { length: 3 },
        () => ['const a = []; for (;;) a.push(new Array(1e5).fill(1.5));', 'memory'] as const,
      ),
      ...Array.from({ length: 2 }, () => ['for (;;) await null;', 'cpu'] as const),
      [FLOOD, 'script_error'] as const,
    ];
    const limits = { ...LIMITS, wall_ms: 110_000, cpu_seconds: 2 };
    const good = run(
      "await test.step('One', async () => { await page.goto(url); });\nawait test.step('Two', async () => { expect(await page.title()).toBe('Shop'); });",
      limits,
    );
    const outcomes = await Promise.all([good, ...hostile.map(([script]) => run(script, limits))]);
    expect(outcomes[0]).toMatchObject({ ok: true, kind: 'ok' });
    expect(outcomes[0]?.steps.map((s) => s.name)).toEqual(['One', 'Two']);
    expect(outcomes.slice(1).map((o) => o.kind)).toEqual(hostile.map(([, kind]) => kind));
    // Every child reaped: none left, running or zombie, under this process.
    const { stdout } = await promisify(execFile)('ps', [
      '-o',
      'pid=,stat=,args=',
      '--ppid',
      String(process.pid),
    ]);
    expect(stdout.split('\n').filter((l) => l.includes('sandbox-child'))).toEqual([]);
  });
});

/** Run as the child is (same program, flags, user, namespace, limits), reading only itself. */
const PROBE = `
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import cp from 'node:child_process';
import { Worker } from 'node:worker_threads';
const r = { env: Object.keys(process.env), uid: process.getuid(), interfaces: Object.keys(os.networkInterfaces()) };
const attempt = (name, f) => { try { f(); r[name] = 'allowed'; } catch (e) { r[name] = e.code ?? String(e); } };
attempt('passwd', () => fs.readFileSync('/etc/passwd'));
attempt('agentEnviron', () => fs.readFileSync('/proc/' + process.ppid + '/environ'));
attempt('write', () => fs.writeFileSync('/tmp/sandbox-probe-wrote', 'x'));
attempt('spawn', () => cp.execFileSync('/bin/true'));
attempt('worker', () => new Worker('1', { eval: true }));
const s = net.connect({ host: '127.0.0.1', port: Number(process.argv[2]) });
s.on('connect', () => { r.connect = 'connected'; s.destroy(); process.stdout.write(JSON.stringify(r) + '\\n'); });
s.on('error', (e) => { r.connect = e.code; process.stdout.write(JSON.stringify(r) + '\\n'); });
`;

describe('the walls behind the vm context, on their own', () => {
  it(
    'the child process can read no file, spawn nothing, see no environment, and (with a namespace) reach no address',
    SLOW,
    async () => {
      const file = join(dir, 'probe.mjs');
      await writeFile(file, PROBE, { mode: 0o644 });
      const isolation = await sandboxIsolation();
      const { file: program, args } = childCommand(await sandboxPlan(), LIMITS, file, [String(port)]);
      const child = spawn(program, args, { env: {}, cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      await new Promise((r) => child.on('close', r));
      const r = JSON.parse(out) as Record<string, unknown>;
      expect(r).toMatchObject({
        env: [],
        passwd: 'ERR_ACCESS_DENIED',
        agentEnviron: 'ERR_ACCESS_DENIED',
        write: 'ERR_ACCESS_DENIED',
        spawn: 'ERR_ACCESS_DENIED',
        worker: 'ERR_ACCESS_DENIED',
      });
      if (isolation.user) expect(r.uid).toBe(isolation.user.uid);
      if (isolation.network_namespace) {
        expect(r.interfaces).toEqual([]);
        expect(r.connect).toBe('ENETUNREACH');
      } else {
        expect(r.connect).toBe('connected');
      }
    },
  );
});
