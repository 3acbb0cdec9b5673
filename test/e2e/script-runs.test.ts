import { request as httpRequest } from 'node:http';
import { create } from '@bufbuild/protobuf';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { CheckResultSchema, type ReportResultsResponse } from '@lookout/proto';
import { silentLogger } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualTimers } from '../../agent/src/manual-timers.js';
import { reportEncodedResults } from '../../agent/src/report-rpc.js';
import { createReporter } from '../../agent/src/reporter.js';
import { resultOf } from '../../agent/src/wire.js';
import { createAgentToken } from '../../control-plane/src/domain/agents/agent-tokens.js';
import { pruneScriptRunsAt } from '../../control-plane/src/domain/results/script-runs.js';
import { grpcAgent } from '../support/agent-client.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * Scripted runs' reports (docs/scripted-checks.md, "Runs, steps and screenshots"): sent by an agent
 * over the real agent protocol (gRPC ReportResults, as CheckResult.script), kept beside the results,
 * read through the API: the run, its screenshot's bytes and the monitor's latest run.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const PNG = Uint8Array.from([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  ...Array.from({ length: 200 }, (_, i) => i),
]);

/** GET as bytes (the harness reads bodies as text). */
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

const browserMonitor = {
  display_name: 'Checkout journey',
  monitor_type: 'browser',
  url: 'https://shop.example.com',
  script:
    "await page.goto(url);\nawait test.step('Sign in', async () => {\n  await page.getByRole('button', { name: 'Sign in' }).click();\n});",
  check_interval_seconds: 300,
  timeout_seconds: 30,
  check_locations: ['eu-west'],
};

