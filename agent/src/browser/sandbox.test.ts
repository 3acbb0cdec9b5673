import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHILD_FILE, findProgram } from './isolation.js';
import type { HostCall, HostReply, Json, PageHost } from './protocol.js';
import { runSandboxed } from './run-sandboxed.js';

/**
 * The sandbox end to end with real child processes (`npx tsc -b` first: the child runs from dist/)
 * and a page held in memory (the real page is page-host.ts, in Chromium).
 */
const TOKEN = 'agent-token-6f1c2a9e';
const LIMITS = { wall_ms: 30_000, cpu_seconds: 5, memory_mb: 64 };
const SLOW = 60_000;

/** `goto` moves the URL, `title` answers, a click on `#missing` fails, `expect:toHaveTitle` compares. */
function memoryPage(title = 'Shop'): PageHost & { calls: HostCall[] } {
  let url = 'about:blank';
  const calls: HostCall[] = [];
  const ok = (value: Json): HostReply => ({ ok: true, value, url });
  const fail = (error: string): HostReply => ({ ok: false, error, url });
  return {
    calls,
    async call(c) {
      calls.push(c);
      if (c.method === 'goto') url = String(c.args[0]);
      if (c.method === 'title') return ok(title);
      if (c.method === 'evaluate') return ok({ nested: { list: [1, 2] } });
      if (c.method === 'click' && c.args[0] === '#missing')
        return fail('Timeout 5000ms exceeded waiting for #missing');
      if (c.method === 'expect:toHaveTitle') {
        return (c.args[0] === title) !== (c.not === true)
          ? ok(null)
          : fail(`expected title "${c.args[0]}", got "${title}"`);
      }
      return ok(null);
    },
  };
}

const run = (
  script: string,
  host: PageHost = memoryPage(),
  limits = LIMITS,
  secrets: Record<string, string> = {},
) => runSandboxed({ script, url: 'https://shop.test/', secrets }, host, limits);

beforeAll(() => {
  process.env.LOOKOUT_AGENT_TOKEN = TOKEN;
});
afterAll(() => {
  delete process.env.LOOKOUT_AGENT_TOKEN;
});

