import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentToken } from '../../control-plane/src/domain/agents/agent-tokens.js';
import { type Harness, startHarness } from '../support/harness.js';
import { exited, runCli, startAgentProcess } from '../support/processes.js';
import { waitFor } from '../support/wait.js';
import { type JourneySite, startJourneySite } from './journey-site.js';

/**
 * Browser checks end to end: a real control plane, real agent processes with Debian's Chromium, and a
 * local shop that fails on purpose. The journey alerts naming its step and recovers; hostile scripts
 * fail cleanly while an http monitor on the same agent keeps every slot; an agent without Chromium
 * never declares `browser`, never gets the browser monitor, and its region says so.
 */
let h: Harness;
let site: JourneySite;
let target: Server;
let targetPort: number;
const agents: ChildProcess[] = [];

const startAgent = async (region: string, instance: string, env: Record<string, string> = {}) => {
  const token = (await createAgentToken(h.store, h.config.regions, { region }, new Date())).value;
  const p = await startAgentProcess({
    rpcUrl: h.cp.rpcUrl,
    token,
    region,
    instance,
    env,
    ready: /assignments synced/,
  });
  agents.push(p.child);
  return p;
};

/** An API response's bytes (a screenshot). */
const getBytes = (host: string, key: string, path: string) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: h.cp.port,
          method: 'GET',
          path: `/api/v1${path}`,
          headers: { host, 'x-api-key': key },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    },
  );

/** The eu-west agent with Chromium, started by whichever test needs it first. */
let browserAgent: Promise<unknown> | null = null;
const ensureBrowserAgent = () => {
  browserAgent ??= startAgent('eu-west', 'browser-1');
  return browserAgent;
};

beforeAll(async () => {
  h = await startHarness(
    {
      plans: { e2e: { max_monitors: 20, min_interval_seconds: 1 } },
      assignment_poll_ms: 100,
      region_check_ms: 100,
    },
    { clock: systemClock },
  );
  site = await startJourneySite();
  target = createServer((_req, res) => res.writeHead(200).end('ok'));
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
  targetPort = (target.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const a of agents) a.kill('SIGTERM');
  await Promise.all(agents.map(exited));
  target?.close();
  await site?.close();
  await h?.close();
});

/** The journey: sign in (step 1), then pay (step 3 after the first navigation, which fails while the site is broken: line 12). */
const JOURNEY = `await page.goto(url);
await test.step('Sign in', async () => {
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill('me@example.com');
  await page.getByLabel('Password').fill('right-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});
await test.step('Pay', async () => {
  await page.getByRole('link', { name: 'Order form' }).click();
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.locator('#status')).toHaveText('Order placed', { timeout: 1500 });
});
`;

type Result = {
  ok: boolean;
  error_message: string | null;
  error_kind: string | null;
  scheduled_at: string;
  location: string;
};

