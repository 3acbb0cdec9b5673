import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserPool, createBrowserPool } from '../../agent/src/browser/browser-pool.js';
import { type GuardProxy, startGuardProxy } from '../../agent/src/browser/guard-proxy.js';
import { createPageHost } from '../../agent/src/browser/page-host.js';
import type { HostCall } from '../../agent/src/browser/protocol.js';
import { watchRun } from '../../agent/src/browser/report.js';
import { type JourneySite, startJourneySite } from './journey-site.js';
import { CHROMIUM } from './support.js';

/**
 * The agent's half of a browser check against a real Chromium: the page host answering calls as the
 * sandboxed script would make them, the guard proxy in Chromium's path, and the run's report.
 */
let site: JourneySite;
let guard: GuardProxy;
let pool: BrowserPool;

beforeAll(async () => {
  site = await startJourneySite();
  // Private targets refused, but for the test site's own loopback port.
  guard = await startGuardProxy({
    blockPrivate: true,
    allow: (address, port) => address === '127.0.0.1' && port === site.port,
  });
  pool = createBrowserPool({ executablePath: CHROMIUM, proxyUrl: guard.url, concurrency: 2 });
});
afterAll(async () => {
  await pool?.close();
  await guard?.close();
  await site?.close();
});

const call = (method: string, args: unknown[] = [], chain: HostCall['chain'] = [], not = false): HostCall =>
  ({ chain, method, args, not }) as HostCall;
const role = (r: string, name: string) => ({ method: 'getByRole', args: [r, { name }] });
const label = (l: string) => ({ method: 'getByLabel', args: [l] });

describe('the page host', () => {
  it('walks a sign-in journey with allowed calls and expect, and reports the first navigation’s Web Vitals', async () => {
    const r = await pool.withPage(Date.now() + 30_000, async (page, context) => {
      const watch = await watchRun(context, page, { secrets: {} });
      const host = createPageHost(page, { PASSWORD: 'right-password' }, { baseUrl: site.url });
      const replies = [];
      replies.push(await host.call(call('goto', [site.url])));
      replies.push(await host.call(call('expect:toHaveTitle', [{ $regex: '^sh', flags: 'i' }])));
      replies.push(await host.call(call('click', [], [role('link', 'Sign in')])));
      replies.push(await host.call(call('fill', ['me@example.com'], [label('Email')])));
      replies.push(await host.call(call('fill', ['right-password'], [label('Password')])));
      replies.push(await host.call(call('click', [], [role('button', 'Sign in')])));
      replies.push(await host.call(call('expect:toBeVisible', [], [role('heading', 'Welcome back')])));
      replies.push(await host.call(call('textContent', [], [{ method: 'locator', args: ['h1'] }])));
      replies.push(await host.call(call('evaluate', ['(n) => document.title + n', 1])));
      return { replies, report: await watch.finish(false) };
    });
    expect(r.replies.map((x) => x.ok)).toEqual(Array(9).fill(true));
    expect(r.replies[7]).toMatchObject({ value: 'Welcome back', url: `${site.url}account` });
    expect(r.replies[8]!.ok && r.replies[8]!.value).toBe('Your account1');
    expect(r.report.web_vitals).not.toBeNull();
    expect(r.report.web_vitals!.ttfb_ms).toBeGreaterThanOrEqual(0);
    expect(r.report.web_vitals!.lcp_ms).not.toBeNull();
    expect(r.report.screenshot).toBeNull();
  });

  it('refuses what is not on the allow-lists, naming the method, and redacts secrets from errors', async () => {
    const replies = await pool.withPage(Date.now() + 30_000, async (page) => {
      const host = createPageHost(page, { TOKEN: 'sekrit-token-value' }, { baseUrl: site.url });
      return Promise.all([
        host.call(call('screenshot', [{ path: '/tmp/x.png' }])),
        host.call(call('setInputFiles', ['/etc/passwd'], [{ method: 'locator', args: ['input'] }])),
        host.call(call('click', [], [{ method: 'evaluateHandle', args: [] }])),
        host.call(call('expect:toPass', [])),
        host.call(call('goto', ['file:///etc/passwd'])),
        host.call(call('goto', ['chrome://version'])),
        host.call(call('context', [])),
        host.call(call('setViewportSize', [{ width: 100_000, height: 100_000 }])),
        host.call(call('evaluate', ['() => { throw new Error("bad sekrit-token-value") }'])),
      ]);
    });
    const errors = replies.map((r) => (r.ok ? 'ok' : r.error));
    expect(errors[0]).toBe('page.screenshot is not a method a script may use');
    expect(errors[1]).toBe('locator.setInputFiles is not a method a script may use');
    expect(errors[2]).toBe('evaluateHandle is not a locator method a script may use');
    expect(errors[3]).toBe('expect(…).toPass is not a matcher a script may use');
    expect(errors[4]).toBe('page.goto: only http and https URLs may be opened, not file:');
    expect(errors[5]).toBe('page.goto: only http and https URLs may be opened, not chrome:');
    expect(errors[6]).toBe('page.context is not a method a script may use');
    expect(errors[7]).toBe('page.setViewportSize takes { width, height } of 1 to 4096 pixels');
    expect(errors[8]).toContain('bad ••••');
    expect(errors[8]).not.toContain('sekrit');
  });

  it('fails an expect that does not hold within its timeout, saying what it received', async () => {
    const reply = await pool.withPage(Date.now() + 30_000, async (page) => {
      const host = createPageHost(page, {}, { baseUrl: site.url });
      await host.call(call('goto', ['/login']));
      return host.call(
        call('expect:toHaveText', ['Welcome', { timeout: 600 }], [{ method: 'locator', args: ['h1'] }]),
      );
    });
    expect(reply).toMatchObject({
      ok: false,
      error: 'expect(locator).toHaveText: expected "Welcome", received "Sign in" (after 600 ms)',
    });
  });

  it('bounds every call by the run’s deadline', async () => {
    const reply = await pool.withPage(Date.now() + 30_000, async (page) => {
      const host = createPageHost(page, {}, { baseUrl: site.url, deadlineAt: Date.now() + 1_500 });
      await host.call(call('goto', ['/']));
      return host.call(call('click', [], [role('button', 'Nowhere')]));
    });
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.error).toMatch(/^locator\.click: Timeout \d+ms exceeded/);
  });

  it('sends Chromium through the guard: a private address is a failed request naming the guard', async () => {
    const r = await pool.withPage(Date.now() + 30_000, async (page, context) => {
      const explain = (u: string) => {
        const url = new URL(u);
        return guard.failure(url.hostname, Number(url.port || (url.protocol === 'https:' ? 443 : 80)));
      };
      const watch = await watchRun(context, page, { secrets: {}, explain });
      const host = createPageHost(page, {}, { baseUrl: site.url, explain });
      const replies = [
        await host.call(call('goto', ['http://10.1.2.3:8080/admin?key=1'])),
        await host.call(call('goto', ['https://127.0.0.1:8443/'])),
        await host.call(call('goto', [`http://localhost:${guard.port}/`])),
      ];
      return { replies, report: await watch.finish(true) };
    });
    const [http, https, self] = r.replies.map((x) => (x.ok ? 'ok' : x.error));
    expect(http).toMatch(
      /^page\.goto: net::ERR_\w+ at http:\/\/10\.1\.2\.3:8080\/admin\?key=1 \(refused by the agent’s address guard: 10\.1\.2\.3 is not an allowed destination\)/,
    );
    expect(https).toContain(
      '(refused by the agent’s address guard: 127.0.0.1 is not an allowed destination)',
    );
    expect(self).toMatch(/the agent’s own proxy is not a destination/);
    expect(r.report.failed_requests[0]).toMatch(
      /^GET http:\/\/10\.1\.2\.3:8080\/admin net::ERR_\w+ \(refused by the agent’s address guard: 10\.1\.2\.3 is not an allowed destination\)$/,
    );
    expect(guard.refused).toBeGreaterThanOrEqual(2);
  });
});

