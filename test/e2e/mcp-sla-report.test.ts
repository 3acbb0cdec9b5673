import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { CLI, ROOT } from '../support/processes.js';
import { createMonitor, slaFeeder } from '../support/sla-feed.js';

/**
 * `npx lookout mcp`: get_sla_report through the real process on stdio and a real control plane: a
 * summary in words, then the report's JSON exactly as `GET /reports/sla` gives it; the API's 422 and
 * 404 passed on in words.
 */
const H = 3_600_000;
const DAY0 = Date.UTC(2026, 10, 3);

type Workspace = Awaited<ReturnType<Harness['workspace']>>;
let h: Harness;
let w: Workspace;
let other: Workspace;
let monitorId: string;
let otherMonitor: string;
let home: string;
const clients: Client[] = [];

const connect = async (key: string) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    env: { HOME: home, SERVICE_API_KEY: key, SERVICE_API_URL: `http://${w.host}:${h.cp.port}` },
    cwd: ROOT,
    stderr: 'pipe',
  });
  const c = new Client({ name: 'lookout-e2e', version: '1.0.0' });
  await c.connect(transport);
  clients.push(c);
  return async (name: string, args: Record<string, unknown> = {}) => {
    const r = await c.callTool({ name, arguments: args });
    return { isError: r.isError === true, text: (r.content as { text: string }[])[0]!.text };
  };
};

beforeAll(async () => {
  h = await startHarness();
  h.clock.set(DAY0 - H);
  w = await h.workspace('mcp-sla');
  other = await h.workspace('mcp-sla-other');
  home = mkdtempSync(join(tmpdir(), 'lookout-mcp-home-'));
  monitorId = await createMonitor(w.api, 'Shop API');
  otherMonitor = await createMonitor(other.api, 'Theirs');
  // Down 10:00–10:30 on Nov 3; fine at 09:00 and 11:00.
  const feed = slaFeeder(h);
  for (const [hour, ok] of [
    [9, true],
    [10, false],
    [10.5, true],
    [11, true],
  ] as const)
    await feed.send([{ monitorId, at: DAY0 + hour * H, ok, ms: 80 }]);
  h.clock.set(DAY0 + 2 * 24 * H);
}, 60_000);
afterAll(async () => {
  for (const c of clients) await c.close();
  await h.close();
  rmSync(home, { recursive: true, force: true });
});

describe('MCP: get_sla_report', () => {
  it("answers a summary, then the API's report unchanged", async () => {
    const call = await connect(w.adminKey);
    const r = await call('get_sla_report', {
      monitor_id: monitorId,
      from: '2026-11-03',
      to: '2026-11-03',
      slo: 99,
    });
    expect(r.isError, r.text).toBe(false);
    const [summary, json] = r.text.split('\n\n');
    expect(summary).toBe(
      [
        'SLA report for monitor "Shop API" (1 monitor), 2026-11-03 to 2026-11-03 (UTC), SLO 99 %.',
        'Uptime 75 % (maintenance left out), 75 % counting every check; 4 checks, 0 in maintenance.',
        'Downtime 30 min 0 s in 1 incident; MTTA none, MTTR 30 min 0 s.',
        `Response time p50 ${JSON.parse(json!).response_time_ms.p50} ms, p95 ${JSON.parse(json!).response_time_ms.p95} ms, p99 ${JSON.parse(json!).response_time_ms.p99} ms.`,
        // 1 % of 86,400 s = 864 s; 864 − 1,800 = −936 s.
        'Error budget: 14 min 24 s allowed, -15 min 36 s left (overspent).',
      ].join('\n'),
    );
    const api = await w.api(
      'GET',
      `/reports/sla?monitor_id=${monitorId}&from=2026-11-03&to=2026-11-03&slo=99`,
    );
    expect(JSON.parse(json!)).toEqual(api.body);
  });

  it("passes the API's errors on: every bad field, and another workspace's id as not found", async () => {
    const call = await connect(w.adminKey);
    const bad = await call('get_sla_report', { monitor_id: monitorId, tag: 'team:x', from: '2026-13-01' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('HTTP 422');
    for (const f of ['monitor_id', 'tag', 'from']) expect(bad.text).toContain(`- ${f}:`);
    const theirs = await call('get_sla_report', { monitor_id: otherMonitor });
    expect(theirs.isError).toBe(true);
    expect(theirs.text).toContain('HTTP 404');
  });
});
