import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BrowserBusyError,
  type BrowserPool,
  createBrowserPool,
} from '../../agent/src/browser/browser-pool.js';
import { createBrowserProber } from '../../agent/src/browser/browser-prober.js';
import { type GuardProxy, startGuardProxy } from '../../agent/src/browser/guard-proxy.js';
import { runSandboxed } from '../../agent/src/browser/run-sandboxed.js';
import { CheckDeadline } from '../../agent/src/deadline.js';
import type { ProbeSpec } from '../../agent/src/probe-port.js';
import { type JourneySite, startJourneySite } from './journey-site.js';
import { CHROMIUM } from './support.js';

/**
 * The browser prober as the agent runs it: the pool (one Chromium, a fresh context per run), the
 * guard proxy with private targets refused (the test site's own port let through with the guard's
 * `allow` option), the sandbox child running the script, and the run's report.
 */
let site: JourneySite;
let guard: GuardProxy;
let pool: BrowserPool;
let prober: ReturnType<typeof createBrowserProber>;

beforeAll(async () => {
  site = await startJourneySite();
  guard = await startGuardProxy({
    blockPrivate: true,
    allow: (address, port) => address === '127.0.0.1' && port === site.port,
  });
  pool = createBrowserPool({ executablePath: CHROMIUM, proxyUrl: guard.url, concurrency: 2 });
  prober = createBrowserProber({ pool, guard, runSandboxed, cpuSeconds: 10, memoryMb: 64 });
});
afterAll(async () => {
  await pool?.close();
  await guard?.close();
  await site?.close();
});

const check = (script: string, secrets: Record<string, string> = {}, timeout_ms = 20_000) =>
  prober.run(
    {
      monitor_id: 'm1',
      monitor_type: 'browser',
      url: site.url,
      timeout_ms,
      settings: { script, secrets },
    } as ProbeSpec<'browser'>,
    new CheckDeadline(),
  );

const JOURNEY = `await page.goto(url);
await test.step('Sign in', async () => {
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill('me@example.com');
  await page.getByLabel('Password').fill(secrets.PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});
await test.step('Pay', async () => {
  await page.getByRole('link', { name: 'Order form' }).click();
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.locator('#status')).toHaveText('Order placed', { timeout: 1500 });
});`;