describe('what a page can make the agent read', () => {
  it('text, HTML and evaluate values are cut in the page, before they cross to the agent', async () => {
    const replies = await pool.withPage(Date.now() + 30_000, async (page) => {
      const host = createPageHost(page, {}, { baseUrl: site.url });
      await host.call(call('goto', ['/']));
      // 20 MB of text in the page.
      await host.call(
        call('evaluate', ["() => { document.querySelector('h1').textContent = 'x'.repeat(2e7); }"]),
      );
      const h1 = [{ method: 'locator', args: ['h1'] }];
      return Promise.all([
        host.call(call('textContent', [], h1)),
        host.call(call('innerText', [], h1)),
        host.call(call('allTextContents', [], [{ method: 'locator', args: ['h1, p'] }])),
        host.call(call('textContent', ['h1'])),
        host.call(call('content', [])),
        host.call(call('evaluate', ["() => document.querySelector('h1').textContent"])),
        host.call(call('evaluate', ['() => document.title'])),
      ]);
    });
    const [text, inner, all, pageText, content, big, small] = replies;
    expect(text).toMatchObject({ ok: true, value: `${'x'.repeat(10_000)}…` });
    expect(inner).toMatchObject({ ok: true, value: `${'x'.repeat(10_000)}…` });
    expect(all).toMatchObject({
      ok: true,
      value: [`${'x'.repeat(10_000)}…`, 'Everything you need, delivered.'],
    });
    expect(pageText).toMatchObject({ ok: true, value: `${'x'.repeat(10_000)}…` });
    expect(content.ok && (content.value as string).length).toBe(10_001);
    expect(big).toMatchObject({
      ok: false,
      error: expect.stringContaining('the value is larger than 256 KiB'),
    });
    expect(small).toMatchObject({ ok: true, value: 'Shop' });
  });

  it('a pattern that backtracks without end in V8 is matched in linear time on the agent', async () => {
    const reply = await pool.withPage(Date.now() + 30_000, async (page) => {
      const host = createPageHost(page, {}, { baseUrl: site.url });
      await host.call(call('goto', ['/']));
      await host.call(call('evaluate', ["() => { document.title = 'a'.repeat(40) + '!'; }"]));
      return host.call(call('expect:toHaveTitle', [{ $regex: '^(a+)+$', flags: '' }, { timeout: 300 }]));
    });
    expect(reply).toMatchObject({
      ok: false,
      error: expect.stringMatching(
        /^expect\(page\)\.toHaveTitle: expected \/\^\(a\+\)\+\$\/, received "a{40}!" \(after 300 ms\)$/,
      ),
    });
  });
});
