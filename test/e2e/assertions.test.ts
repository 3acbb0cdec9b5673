import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentToken } from '../../control-plane/src/domain/agents/agent-tokens.js';
import { type Harness, startHarness } from '../support/harness.js';
import { exited, startAgentProcess } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

/**
 * Assertions through the real interfaces: the API refuses a bad list naming every bad field and
 * writes nothing; a real agent process checks a JSON endpoint on loopback, the failed assertion is
 * the result's message and the alert's, and the monitor recovers when the body does.
 */
let h: Harness;
let target: Server;
let targetPort: number;
let status = 'degraded';
const agents: ChildProcess[] = [];

beforeAll(async () => {
  h = await startHarness(
    { plans: { e2e: { max_monitors: 100, min_interval_seconds: 1 } }, assignment_poll_ms: 1000 },
    { clock: systemClock },
  );
  target = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-version': '2.1.0' });
    res.end(JSON.stringify({ status, data: [{ name: 'db', status: 'ok' }] }));
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
  targetPort = (target.address() as AddressInfo).port;
  const token = (await createAgentToken(h.store, h.config.regions, { region: 'eu-west' }, new Date())).value;
  const p = await startAgentProcess({
    rpcUrl: h.cp.rpcUrl,
    token,
    region: 'eu-west',
    instance: 'eu-west-1',
    ready: /assignments synced/,
  });
  agents.push(p.child);
});
afterAll(async () => {
  for (const a of agents) a.kill('SIGTERM');
  await Promise.all(agents.map(exited));
  target.close();
  await h.close();
});

const monitor = (assertions: unknown) => ({
  display_name: 'Status API',
  monitor_type: 'api',
  url: `http://127.0.0.1:${targetPort}/status`,
  http_method: 'GET',
  expected_status_code: 200,
  check_interval_seconds: 2,
  timeout_seconds: 2,
  failure_threshold: 1,
  check_locations: ['eu-west'],
  assertions,
});

describe('assertions through the API', () => {
  it('refuses a bad list with one 422 naming every bad field, and writes nothing', async () => {
    const w = await h.workspace('assert-bad', 'e2e');
    const r = await w.api('POST', '/monitors/create', {
      json: monitor([
        { source: 'json_body', comparison: 'equals', target: 'ok' },
        { source: 'json_body', property: '$[?(@.x)]', comparison: 'not_empty' },
        { source: 'text_body', comparison: 'matches', target: '(unclosed' },
        { source: 'response_time', comparison: 'less_than', target: 'fast' },
        { source: 'status_code', comparison: 'is_empty', target: '200' },
        { source: 'cookies', comparison: 'equals', target: 'x' },
      ]),
    });
    expect(r.status, r.text).toBe(422);
    expect(r.body.error.details.map((d: { field: string }) => d.field)).toEqual([
      'assertions[0].property',
      'assertions[1].property',
      'assertions[2].target',
      'assertions[3].target',
      'assertions[4].target',
      'assertions[5].source',
    ]);
    const tooMany = await w.api('POST', '/monitors/create', {
      json: monitor(Array(21).fill({ source: 'status_code', comparison: 'equals', target: 200 })),
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.details).toEqual([
      { field: 'assertions', message: 'must have at most 20 items' },
    ]);
    expect((await w.api('GET', '/monitors')).body.data).toEqual([]);
  });

  it('keeps a good list as given, and an edit with a bad one changes nothing', async () => {
    const w = await h.workspace('assert-edit', 'e2e');
    const list = [
      { source: 'status_code', comparison: 'equals', target: 200 },
      { source: 'headers', property: 'X-Version', comparison: 'matches', target: '^2\\.' },
    ];
    const m = await w.api('POST', '/monitors/create', { json: { ...monitor(list), paused: true } });
    expect(m.status, m.text).toBe(201);
    expect(m.body.assertions).toEqual(list);
    // What the check verifies, the status code as the assertion it is first.
    expect(m.body.shown_assertions).toEqual([
      { source: 'status_code', comparison: 'equals', target: 200 },
      ...list,
    ]);
    const tcp = await w.api('POST', '/monitors/create', {
      json: { display_name: 'Port', monitor_type: 'tcp', url: '127.0.0.1', port: 22, paused: true },
    });
    expect(tcp.status, tcp.text).toBe(201);
    expect(tcp.body).not.toHaveProperty('shown_assertions');
    const bad = await w.api('PATCH', `/monitors/${m.body.id}`, {
      json: { assertions: [{ source: 'json_body', property: 'status', comparison: 'equals', target: 'ok' }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toBe('assertions[0].property');
    expect((await w.api('GET', `/monitors/${m.body.id}`)).body.assertions).toEqual(list);
  });
});

describe('assertions checked by a real agent', () => {
  it('fails naming the assertion and the value, alerts with it, and recovers', async () => {
    const w = await h.workspace('assert-agent', 'e2e');
    const created = await w.api('POST', '/monitors/create', {
      json: monitor([
        { source: 'headers', property: 'x-version', comparison: 'matches', target: '^2\\.' },
        { source: 'json_body', property: '$.status', comparison: 'equals', target: 'ok' },
        { source: 'json_body', property: '$.data[*].status', comparison: 'not_contains', target: 'down' },
      ]),
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    type Result = { ok: boolean; error_kind: string | null; error_message: string | null };
    const results = async () => (await w.api('GET', `/monitors/${id}/results?limit=5`)).body.data as Result[];
    const failed = await waitFor(results, (rs) => rs.some((r) => !r.ok), { what: 'a failed check' });
    expect(failed.find((r) => !r.ok)).toMatchObject({
      error_kind: 'assertion_failed',
      error_message: '$.status was "degraded", expected equals "ok"',
    });
    type AlertJson = { id: string; status: string; cause: string; description: string };
    const alerts = async () => (await w.api('GET', `/alerts?source_id=${id}`)).body.data as AlertJson[];
    const [open] = await waitFor(alerts, (as) => as.some((a) => a.status === 'open'), { what: 'an alert' });
    expect(open).toMatchObject({ cause: 'down' });
    expect(open!.description).toContain('$.status was "degraded", expected equals "ok"');

    status = 'ok';
    await waitFor(alerts, (as) => as.every((a) => a.status === 'resolved'), { what: 'recovery' });
    expect((await results())[0]).toMatchObject({ ok: true, error_kind: null });
  });
});