describe('script runs through the agent protocol and the API', () => {
  it('a failed browser run: steps, failed step, vitals, console errors, the screenshot’s bytes; a replay stored once', async () => {
    const w = await h.workspace('runs-a');
    const other = await h.workspace('runs-b');
    const created = await w.api('POST', '/monitors/create', { json: browserMonitor });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const m = created.body as { id: string };
    const agent = await grpcAgent({
      store: h.store,
      config: h.config,
      rpcUrl: h.cp.rpcUrl,
      region: 'eu-west',
      instance: 'eu-1',
    });
    h.clock.advance(60_000);
    const at = h.clock.now().getTime();
    const failed = create(CheckResultSchema, {
      monitorId: m.id,
      monitorVersion: 1n,
      scheduledAtMs: BigInt(at),
      startedAtMs: BigInt(at + 3),
      ok: false,
      errorKind: 'script_failed',
      errorMessage: "step 2 'Sign in' failed: locator.click: Timeout 5000ms exceeded (line 3)",
      responseTimeMs: 5400,
      script: {
        steps: [
          { name: 'Navigate to https://shop.example.com/', ok: true, durationMs: 380 },
          { name: 'Sign in', ok: false, durationMs: 5010, error: 'locator.click: Timeout 5000ms exceeded' },
        ],
        failedStep: 2,
        errorLine: 3,
        webVitals: { measured: true, ttfbMs: 42, lcpMs: 610, cls: 0.02 },
        consoleErrors: ['Uncaught TypeError: cart is undefined'],
        failedRequests: ['GET https://shop.example.com/api/cart 502'],
        screenshot: PNG,
        screenshotType: 'image/png',
      },
    });
    const send = (): Promise<ReportResultsResponse> =>
      agent.client.reportResults({ instanceId: 'eu-1', sessionId: agent.sessionId, results: [failed] });
    expect((await send()).duplicates).toBe(0);
    // The agent's replay of the same batch (its acknowledgement lost): stored once.
    expect((await send()).duplicates).toBe(1);

    const results = (await w.api('GET', `/monitors/${m.id}/results`)).body.data as { id: string }[];
    expect(results).toHaveLength(1);
    const resultId = results[0]!.id;
    const screenshotUrl = `/api/v1/monitors/${m.id}/results/${encodeURIComponent(resultId)}/screenshot`;
    const expected = {
      result_id: resultId,
      monitor_id: m.id,
      location: 'eu-west',
      started_at: new Date(at + 3).toISOString(),
      ok: false,
      steps: [
        {
          name: 'Navigate to https://shop.example.com/',
          ok: true,
          duration_ms: 380,
          error: null,
          status_code: null,
        },
        {
          name: 'Sign in',
          ok: false,
          duration_ms: 5010,
          error: 'locator.click: Timeout 5000ms exceeded',
          status_code: null,
        },
      ],
      failed_step: 2,
      error_line: 3,
      web_vitals: { ttfb_ms: 42, lcp_ms: 610, cls: 0.02 },
      console_errors: ['Uncaught TypeError: cart is undefined'],
      failed_requests: ['GET https://shop.example.com/api/cart 502'],
      screenshot: { content_type: 'image/png', size: PNG.length, url: screenshotUrl },
    };
    const run = await w.api('GET', `/monitors/${m.id}/results/${encodeURIComponent(resultId)}/script`);
    expect(run.status, run.text).toBe(200);
    expect(run.body).toEqual(expected);
    expect((await w.api('GET', `/monitors/${m.id}/script-runs/latest`)).body).toEqual(expected);

    // The screenshot, as a viewer reads it: the same bytes, its type, cached privately, never sniffed.
    const viewer = await w.userWithKey('viewer');
    const shot = await getBytes(w.host, viewer.key, screenshotUrl.slice('/api/v1'.length));
    expect(shot.status).toBe(200);
    expect(shot.body.equals(Buffer.from(PNG))).toBe(true);
    expect(shot.headers['content-type']).toBe('image/png');
    expect(shot.headers['cache-control']).toBe('private, max-age=86400');
    expect(shot.headers['x-content-type-options']).toBe('nosniff');
    expect(shot.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await w.as(viewer.key)('GET', `/monitors/${m.id}/script-runs/latest`)).status).toBe(200);

    // Another workspace: its key sees neither the monitor's run nor its screenshot.
    for (const path of [
      `/monitors/${m.id}/results/${encodeURIComponent(resultId)}/script`,
      `/monitors/${m.id}/script-runs/latest`,
    ])
      expect((await other.api('GET', path)).status).toBe(404);
    expect((await getBytes(other.host, other.adminKey, screenshotUrl.slice('/api/v1'.length))).status).toBe(
      404,
    );
    // An unknown result, and a result with no run: 404 with the API's error.
    const missing = await w.api('GET', `/monitors/${m.id}/results/nope/script`);
    expect([missing.status, (missing.body as { error: { code: string } }).error.code]).toEqual([
      404,
      'not_found',
    ]);
    expect((await getBytes(w.host, w.adminKey, `/monitors/${m.id}/results/nope/screenshot`)).status).toBe(
      404,
    );
  });

  it('keeps no report for other types, and drops a screenshot whose bytes are not what its type says', async () => {
    const w = await h.workspace('runs-c');
    const agent = await grpcAgent({
      store: h.store,
      config: h.config,
      rpcUrl: h.cp.rpcUrl,
      region: 'eu-west',
      instance: 'eu-2',
    });
    const http = (
      await w.api('POST', '/monitors/create', {
        json: {
          display_name: 'home',
          monitor_type: 'http',
          url: 'https://shop.example.com',
          http_method: 'GET',
          expected_status_code: 200,
          check_interval_seconds: 60,
          timeout_seconds: 5,
          failure_threshold: 1,
          check_locations: ['eu-west'],
        },
      })
    ).body as { id: string };
    const browser = (await w.api('POST', '/monitors/create', { json: browserMonitor })).body as {
      id: string;
    };
    h.clock.advance(60_000);
    const at = BigInt(h.clock.now().getTime());
    const html = new TextEncoder().encode('<html><script>alert(1)</script></html>');
    await agent.client.reportResults({
      instanceId: 'eu-2',
      sessionId: agent.sessionId,
      results: [
        create(CheckResultSchema, {
          monitorId: http.id,
          monitorVersion: 1n,
          scheduledAtMs: at,
          startedAtMs: at,
          ok: false,
          errorKind: 'status',
          script: { steps: [{ name: 'x' }], screenshot: PNG, screenshotType: 'image/png' },
        }),
        create(CheckResultSchema, {
          monitorId: browser.id,
          monitorVersion: 1n,
          scheduledAtMs: at,
          startedAtMs: at,
          ok: false,
          errorKind: 'script_failed',
          script: {
            steps: [{ name: 'Open', ok: false, error: 'boom' }],
            failedStep: 1,
            screenshot: html,
            screenshotType: 'image/png',
          },
        }),
      ],
    });
    expect((await w.api('GET', `/monitors/${http.id}/script-runs/latest`)).status).toBe(404);
    const run = await w.api('GET', `/monitors/${browser.id}/script-runs/latest`);
    expect(run.body).toMatchObject({ failed_step: 1, screenshot: null });
    const id = (run.body as { result_id: string }).result_id;
    expect(
      (
        await getBytes(
          w.host,
          w.adminKey,
          `/monitors/${browser.id}/results/${encodeURIComponent(id)}/screenshot`,
        )
      ).status,
    ).toBe(404);
  });

  it('retention: a screenshot goes after 7 days, its run with the results (the clock moved on)', async () => {
    const w = await h.workspace('runs-d');
    const agent = await grpcAgent({
      store: h.store,
      config: h.config,
      rpcUrl: h.cp.rpcUrl,
      region: 'eu-west',
      instance: 'eu-3',
    });
    const m = (await w.api('POST', '/monitors/create', { json: browserMonitor })).body as { id: string };
    h.clock.advance(60_000);
    const at = BigInt(h.clock.now().getTime());
    await agent.client.reportResults({
      instanceId: 'eu-3',
      sessionId: agent.sessionId,
      results: [
        create(CheckResultSchema, {
          monitorId: m.id,
          monitorVersion: 1n,
          scheduledAtMs: at,
          startedAtMs: at,
          ok: false,
          errorKind: 'script_failed',
          script: {
            steps: [{ name: 'Open', ok: false, error: 'boom' }],
            failedStep: 1,
            screenshot: PNG,
            screenshotType: 'image/png',
          },
        }),
      ],
    });
    const latest = async () =>
      (await w.api('GET', `/monitors/${m.id}/script-runs/latest`)).body as
        | { screenshot: unknown; result_id: string }
        | undefined;
    expect((await latest())!.screenshot).not.toBeNull();
    // What the jobs' prune pass does, six days on: nothing; eight days on: the screenshot.
    const days = h.config.result_retention_days;
    expect(await pruneScriptRunsAt(h.store, new Date(h.clock.now().getTime() + 6 * 86_400_000), days)).toBe(
      0,
    );
    expect((await latest())!.screenshot).not.toBeNull();
    expect(
      await pruneScriptRunsAt(h.store, new Date(h.clock.now().getTime() + 8 * 86_400_000), days),
    ).toBeGreaterThan(0);
    const kept = await latest();
    expect(kept!.screenshot).toBeNull();
    expect(
      (
        await getBytes(
          w.host,
          w.adminKey,
          `/monitors/${m.id}/results/${encodeURIComponent(kept!.result_id)}/screenshot`,
        )
      ).status,
    ).toBe(404);
    // Past the results' retention, the run goes too.
    await pruneScriptRunsAt(h.store, new Date(h.clock.now().getTime() + (days + 1) * 86_400_000), days);
    expect((await w.api('GET', `/monitors/${m.id}/script-runs/latest`)).status).toBe(404);
  });

  it('the agent’s own path: its result (resultOf), its buffer and its encoded batch reach the API intact', async () => {
    const w = await h.workspace('runs-e');
    const m = (await w.api('POST', '/monitors/create', { json: browserMonitor })).body as { id: string };
    const agent = await grpcAgent({
      store: h.store,
      config: h.config,
      rpcUrl: h.cp.rpcUrl,
      region: 'eu-west',
      instance: 'eu-4',
    });
    const token = (await createAgentToken(h.store, h.config.regions, { region: 'eu-west' }, new Date()))
      .value;
    const transport = createGrpcTransport({
      baseUrl: h.cp.rpcUrl,
      interceptors: [
        (next) => (req) => {
          req.header.set('authorization', `Bearer ${token}`);
          return next(req);
        },
      ],
    });
    const t = manualTimers(h.clock.now().getTime());
    const reporter = createReporter({
      reportEncoded: reportEncodedResults(transport),
      instanceId: 'eu-4',
      timers: t.timers,
      log: silentLogger(),
      callTimeoutMs: 10_000,
      buffer: { maxItems: 1000, maxBytes: 64 * 2 ** 20, maxAgeMs: 3_600_000 },
      session: () => ({ id: agent.sessionId }),
      failed: () => 'transient',
      stopping: () => false,
    });
    h.clock.advance(60_000);
    const at = h.clock.now().getTime();
    reporter.push(
      at,
      resultOf({
        monitorId: m.id,
        version: 1n,
        scheduledAt: at,
        startedAt: at,
        outcome: {
          ok: false,
          error: { kind: 'script_failed', message: "step 1 'Sign in' failed: no button (line 2)" },
          response_time_ms: 900,
          script: {
            steps: [
              { name: 'Sign in', ok: false, duration_ms: 900.4, error: 'no button', status_code: null },
            ],
            failed_step: 1,
            error_line: 2,
            web_vitals: { ttfb_ms: 20, lcp_ms: null, cls: 0 },
            console_errors: [],
            failed_requests: [],
            screenshot: { type: 'image/png', data: PNG },
          },
        },
      }),
    );
    await reporter.report();
    expect(reporter.buffered).toBe(0);
    const run = (await w.api('GET', `/monitors/${m.id}/script-runs/latest`)).body as {
      result_id: string;
      steps: unknown[];
      web_vitals: unknown;
      error_line: number;
    };
    expect(run).toMatchObject({
      steps: [{ name: 'Sign in', ok: false, duration_ms: 900, error: 'no button', status_code: null }],
      error_line: 2,
      web_vitals: { ttfb_ms: 20, lcp_ms: null, cls: 0 },
    });
    const shot = await getBytes(
      w.host,
      w.adminKey,
      `/monitors/${m.id}/results/${encodeURIComponent(run.result_id)}/screenshot`,
    );
    expect(shot.body.equals(Buffer.from(PNG))).toBe(true);
  });
});