describe('the browser prober', () => {
  it('a passing journey: its steps, the first navigation’s Web Vitals, no screenshot', async () => {
    site.broken = false;
    const r = await check(JOURNEY, { PASSWORD: 'right-password' });
    expect(r.error).toBeNull();
    expect(r.ok).toBe(true);
    expect(r.script!.steps.map((s) => [s.name, s.ok])).toEqual([
      [expect.stringContaining('127.0.0.1'), true],
      ['Sign in', true],
      ['Pay', true],
    ]);
    expect(r.script!.failed_step).toBeNull();
    expect(r.script!.web_vitals).toEqual({
      ttfb_ms: expect.any(Number),
      lcp_ms: expect.any(Number),
      cls: expect.any(Number),
    });
    expect(r.script!.screenshot).toBeNull();
    expect(r.script!.console_errors).toEqual([]);
  });

  it('a failing journey: the step, the line, a real JPEG, the console error and the failed request; no secret anywhere', async () => {
    site.broken = true;
    try {
      const r = await check(JOURNEY, { PASSWORD: 'right-password' });
      expect(r.ok).toBe(false);
      expect(r.error).toEqual({
        kind: 'script_error',
        message:
          'step 3 \'Pay\' failed: expect(locator).toHaveText: expected "Order placed", received "" (after 1500 ms) (line 12)',
      });
      expect(r.script!.failed_step).toBe(3);
      expect(r.script!.error_line).toBe(12);
      const shot = r.script!.screenshot!;
      expect(shot.type).toBe('image/jpeg');
      expect(shot.data.length).toBeGreaterThan(1000);
      expect(shot.data.length).toBeLessThanOrEqual(256 * 1024);
      // A JPEG: SOI marker first, EOI last.
      expect([...shot.data.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      expect([...shot.data.subarray(-2)]).toEqual([0xff, 0xd9]);
      writeFileSync(join(tmpdir(), 'pagehost-failed-check.jpg'), shot.data);
      expect(r.script!.console_errors).toContain('payment failed: 503');
      // The query string (a card number here) is not reported.
      expect(r.script!.failed_requests).toContain(`POST ${site.url}api/pay 503`);
      expect(JSON.stringify(r)).not.toContain('right-password');
    } finally {
      site.broken = false;
    }
  });

  it('a secret in an error is shown as ••••', async () => {
    const r = await check('await page.goto(url); throw new Error("token " + secrets.TOKEN);', {
      TOKEN: 'tok-123456',
    });
    expect(r.error!.message).toBe('token •••• (line 1)');
  });

  it('with private targets refused, page.goto to a private address fails as a failed request naming the guard', async () => {
    const r = await check("await page.goto(url);\nawait page.goto('http://192.168.77.1/admin?x=1');");
    expect(r.ok).toBe(false);
    expect(r.error!.message).toMatch(
      /^step 2 'goto http:\/\/192\.168\.77\.1\/admin\?x=1' failed: page\.goto: net::ERR_\w+ at http:\/\/192\.168\.77\.1\/admin\?x=1 \(refused by the agent’s address guard: 192\.168\.77\.1 is not an allowed destination\) \(line 2\)$/,
    );
    expect(r.script!.failed_requests).toEqual([
      expect.stringMatching(
        /^GET http:\/\/192\.168\.77\.1\/admin net::ERR_\w+ \(refused by the agent’s address guard: 192\.168\.77\.1 is not an allowed destination\)$/,
      ),
    ]);
  });

  it('a method outside the allow-list fails clearly, naming it', async () => {
    const r = await check("await page.goto(url);\nawait page.screenshot({ path: '/tmp/x.png' });");
    expect(r.ok).toBe(false);
    expect(r.error!.message).toMatch(/screenshot/);
    expect(r.error!.message).toMatch(/\(line 2\)$/);
  });

  it('a fresh context per run: what one run stored, the next does not see', async () => {
    const r1 = await check(
      'await page.goto(url); await page.evaluate(\'() => { localStorage.setItem("k", "v"); document.cookie = "c=1"; }\');',
    );
    expect(r1.error).toBeNull();
    const r2 = await check(
      "await page.goto(url); const seen = await page.evaluate('() => (localStorage.getItem(\"k\") ?? \"\") + document.cookie'); if (seen !== '') throw new Error('saw ' + seen);",
    );
    expect(r2.error).toBeNull();
  });

  it('Chromium killed between runs is started again by the next run', async () => {
    expect((await check('await page.goto(url);')).ok).toBe(true);
    const pids = execFileSync('pgrep', ['-P', String(process.pid), '-f', 'chromium'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean);
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(Number(pid), 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    const again = await check('await page.goto(url);');
    expect(again.error).toBeNull();
  });
});

describe('the browser pool', () => {
  it('holds at most its concurrency in contexts at once; beyond its queue, a run fails at once', async () => {
    const one = createBrowserPool({
      executablePath: CHROMIUM,
      proxyUrl: guard.url,
      concurrency: 1,
      queueMax: 1,
    });
    try {
      let open = 0;
      let most = 0;
      const hold = () =>
        one.withPage(Date.now() + 20_000, async (_page, context) => {
          open++;
          most = Math.max(most, open, context.browser()!.contexts().length);
          await new Promise((r) => setTimeout(r, 300));
          open--;
          return 'ran';
        });
      const runs = [hold(), hold(), hold()].map((p) => p.catch((e) => e));
      const [a, b, c] = await Promise.all(runs);
      expect([a, b]).toEqual(['ran', 'ran']);
      expect(c).toBeInstanceOf(BrowserBusyError);
      expect(most).toBe(1);
      expect([one.busy, one.waiting]).toEqual([0, 0]);
    } finally {
      await one.close();
    }
  });
});