describe('browser checks on real agents', () => {
  it('a journey passes, fails naming its step (an alert quotes it), and recovers', {
    timeout: 180_000,
  }, async () => {
    const w = await h.workspace('browser-e2e', 'e2e');
    const created = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'shop journey',
        monitor_type: 'browser',
        url: site.url,
        script: JOURNEY,
        check_interval_seconds: 10,
        timeout_seconds: 10,
        failure_threshold: 1,
        check_locations: ['eu-west'],
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    await ensureBrowserAgent();
    const results = () =>
      w.api('GET', `/monitors/${id}/results?limit=50`).then((r) => r.body.data as Result[]);
    await waitFor(results, (rs) => rs.some((r) => r.ok), { what: 'a passing journey', timeoutMs: 60_000 });

    site.broken = true;
    const alerts = () =>
      w
        .api('GET', `/alerts?source_id=${id}`)
        .then((r) => r.body.data as { status: string; title: string; description: string | null }[]);
    const raised = await waitFor(alerts, (as) => as.some((a) => a.status === 'open'), {
      what: 'an alert',
      timeoutMs: 60_000,
    });
    const failed = (await results()).find((r) => !r.ok)!;
    expect(failed.error_message).toMatch(
      /^step 3 'Pay' failed: expect\(locator\)\.toHaveText: expected "Order placed", received "" \(after 1500 ms\) \(line 12\)$/,
    );
    expect(failed.error_kind).toBe('script_error');
    expect(JSON.stringify(raised)).toContain("step 3 'Pay' failed");
    // The run's report, through the API: its steps, what the page showed, and the screenshot's bytes.
    const failedId = (failed as Result & { id: string }).id;
    const run = await w.api('GET', `/monitors/${id}/results/${encodeURIComponent(failedId)}/script`);
    expect(run.status, run.text).toBe(200);
    expect(run.body).toMatchObject({
      ok: false,
      failed_step: 3,
      error_line: 12,
      console_errors: expect.arrayContaining(['payment failed: 503']),
      failed_requests: [`POST ${site.url}api/pay 503`],
      screenshot: { content_type: 'image/jpeg', size: expect.any(Number) },
    });
    expect((run.body.steps as { name: string }[]).map((s) => s.name).slice(1)).toEqual(['Sign in', 'Pay']);
    const shot = await getBytes(w.host, w.adminKey, run.body.screenshot.url.slice('/api/v1'.length));
    expect(shot.status).toBe(200);
    expect(shot.headers['content-type']).toBe('image/jpeg');
    expect(shot.body.length).toBe(run.body.screenshot.size);
    expect([...shot.body.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    writeFileSync(join(tmpdir(), 'pagehost-e2e-screenshot.jpg'), shot.body);

    site.broken = false;
    await waitFor(alerts, (as) => as.every((a) => a.status === 'resolved'), {
      what: 'recovery',
      timeoutMs: 60_000,
    });
  });

  it('hostile scripts fail cleanly while an http monitor on the same agent gets a result for every slot', {
    timeout: 240_000,
  }, async () => {
    const w = await h.workspace('browser-hostile', 'e2e');
    const create = async (json: Record<string, unknown>) => {
      const r = await w.api('POST', '/monitors/create', { json: { check_locations: ['eu-west'], ...json } });
      expect(r.status, r.text).toBe(201);
      return r.body.id as string;
    };
    const http = await create({
      display_name: 'steady',
      monitor_type: 'http',
      url: `http://127.0.0.1:${targetPort}/`,
      http_method: 'GET',
      expected_status_code: 200,
      check_interval_seconds: 1,
      timeout_seconds: 1,
    });
    const reach = "const p = this.constructor.constructor('return process')();";
    const hostile: Record<string, string> = {
      token: `${reach} await page.goto(url + '?t=' + p.env.LOOKOUT_AGENT_TOKEN);`,
      passwd: "await page.goto('file:///etc/passwd'); throw new Error(await page.content());",
      spawn: `${reach} p.mainModule.require('child_process').execSync('id');`,
      socket: "const net = require('node:net'); net.connect(9464, '127.0.0.1');",
      allocate: 'const a = []; while (true) a.push(new Array(1e6).fill(7));',
      loop: 'while (true) {}',
    };
    const ids: Record<string, string> = {};
    for (const [name, script] of Object.entries(hostile))
      ids[name] = await create({
        display_name: `hostile ${name}`,
        monitor_type: 'browser',
        url: site.url,
        script,
        check_interval_seconds: 10,
        timeout_seconds: 10,
      });
    await ensureBrowserAgent();
    const results = (id: string, limit = 10) =>
      w.api('GET', `/monitors/${id}/results?limit=${limit}`).then((r) => r.body.data as Result[]);
    // A run that found both browser slots taken until its timeout fails as browser_busy (the cap at
    // work); each monitor's first run that got a browser is the one looked at.
    const ran = async (name: string) =>
      (
        await waitFor(
          () => results(ids[name]!, 20),
          (x) => x.some((r) => r.error_kind !== 'browser_busy'),
          { what: `a run of ${name}`, timeoutMs: 120_000 },
        )
      ).find((r) => r.error_kind !== 'browser_busy')!;
    for (const name of Object.keys(ids)) {
      const r = await ran(name);
      expect(r.ok, name).toBe(false);
      expect(r.error_message, name).toBeTruthy();
      expect(r.error_message, name).not.toMatch(/lat\.|root:x:0|uid=0/);
    }
    for (const id of Object.values(ids))
      for (const r of await results(id, 20)) expect(r.error_message).not.toMatch(/lat\.|root:x:0|uid=0/);
    expect((await ran('passwd')).error_message).toMatch(/only http and https URLs may be opened, not file:/);
    for (const name of ['token', 'spawn', 'socket'])
      expect(await ran(name), name).toMatchObject({ error_kind: 'script_error' });
    expect((await ran('loop')).error_kind).toMatch(/^(timeout|cpu_limit)$/);
    expect((await ran('allocate')).error_kind).toMatch(/^(memory_limit|timeout|cpu_limit)$/);
    // Every 1-second slot of the http monitor while the hostile checks ran has its result.
    const steady = (
      await waitFor(
        () => results(http, 100),
        (x) => x.length >= 12,
        { what: 'the http monitor’s results', timeoutMs: 60_000 },
      )
    )
      .map((r) => Date.parse(r.scheduled_at))
      .sort((a, b) => a - b);
    // The slots between the first and the last result (phase moves a little as monitors are added).
    const slots = Math.floor((steady.at(-1)! - steady[0]!) / 1000) + 1;
    expect(steady.length).toBeGreaterThanOrEqual(slots);
    expect(new Set(steady).size).toBe(steady.length);
  });

  it('an agent without Chromium does not declare browser, never gets the browser monitor, and the region says so', async () => {
    const w = await h.workspace('browser-none', 'e2e');
    const create = async (json: Record<string, unknown>) => {
      const r = await w.api('POST', '/monitors/create', { json: { check_locations: ['us-east'], ...json } });
      expect(r.status, r.text).toBe(201);
      return r.body.id as string;
    };
    const web = await create({
      display_name: 'web',
      monitor_type: 'http',
      url: `http://127.0.0.1:${targetPort}/`,
      http_method: 'GET',
      expected_status_code: 200,
      check_interval_seconds: 1,
      timeout_seconds: 1,
    });
    const journey = await create({
      display_name: 'journey',
      monitor_type: 'browser',
      url: site.url,
      script: JOURNEY,
      check_interval_seconds: 5,
      timeout_seconds: 5,
    });
    const p = await startAgent('us-east', 'no-chromium-1', {
      LOOKOUT_AGENT_CHROMIUM_PATH: '/nowhere/chromium',
    });
    expect(p.output()).toMatch(
      /no browser checks on this agent: LOOKOUT_AGENT_CHROMIUM_PATH is not an executable file/,
    );
    const env = { LOOKOUT_DATA_DIR: h.dir, LOOKOUT_LOG_LEVEL: 'silent' };
    const listed = JSON.parse((await runCli(['agent', 'list', '--json'], env)).stdout).data as {
      instance_id: string;
      check_types: string[];
    }[];
    const mine = listed.find((a) => a.instance_id === 'no-chromium-1')!;
    expect(mine.check_types).toContain('http');
    expect(mine.check_types).not.toContain('browser');
    const results = (id: string) =>
      w.api('GET', `/monitors/${id}/results?limit=10`).then((r) => r.body.data as Result[]);
    await waitFor(
      () => results(web),
      (rs) => rs.filter((r) => r.ok).length >= 3,
      { what: 'http checked' },
    );
    const region = await waitFor(
      () =>
        w
          .api('GET', '/regions')
          .then(
            (r) =>
              (r.body.data as { region: string; no_capable_agent: unknown[] }[]).find(
                (x) => x.region === 'us-east',
              )!,
          ),
      (r) => r.no_capable_agent.length > 0,
      { what: 'the region saying so' },
    );
    expect(region.no_capable_agent).toEqual([{ monitor_type: 'browser', monitors: 1 }]);
    const alerts = await waitFor(
      () =>
        w
          .api('GET', '/alerts?limit=20')
          .then((r) =>
            (r.body.data as { title: string; cause: string }[]).filter((a) => a.cause === 'no_capable_agent'),
          ),
      (as) => as.length > 0,
      { what: 'the capability alert' },
    );
    expect(alerts.map((a) => a.title)).toEqual(['No agent in us-east can run browser checks']);
    expect(await results(journey)).toEqual([]);
  });
});
