// npm run bench -- browser [--runs N] [--dry-run]: browser checks per agent core per minute, and the
// memory of one concurrent browser check. The agent's own browser prober (pool, guard proxy, page host,
// sandbox child, report) runs a 2-navigation script against a local site, N runs with at most
// LOOKOUT_AGENT_BROWSER_CONCURRENCY (default 2) at once. CPU = the bench process and every process
// under it (Chromium's, the sandbox children's), from /proc: utime + stime, and cutime + cstime of
// the ones reaped, taken after Chromium's launch and a warm-up. Memory = the PSS (/proc/<pid>/smaps_rollup:
// shared pages split among the processes that share them) of Chromium's processes plus the sandbox
// child, sampled every 200 ms (reading /proc holds the bench's event loop) while one check runs alone, less Chromium idle (no context open).
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { createBrowserPool } from '../../agent/dist/browser/browser-pool.js';
import { createBrowserProber } from '../../agent/dist/browser/browser-prober.js';
import { startGuardProxy } from '../../agent/dist/browser/guard-proxy.js';
import { runSandboxed, sandboxIsolation } from '../../agent/dist/browser/run-sandboxed.js';
import { CheckDeadline } from '../../agent/dist/deadline.js';
import { machine, writeSection } from './report.js';

const TICK = 100; // USER_HZ on Linux
const page = (title, body) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body>${body}</body></html>`;
const SCRIPT = `await page.goto(url);
await page.getByRole('link', { name: 'Next' }).click();
await expect(page).toHaveTitle('Two');`;

/** pid → { ppid, cpu ticks (own + reaped children) } for every process. */
const processes = () => {
  const out = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(d), {
        ppid: Number(f[1]),
        ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]),
      });
    } catch {}
  }
  return out;
};
const descendants = (root, all = processes()) => {
  const kids = new Map();
  for (const [pid, p] of all) kids.set(p.ppid, [...(kids.get(p.ppid) ?? []), pid]);
  const found = [];
  const walk = (pid) => {
    for (const k of kids.get(pid) ?? []) {
      found.push(k);
      walk(k);
    }
  };
  walk(root);
  return { pids: found, all };
};
/** CPU seconds of this process and everything under it (live or reaped): [agent, reaped children (the sandbox's), Chromium]. */
const treeCpu = () => {
  const { pids, all } = descendants(process.pid);
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  let live = 0;
  for (const pid of pids) live += all.get(pid)?.ticks ?? 0;
  return [(Number(f[11]) + Number(f[12])) / TICK, (Number(f[13]) + Number(f[14])) / TICK, live / TICK];
};
const pssKiB = (pid) => {
  try {
    return Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
};
/** PSS of every process under this one (Chromium's and the sandbox child), MiB. */
const treePss = () => descendants(process.pid).pids.reduce((s, pid) => s + pssKiB(pid), 0) / 1024;

export const run = async (argv) => {
  const dry = argv.includes('--dry-run');
  const i = argv.indexOf('--runs');
  const runs = i >= 0 ? Number(argv[i + 1]) : dry ? 6 : 60;
  const concurrency = Number(process.env.LOOKOUT_AGENT_BROWSER_CONCURRENCY ?? 2);
  const site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      req.url === '/two'
        ? page('Two', '<h1>Two</h1><p>Arrived.</p>')
        : page('One', '<h1>One</h1><a href="/two">Next</a>'),
    );
  });
  await new Promise((r) => site.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${site.address().port}/`;
  const guard = await startGuardProxy({ blockPrivate: false });
  const pool = createBrowserPool({ executablePath: '/usr/bin/chromium', proxyUrl: guard.url, concurrency });
  const prober = createBrowserProber({ pool, guard, runSandboxed, cpuSeconds: 30, memoryMb: 128 });
  const spec = {
    monitor_id: 'bench',
    monitor_type: 'browser',
    url,
    timeout_ms: 30_000,
    settings: { script: SCRIPT, secrets: {} },
  };
  let failed = 0;
  const once = async () => {
    const r = await prober.run(spec, new CheckDeadline());
    if (!r.ok) {
      failed++;
      process.stderr.write(`a check failed: ${r.error?.message}\n`);
    }
    return r;
  };
  const isolation = await sandboxIsolation();
  // Launch and warm up (Chromium's first context, the sandbox's first child).
  await once();
  await once();

  // Memory: Chromium idle, then one check alone, sampled.
  await new Promise((r) => setTimeout(r, 500));
  const idle = treePss();
  let peak = 0;
  for (let k = 0; k < 3; k++) {
    const sampler = setInterval(() => {
      peak = Math.max(peak, treePss());
    }, 200);
    await once();
    clearInterval(sampler);
  }

  // Throughput: `runs` checks, `concurrency` in flight.
  const load0 = loadavg()[0];
  const cpu0 = treeCpu();
  const t0 = performance.now();
  let next = 0;
  let ms = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < runs) ms += (await once()).response_time_ms;
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  const parts = treeCpu().map((x, k) => x - cpu0[k]);
  const cpu = parts[0] + parts[1] + parts[2];
  await pool.close();
  await guard.close();

  // Baseline, same run: bare playwright-core, the same navigations in a fresh context each, same
  // concurrency, no sandbox, proxy or report.
  const bareBrowser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--disable-gpu',
      '--disable-background-networking',
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ],
  });
  const bareOnce = async () => {
    const context = await bareBrowser.newContext({ viewport: { width: 1280, height: 720 } });
    const p = await context.newPage();
    await p.goto(url);
    await p.getByRole('link', { name: 'Next' }).click();
    await p.waitForURL(`${url}two`);
    if ((await p.title()) !== 'Two') failed++;
    await context.close();
  };
  await bareOnce();
  await bareOnce();
  const bare0 = treeCpu();
  const b0 = performance.now();
  next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < runs) await bareOnce();
    }),
  );
  const bareWall = (performance.now() - b0) / 1000;
  const bareCpu = treeCpu().reduce((sum, x, k) => sum + x - bare0[k], 0);
  await bareBrowser.close();
  site.close();

  const perCoreMinute = (runs / cpu) * 60;
  const perMinute = (runs / wall) * 60;
  const body = `### Browser checks (\`npm run bench -- browser\`)
Run ${new Date().toISOString().slice(0, 16)} UTC, ${machine()}, load ${load0.toFixed(1)} at the start (shared box), Debian's Chromium, sandbox isolation ${isolation.permission_flag}${isolation.user ? `, uid ${isolation.user.uid}` : ''}${isolation.network_namespace ? ', own network namespace' : ''}; \`test/bench/browser.js\` (its header): a 2-navigation script (goto, click a link, expect the title) against a local site, ${runs} checks, ${concurrency} at once, each a fresh context and a sandbox child. **${Math.round(perCoreMinute)} browser checks per agent core per minute** (${cpu.toFixed(1)} CPU-s for ${runs} checks: the agent ${parts[0].toFixed(1)}, the sandbox children ${parts[1].toFixed(1)}, Chromium ${parts[2].toFixed(1)}; ${Math.round(perMinute)} a minute of wall time, ${Math.round(ms / runs)} ms a check, ${failed} failed). **Baseline, same run: bare playwright-core ${Math.round((runs / bareCpu) * 60)} per core per minute** (${bareCpu.toFixed(1)} CPU-s; ${Math.round((runs / bareWall) * 60)} a minute of wall time): the same navigations in a fresh context each, without the sandbox child, the guard proxy or the report. **Memory of one concurrent browser check: ${Math.round(peak - idle)} MiB** (PSS of Chromium's processes and the sandbox child at the check's peak, ${Math.round(peak)} MiB, less Chromium idle, ${Math.round(idle)} MiB).`;
  process.stdout.write(`${body}\n`);
  if (!dry) writeSection('browser', body);
};