describe('a browser script in the sandbox', () => {
  it('passes with two steps, a navigation outside them and expects on plain values', {
    timeout: SLOW,
  }, async () => {
    const page = memoryPage();
    const outcome = await run(
      [
        'await page.goto(url);',
        "await test.step('Open the shop', async () => {",
        '  expect(await page.title()).toBe("Shop");',
        '  expect(page.url()).toBe("https://shop.test/");',
        '  await expect(page).toHaveTitle("Shop");',
        '  await expect(page).not.toHaveTitle("Other");',
        '});',
        "await test.step('Pay', async () => {",
        "  await page.getByRole('button', { name: /pay/i }).click();",
        '  const v = await page.evaluate(() => document.title);',
        '  expect(v).toEqual({ nested: { list: [1, 2] } });',
        '  expect(secrets.CARD).toMatch(/^4242/);',
        '  expect([1, 2]).toContain(2); expect(3).toBeGreaterThan(2); expect(0).toBeFalsy(); expect(1).not.toBe(2);',
        '});',
      ].join('\n'),
      page,
      LIMITS,
      { CARD: '4242424242424242' },
    );
    expect(outcome).toMatchObject({ ok: true, kind: 'ok', error: null, line: null });
    expect(outcome.steps.map((s) => [s.name, s.ok])).toEqual([
      ['goto https://shop.test/', true],
      ['Open the shop', true],
      ['Pay', true],
    ]);
    const click = page.calls.find((c) => c.method === 'click');
    expect(click?.chain).toEqual([
      { method: 'getByRole', args: ['button', { name: { $regex: 'pay', flags: 'i' } }] },
    ]);
    expect(page.calls.find((c) => c.method === 'expect:toHaveTitle' && c.not)?.args).toEqual(['Other']);
  });

  it("runs a script written for Playwright Test as pasted: require('@playwright/test'), test(title, fn) with { page }", {
    timeout: SLOW,
  }, async () => {
    const page = memoryPage();
    const outcome = await run(
      [
        "const { test, expect } = require('@playwright/test');",
        "test('Home', async ({ page }) => {",
        '  await page.goto(url);',
        '  await expect(page).toHaveTitle("Shop");',
        '});',
        "test('Pay', async ({ page }) => {",
        "  await test.step('Find the button', async () => {",
        "    await page.getByRole('button', { name: 'Pay' }).click();",
        '  });',
        "  throw new Error('declined');",
        '});',
        "test('Never', async () => {});",
      ].join('\n'),
      page,
      LIMITS,
    );
    expect(outcome).toMatchObject({ ok: false, kind: 'script_error', line: 10 });
    expect(outcome.error).toContain('declined');
    expect(outcome.steps.map((s) => [s.name, s.ok])).toEqual([
      ['Home', true],
      ['Pay', false],
    ]);
    expect(page.calls.map((c) => c.method)).toEqual(['goto', 'expect:toHaveTitle', 'click']);
  });

  it('reports the line of a throw and of a failed page call, and the failed step', {
    timeout: SLOW,
  }, async () => {
    const thrown = await run(
      "await test.step('One', async () => {});\n\n\nthrow new TypeError('no basket');",
    );
    expect(thrown).toMatchObject({ ok: false, kind: 'script_error', error: 'TypeError: no basket', line: 4 });

    const failed = await run(
      "await test.step('Open', async () => {});\nawait test.step('Sign in', async () => {\n  await page.fill('#user', 'a');\n  await page.click('#missing');\n});",
    );
    expect(failed).toMatchObject({
      kind: 'script_error',
      error: 'Timeout 5000ms exceeded waiting for #missing',
      line: 4,
    });
    expect(failed.steps.map((s) => [s.name, s.ok, s.error])).toEqual([
      ['Open', true, null],
      ['Sign in', false, 'Timeout 5000ms exceeded waiting for #missing'],
    ]);

    const assertion = await run('\nexpect(2 + 2).toBe(5);');
    expect(assertion).toMatchObject({ kind: 'script_error', error: 'expect(4).toBe(5)', line: 2 });
    const hostAssertion = await run('await page.goto(url);\nawait expect(page).toHaveTitle("Cart");');
    expect(hostAssertion).toMatchObject({
      kind: 'script_error',
      error: 'expected title "Cart", got "Shop"',
      line: 2,
    });
    const escaped = await run(
      '});\nthrow { name: "Trap", message: "outside the wrapper" };\n(async function () {',
    );
    expect(escaped).toMatchObject({ kind: 'script_error', error: 'Trap: outside the wrapper' });
    const syntax = await run('const a = 1;\nconst = 2;');
    expect(syntax).toMatchObject({ kind: 'script_error', line: 2 });
    expect(syntax.error).toMatch(/^SyntaxError/);
  });

  it('shows the secrets as •••• in what the script reports', { timeout: SLOW }, async () => {
    const outcome = await run(
      "await test.step('As ' + secrets.USER, async () => {\n  throw new Error('wrong password ' + secrets.PASSWORD);\n});",
      memoryPage(),
      LIMITS,
      { USER: 'alice@shop.test', PASSWORD: 'hunter2-hunter2' },
    );
    expect(outcome).toMatchObject({ kind: 'script_error', error: 'wrong password ••••', line: 2 });
    expect(outcome.steps).toMatchObject([{ name: 'As ••••', ok: false, error: 'wrong password ••••' }]);
  });

  it('reports the first 100 steps of a script that makes many', { timeout: SLOW }, async () => {
    const outcome = await run(
      "for (let i = 1; i <= 1000; i++) await test.step('Step ' + i, async () => {});",
    );
    expect(outcome).toMatchObject({ ok: true, kind: 'ok' });
    expect(outcome.steps).toHaveLength(100);
    expect(outcome.steps[99]?.name).toBe('Step 100');
  });

  it('drops a reply that comes after the run ended', { timeout: SLOW }, async () => {
    let answered: Promise<HostReply> | null = null;
    const slow: PageHost = {
      call: () => {
        answered = new Promise((r) =>
          setTimeout(() => r({ ok: true, value: 'late', url: 'https://shop.test/' }), 300),
        );
        return answered;
      },
    };
    const outcome = await run('page.title();\nreturn;', slow);
    expect(outcome).toMatchObject({ ok: true, kind: 'ok' });
    expect(await answered).toMatchObject({ value: 'late' });
  });

  it('refuses what is not on the allow-list and arguments too large to send', { timeout: SLOW }, async () => {
    const page = memoryPage();
    const notThere = await run('await page.screenshot({ path: "/etc/x" });', page);
    expect(notThere).toMatchObject({
      kind: 'script_error',
      error: 'TypeError: page.screenshot is not a function',
    });
    const huge = await run('await page.fill("#a", "x".repeat(300000));', page);
    expect(huge).toMatchObject({ kind: 'script_error', error: 'fill: arguments too large', line: 1 });
    expect(page.calls).toEqual([]);
  });
});

describe('an agent not running as root', () => {
  const root = process.getuid?.() === 0;

  it.runIf(root)(
    'gets a user and network namespace where the kernel allows one',
    { timeout: SLOW },
    async () => {
      const run = promisify(execFile);
      const [setpriv, unshare] = await Promise.all([findProgram('setpriv'), findProgram('unshare')]);
      if (!setpriv || !unshare) return;
      const asNobody = [setpriv, '--reuid=65534', '--regid=65534', '--clear-groups'];
      const userns = await run(asNobody[0] as string, [...asNobody.slice(1), unshare, '-rn', 'true']).then(
        () => true,
        () => false,
      );
      const dir = await mkdtemp(join(tmpdir(), 'sandbox-nonroot-'));
      try {
        await chmod(dir, 0o755);
        const file = join(dir, 'agent.mjs');
        const sandbox = new URL('run-sandboxed.js', `file://${CHILD_FILE}`).href;
        await writeFile(
          file,
          `import { runSandboxed, sandboxIsolation } from ${JSON.stringify(sandbox)};
const host = { call: async () => ({ ok: true, value: 'Shop', url: 'about:blank' }) };
const outcome = await runSandboxed({ script: "expect(await page.title()).toBe('Shop');", url: 'x', secrets: {} }, host, ${JSON.stringify(LIMITS)});
process.stdout.write(JSON.stringify({ isolation: await sandboxIsolation(), outcome }) + "\\n");`,
          { mode: 0o644 },
        );
        const { stdout } = await run(asNobody[0] as string, [...asNobody.slice(1), process.execPath, file], {
          cwd: '/',
          env: { PATH: '/usr/bin:/bin' },
        });
        const { isolation, outcome } = JSON.parse(stdout);
        expect(outcome).toMatchObject({ ok: true, kind: 'ok' });
        expect(isolation).toMatchObject({ user: null, network_namespace: userns });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
