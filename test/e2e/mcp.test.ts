import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNamedKey } from '../../control-plane/src/domain/access/api-keys.js';
import { raiseAlert } from '../../control-plane/src/domain/alerts/alerts.js';
import type { CheckResultRecord } from '../../control-plane/src/domain/types.js';
import { type Harness, startHarness } from '../support/harness.js';
import { CLI, ROOT, runCli } from '../support/processes.js';

/**
 * `npx lookout mcp` as an assistant runs it: the real process on stdio, driven by the SDK's own
 * client, against a real control plane. Every tool's effect is checked through the HTTP API.
 */

type Workspace = Awaited<ReturnType<Harness['workspace']>>;
let h: Harness;
let w: Workspace;
let other: Workspace;
let member: Awaited<ReturnType<Workspace['userWithKey']>>;
let home: string;
let url: string;
let mcp: Client;
const clients: Client[] = [];

const connect = async (env: Record<string, string>, args: string[] = []) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env: { HOME: home, ...env },
    cwd: ROOT,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'lookout-e2e', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
};

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
  const r = await client.callTool({ name, arguments: args });
  const content = r.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  const text = content[0]!.text;
  return { isError: r.isError === true, text };
};

// biome-ignore lint/suspicious/noExplicitAny: JSON from the API
const ok = async (name: string, args: Record<string, unknown> = {}, client = mcp): Promise<any> => {
  const r = await call(client, name, args);
  expect(r.isError, r.text).toBe(false);
  return JSON.parse(r.text);
};

const fails = async (name: string, args: Record<string, unknown> = {}, client = mcp) => {
  const r = await call(client, name, args);
  expect(r.isError, r.text).toBe(true);
  return r.text;
};

const raise = async (
  dedup: string,
  source_type: 'integration' | 'monitor' = 'integration',
  source_id = 'webhook',
) =>
  (
    await raiseAlert(
      h.store,
      {
        workspace_id: w.workspace.id,
        source_type,
        source_id,
        cause: 'test',
        dedup_key: dedup,
        title: `alert ${dedup}`,
      },
      h.clock.now(),
    )
  ).alert;

beforeAll(async () => {
  h = await startHarness();
  w = await h.workspace('acme');
  other = await h.workspace('globex');
  member = await w.userWithKey('member');
  home = mkdtempSync(join(tmpdir(), 'lookout-mcp-home-'));
  url = `http://acme.localhost:${h.cp.port}`;
  mcp = await connect({ SERVICE_API_KEY: member.key, SERVICE_API_URL: url });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await h.close();
  rmSync(home, { recursive: true, force: true });
});

describe('npx lookout mcp: tools', () => {
  it('lists every tool with a description, an input schema and hints', async () => {
    const { tools } = await mcp.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual(
      [
        'acknowledge_alerts',
        'count_monitors',
        'bulk_monitors',
        'create_monitor',
        'get_alert',
        'get_dependency_timeline',
        'get_monitor',
        'get_monitor_results',
        'get_monitor_uptime',
        'get_region_health',
        'get_script_run',
        'list_alerts',
        'list_groups',
        'list_heartbeats',
        'list_maintenance_windows',
        'list_monitors',
        'list_status_pages',
        'create_maintenance_window',
        'pause_monitor',
        'post_incident_update',
        'report_incident',
        'resolve_alerts',
        'resume_monitor',
        'set_dependencies',
        'who_is_on_call',
        'list_my_shifts',
        'list_secrets',
        'list_audit_log',
        'get_sla_report',
      ].sort(),
    );
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(40);
      expect(t.inputSchema.type).toBe('object');
      expect(typeof t.annotations?.readOnlyHint, t.name).toBe('boolean');
      expect(typeof t.annotations?.destructiveHint, t.name).toBe('boolean');
      expect(typeof t.annotations?.idempotentHint, t.name).toBe('boolean');
    }
    const readOnly = tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name);
    expect(readOnly.sort()).toEqual(
      [
        'count_monitors',
        'get_alert',
        'get_dependency_timeline',
        'get_monitor',
        'get_monitor_results',
        'get_monitor_uptime',
        'get_region_health',
        'get_script_run',
        'list_alerts',
        'list_groups',
        'list_heartbeats',
        'list_maintenance_windows',
        'list_monitors',
        'list_status_pages',
        'who_is_on_call',
        'list_my_shifts',
        'list_secrets',
        'list_audit_log',
        'get_sla_report',
      ].sort(),
    );
    const destructive = tools.filter((t) => t.annotations?.destructiveHint).map((t) => t.name);
    expect(destructive.sort()).toEqual(['bulk_monitors', 'pause_monitor', 'resolve_alerts']);
    expect(byName.get('create_monitor')!.annotations?.idempotentHint).toBe(false);
    expect(byName.get('get_alert')!.inputSchema.required).toEqual(['alert_id']);
    expect(Object.keys(byName.get('list_alerts')!.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['status', 'source_type', 'source_id', 'since', 'until', 'cursor', 'limit']),
    );
  });

  it('list_alerts filters as the API does; get_alert returns the API’s record', async () => {
    const a = await raise('list-a');
    const b = await raise('list-b', 'monitor', '2b6f0a4e-0000-4000-8000-000000000001');
    h.clock.advance(60_000);
    const c = await raise('list-c');
    await w.api('POST', '/alerts/resolve', { json: { UUIDs: [c.id] } });

    const all = await ok('list_alerts');
    const api = await w.api('GET', '/alerts');
    expect(all).toEqual(api.body);
    expect(all.data.map((x: { id: string }) => x.id)).toEqual(expect.arrayContaining([a.id, b.id, c.id]));

    const open = await ok('list_alerts', { status: ['open'], source_type: 'integration' });
    const ids = open.data.map((x: { id: string }) => x.id);
    expect(ids).toContain(a.id);
    expect(ids).not.toContain(b.id);
    expect(ids).not.toContain(c.id);
    expect(open).toEqual((await w.api('GET', '/alerts?status=open&source_type=integration')).body);
    // The status as the REST API takes it, one word or a comma-separated list, works too.
    expect(await ok('list_alerts', { status: 'open', source_type: 'integration' })).toEqual(open);
    expect(await ok('list_alerts', { status: 'open,resolved' })).toEqual(
      (await w.api('GET', '/alerts?status=open,resolved')).body,
    );
    // A word the API does not know is the API's own message, naming the field.
    expect(await fails('list_alerts', { status: 'closed' })).toMatch(/status/);

    const bySource = await ok('list_alerts', { source_type: 'monitor', source_id: b.source_id });
    expect(bySource.data.map((x: { id: string }) => x.id)).toEqual([b.id]);

    const since = await ok('list_alerts', { since: h.clock.now().toISOString() });
    expect(since.data.map((x: { id: string }) => x.id)).toEqual([c.id]);

    const first = await ok('list_alerts', { limit: 1 });
    expect(first.data).toHaveLength(1);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await ok('list_alerts', { limit: 1, cursor: first.next_cursor });
    expect(second.data[0].id).not.toBe(first.data[0].id);

    expect(await ok('get_alert', { alert_id: a.id })).toEqual((await w.api('GET', `/alerts/${a.id}`)).body);
    expect(await fails('get_alert', { alert_id: crypto.randomUUID() })).toContain('Alert not found.');
  });

  it('report_incident and post_incident_update post what the status page then shows, as the key’s user', async () => {
    const page = (
      await w.api('POST', '/status-pages', {
        json: { name: 'Acme', slug: 'mcp', components: [{ name: 'API' }] },
      })
    ).body;
    const listed = await ok('list_status_pages');
    expect(listed).toEqual((await w.api('GET', '/status-pages')).body);
    const component = page.components[0].id;
    const incident = await ok('report_incident', {
      status_page_id: page.id,
      title: 'API errors',
      message: 'We are looking into errors on the API.',
      components: { [component]: 'partial_outage' },
    });
    expect(incident).toMatchObject({ title: 'API errors', status: 'investigating', published: true });
    expect(incident.updates[0].created_by).toBe(member.user.id);
    const updated = await ok('post_incident_update', {
      status_page_id: page.id,
      incident_id: incident.id,
      status: 'resolved',
      message: 'Fixed.',
    });
    expect(updated.updates.map((u: { status: string }) => u.status)).toEqual(['investigating', 'resolved']);
    expect(updated).toEqual((await w.api('GET', `/status-pages/${page.id}/incidents/${incident.id}`)).body);
    // The API's own message names the bad field.
    expect(
      await fails('report_incident', {
        status_page_id: page.id,
        title: 'x',
        message: 'y',
        components: { [component]: 'on fire' },
      }),
    ).toMatch(/components/);
  });

  it('acknowledge_alerts acknowledges as the key’s user', async () => {
    const a = await raise('ack-a');
    const r = await ok('acknowledge_alerts', { alert_ids: [a.id] });
    expect(r.acknowledged.map((x: { id: string }) => x.id)).toEqual([a.id]);
    const after = (await w.api('GET', `/alerts/${a.id}`)).body;
    expect(after.status).toBe('acknowledged');
    expect(after.acknowledged_by).toMatchObject({ user_id: member.user.id, api_key_id: member.keyId });
    const unknown = crypto.randomUUID();
    const again = await ok('acknowledge_alerts', { alert_ids: [a.id, unknown] });
    expect(again.acknowledged).toEqual([]);
    expect(again.already_acknowledged.map((x: { id: string }) => x.id)).toEqual([a.id]);
    expect(again.not_found).toEqual([unknown]);
  });

  it('resolve_alerts resolves as the key’s user and reports every UUID', async () => {
    const a = await raise('resolve-a');
    const unknown = crypto.randomUUID();
    const r = await ok('resolve_alerts', { alert_ids: [a.id, unknown] });
    expect(r.resolved.map((x: { id: string }) => x.id)).toEqual([a.id]);
    expect(r.not_found).toEqual([unknown]);
    const after = (await w.api('GET', `/alerts/${a.id}`)).body;
    expect(after).toMatchObject({
      status: 'resolved',
      resolved_by: { type: 'user', user_id: member.user.id, api_key_id: member.keyId },
    });
    expect((await ok('resolve_alerts', { alert_ids: [a.id] })).already_resolved).toHaveLength(1);
  });

  it('create_monitor creates what the API then shows; list and get monitors; pause and resume', async () => {
    const created = await ok('create_monitor', {
      display_name: 'Checkout API',
      monitor_type: 'http',
      url: 'https://checkout.example.com/health',
      http_method: 'GET',
      expected_status_code: 200,
      check_interval_seconds: 5,
      check_locations: ['eu-west'],
    });
    expect(created.warnings).toEqual([expect.objectContaining({ field: 'check_interval_seconds' })]);
    const stored = (await w.api('GET', `/monitors/${created.id}`)).body;
    expect(stored).toMatchObject({
      id: created.id,
      display_name: 'Checkout API',
      url: 'https://checkout.example.com/health',
      check_interval_seconds: h.config.plans.team!.min_interval_seconds,
      check_locations: ['eu-west'],
      paused: false,
    });
    expect(await ok('get_monitor', { monitor_id: created.id })).toEqual(stored);

    await ok('create_monitor', {
      display_name: 'DB port',
      monitor_type: 'tcp',
      url: 'db.internal',
      port: 5432,
    });
    const listed = await ok('list_monitors', { search: 'checkout' });
    expect(listed.data.map((m: { id: string }) => m.id)).toEqual([created.id]);
    expect(await ok('list_monitors')).toEqual((await w.api('GET', '/monitors')).body);
    expect(await ok('list_monitors', { sort: 'name', limit: 1 })).toEqual(
      (await w.api('GET', '/monitors?sort=name&limit=1')).body,
    );
    expect(await ok('count_monitors', { status: ['pending'] })).toEqual(
      (await w.api('GET', '/monitors/counts?status=pending')).body,
    );
    const tcp = await ok('list_monitors', { monitor_type: 'tcp' });
    expect(tcp.data.map((m: { display_name: string }) => m.display_name)).toEqual(['DB port']);

    const paused = await ok('pause_monitor', { monitor_id: created.id });
    expect(paused.paused).toBe(true);
    expect((await w.api('GET', `/monitors/${created.id}`)).body.paused).toBe(true);
    expect((await ok('list_monitors', { paused: true })).data.map((m: { id: string }) => m.id)).toEqual([
      created.id,
    ]);
    await ok('resume_monitor', { monitor_id: created.id });
    expect((await w.api('GET', `/monitors/${created.id}`)).body.paused).toBe(false);

    // Dependencies: set, read back, a cycle refused with its path, the timeline readable.
    const db = (await w.api('GET', '/monitors?q=DB')).body.data[0];
    const set = await ok('set_dependencies', { source_type: 'monitor', id: created.id, depends_on: [db.id] });
    expect(set.depends_on).toEqual([db.id]);
    expect(
      await fails('set_dependencies', { source_type: 'monitor', id: db.id, depends_on: [created.id] }),
    ).toContain('would make a cycle');
    expect((await ok('get_dependency_timeline', { source_type: 'monitor', id: created.id })).data).toEqual(
      [],
    );
    expect(await fails('pause_monitor', { monitor_id: crypto.randomUUID() })).toContain('Monitor not found.');

    // Many at once: by ids, by the list's filters; an unknown id is named and changes nothing.
    expect(
      await ok('bulk_monitors', { action: 'pause', filter: { monitor_type: 'tcp', paused: false } }),
    ).toEqual({
      affected: 1,
    });
    expect(
      (await ok('list_monitors', { paused: true })).data.map((m: { display_name: string }) => m.display_name),
    ).toEqual(['DB port']);
    const ghost = crypto.randomUUID();
    expect(await fails('bulk_monitors', { action: 'pause', ids: [created.id, ghost] })).toContain('ids[1]');
    expect((await w.api('GET', `/monitors/${created.id}`)).body.paused).toBe(false);
    expect(await ok('bulk_monitors', { action: 'resume', filter: { status: ['paused'] } })).toEqual({
      affected: 1,
    });
    expect(await ok('bulk_monitors', { action: 'add_tags', ids: [created.id], tags: ['env:prod'] })).toEqual({
      affected: 1,
    });
    expect((await w.api('GET', `/monitors/${created.id}`)).body.tags).toEqual(['env:prod']);
  });

  it('get_monitor_results and get_monitor_uptime return the monitor’s recent checks', async () => {
    const m = (
      await w.api('POST', '/monitors/create', {
        json: {
          display_name: 'Status page',
          monitor_type: 'http',
          url: 'https://status.example.com',
          http_method: 'GET',
          expected_status_code: 200,
          check_locations: ['eu-west', 'us-east'],
        },
      })
    ).body;
    const now = h.clock.now().getTime();
    const result = (i: number, location: string, ok: boolean): CheckResultRecord => ({
      id: `${m.id}:${location}:${now - i * 60_000}`,
      workspace_id: w.workspace.id,
      monitor_id: m.id,
      monitor_version: 1,
      location,
      instance_id: `agent-${location}`,
      scheduled_at: new Date(now - i * 60_000),
      started_at: new Date(now - i * 60_000),
      received_at: new Date(now - i * 60_000 + 500),
      ok,
      error_kind: ok ? null : 'http_status',
      error_message: ok ? null : 'expected 200, got 503',
      response_time_ms: 120,
      status_code: ok ? 200 : 503,
      timings: null,
      tls_valid_to: null,
      domain_expires_at: null,
      dns_records: [],
      run_now_request_id: null,
    });
    await h.store.recordResults(
      [
        result(1, 'eu-west', false),
        result(2, 'eu-west', true),
        result(3, 'eu-west', true),
        result(1, 'us-east', true),
      ],
      () => null,
    );

    const results = await ok('get_monitor_results', { monitor_id: m.id });
    expect(results).toEqual((await w.api('GET', `/monitors/${m.id}/results`)).body);
    expect(results.data).toHaveLength(4);
    const eu = await ok('get_monitor_results', { monitor_id: m.id, location: 'eu-west', limit: 1 });
    expect(eu.data).toEqual([expect.objectContaining({ location: 'eu-west', ok: false, status_code: 503 })]);

    const uptime = await ok('get_monitor_uptime', { monitor_id: m.id });
    expect(uptime).toMatchObject({
      monitor_id: m.id,
      total_checks: 4,
      successful_checks: 3,
      uptime_percentage: 75,
    });
    expect(uptime).toEqual((await w.api('GET', `/monitors/${m.id}/uptime`)).body);
    const since = new Date(now - 90_000).toISOString();
    const window = await ok('get_monitor_uptime', { monitor_id: m.id, since });
    expect(window).toMatchObject({ total_checks: 2, successful_checks: 1, uptime_percentage: 50 });
  });

  it('get_script_run gives a scripted run’s steps, failed step and findings, with the screenshot’s API path', async () => {
    const m = (
      await w.api('POST', '/monitors/create', {
        json: {
          display_name: 'Checkout',
          monitor_type: 'browser',
          url: 'https://shop.example.com',
          script: "await page.goto(url);\nawait page.getByRole('button', { name: 'Pay' }).click();",
          check_locations: ['eu-west'],
        },
      })
    ).body;
    const now = h.clock.now().getTime();
    const run = (i: number, failed: boolean) => ({
      result_id: `${m.id}:eu-west:${now - i * 60_000}`,
      workspace_id: w.workspace.id,
      monitor_id: m.id,
      location: 'eu-west',
      started_at: new Date(now - i * 60_000),
      ok: !failed,
      steps: [
        { name: 'Open', ok: true, duration_ms: 300, error: null, status_code: null },
        {
          name: 'Pay',
          ok: !failed,
          duration_ms: 900,
          error: failed ? 'button not found' : null,
          status_code: null,
        },
      ],
      failed_step: failed ? 2 : null,
      error_line: failed ? 2 : null,
      web_vitals: { ttfb_ms: 40, lcp_ms: 700, cls: 0 },
      console_errors: failed ? ['TypeError: pay is not a function'] : [],
      failed_requests: [],
      screenshot: failed ? { content_type: 'image/png' as const, size: 9 } : null,
    });
    const failed = run(2, true);
    await h.store.addScriptRuns(
      [failed, run(1, false)],
      [
        {
          result_id: failed.result_id,
          workspace_id: w.workspace.id,
          monitor_id: m.id,
          taken_at: failed.started_at,
          content_type: 'image/png',
          data: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]),
        },
      ],
    );
    const one = await ok('get_script_run', { monitor_id: m.id, result_id: failed.result_id });
    expect(one).toEqual(
      (await w.api('GET', `/monitors/${m.id}/results/${encodeURIComponent(failed.result_id)}/script`)).body,
    );
    expect(one).toMatchObject({
      failed_step: 2,
      error_line: 2,
      steps: [{ name: 'Open' }, { name: 'Pay', error: 'button not found' }],
      console_errors: ['TypeError: pay is not a function'],
      screenshot: {
        content_type: 'image/png',
        url: `/api/v1/monitors/${m.id}/results/${encodeURIComponent(failed.result_id)}/screenshot`,
      },
    });
    // Without a result: the newest run (it passed).
    expect(await ok('get_script_run', { monitor_id: m.id })).toMatchObject({ ok: true, failed_step: null });
    // Another workspace's monitor, or a result without a run: the API's 404, said as it is.
    expect(await fails('get_script_run', { monitor_id: m.id, result_id: 'nope' })).toMatch(/404|not found/i);
    const theirs = await fails(
      'get_script_run',
      { monitor_id: m.id },
      await connect({
        SERVICE_API_KEY: other.adminKey,
        SERVICE_API_URL: `http://globex.localhost:${h.cp.port}`,
      }),
    );
    expect(theirs).toMatch(/404|not found/i);
  });

  it('create_maintenance_window plans a recurring window; list_maintenance_windows shows its next occurrence', async () => {
    // A member may not plan one; an admin's key may.
    expect(await fails('create_maintenance_window', { name: 'x', scope_type: 'workspace' })).toContain(
      'admin',
    );
    const admin = await connect({ SERVICE_API_KEY: w.adminKey, SERVICE_API_URL: url });
    const bad = await fails(
      'create_maintenance_window',
      {
        name: 'nightly',
        scope_type: 'workspace',
        schedule: 'nightly',
        timezone: 'Mars/Base',
      },
      admin,
    );
    for (const field of ['schedule', 'timezone', 'duration_seconds']) expect(bad).toContain(field);
    const created = await ok(
      'create_maintenance_window',
      {
        name: 'nightly',
        scope_type: 'tag',
        scope_id: 'env:prod',
        schedule: '0 2 * * *',
        timezone: 'Europe/Berlin',
        duration_seconds: 3600,
      },
      admin,
    );
    expect(created).toMatchObject({
      schedule: '0 2 * * *',
      next_occurrence: { starts_at: expect.any(String) },
    });
    const listed = await ok('list_maintenance_windows');
    expect(listed.data.map((x: { id: string }) => x.id)).toContain(created.id);
  });

  it('groups and tags: create_monitor takes them, list_groups finds the group, the lists filter by tag and group', async () => {
    const group = (await w.api('POST', '/groups', { json: { name: 'MCP rack' } })).body;
    expect((await ok('list_groups', { search: 'mcp RACK' })).data).toEqual([group]);
    const made = await ok('create_monitor', {
      display_name: 'tagged by mcp',
      monitor_type: 'tcp',
      url: 'db.example.com',
      port: 5432,
      group_id: group.id,
      tags: ['env:prod', 'db'],
      severity: 'warning',
    });
    expect(made).toMatchObject({ group_id: group.id, tags: ['env:prod', 'db'], severity: 'warning' });
    const refused = await fails('create_monitor', {
      display_name: 'bad tags',
      monitor_type: 'tcp',
      url: 'db.example.com',
      port: 5432,
      tags: ['Env:Prod'],
    });
    expect(refused).toContain('tags[0]');
    const hb = (
      await w.api('POST', '/heartbeats', {
        json: { display_name: 'mcp job', tags: ['db'], group_id: group.id },
      })
    ).body;
    expect((await ok('list_heartbeats', { tag: 'db' })).data.map((x: { id: string }) => x.id)).toEqual([
      hb.id,
    ]);
    expect(
      (await ok('list_heartbeats', { group_id: group.id })).data.map((x: { id: string }) => x.id),
    ).toEqual([hb.id]);
  });

  it('list_heartbeats shows each heartbeat with its state', async () => {
    const pinged = (await w.api('POST', '/heartbeats', { json: { display_name: 'nightly backup' } })).body;
    const silent = (await w.api('POST', '/heartbeats', { json: { display_name: 'report job' } })).body;
    expect((await h.request('POST', `/hb/ping/${pinged.id}`)).status).toBe(200);
    const listed = await ok('list_heartbeats');
    // The ping URL is built from configuration (the service domain and the port listened on).
    const withoutUrl = ({ data }: { data: { ping_url: string }[] }) =>
      data.map(({ ping_url: _u, ...rest }) => rest);
    expect(withoutUrl(listed)).toEqual(withoutUrl((await w.api('GET', '/heartbeats')).body));
    expect(listed.data.find((x: { id: string }) => x.id === pinged.id).ping_url).toBe(
      `${url}/hb/ping/${pinged.id}`,
    );
    const state = new Map(listed.data.map((x: { id: string; state: string }) => [x.id, x.state]));
    expect(state.get(pinged.id)).toBe('up');
    expect(state.get(silent.id)).toBe('new');
  });

  it('get_region_health is GET /regions (no agent identities); a viewer’s key gets monitors with secrets masked', async () => {
    const created = (
      await w.api('POST', '/monitors/create', {
        json: {
          display_name: 'with secrets',
          monitor_type: 'api',
          url: 'https://api.example.com/health',
          http_method: 'POST',
          expected_status_code: 200,
          check_locations: ['us-east'],
          request_headers: { Authorization: 'Bearer mcp-s3cret' },
          request_body: 'mcp-body-s3cret',
        },
      })
    ).body;
    const regions = await ok('get_region_health');
    expect(regions).toEqual((await w.api('GET', '/regions')).body);
    expect(regions.data.map((r: { region: string }) => r.region)).toContain('us-east');

    const viewer = await w.userWithKey('viewer');
    const asViewer = await connect({ SERVICE_API_KEY: viewer.key, SERVICE_API_URL: url });
    const got = await ok('get_monitor', { monitor_id: created.id }, asViewer);
    expect(got).toMatchObject({ request_headers: { Authorization: '********' }, request_body: '********' });
    const listed = await call(asViewer, 'list_monitors', {});
    expect(listed.text).not.toContain('s3cret');
  });

  it('the triage prompt carries the unresolved alerts and how to work through them', async () => {
    const { prompts } = await mcp.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('triage_open_alerts');
    const open = await raise('triage-open');
    const gone = await raise('triage-gone');
    await w.api('POST', '/alerts/resolve', { json: { UUIDs: [gone.id] } });
    const p = await mcp.getPrompt({ name: 'triage_open_alerts', arguments: { focus: 'checkout' } });
    const text = (p.messages[0]!.content as { text: string }).text;
    expect(text).toContain(open.id);
    expect(text).toContain('alert triage-open');
    expect(text).not.toContain(gone.id);
    expect(text).toContain('Look first at: checkout');
    expect(text).toContain('get_monitor_results');
  });
});

describe('npx lookout mcp: errors', () => {
  it("create_monitor takes every check type's own fields, described from the API's own schema", async () => {
    const { tools } = await mcp.listTools();
    const input = tools.find((t) => t.name === 'create_monitor')!.inputSchema.properties as Record<
      string,
      { description?: string }
    >;
    expect(input.packet_count?.description).toContain('Only for ping monitors.');
    expect(input.grpc_service?.description).toContain('Only for grpc monitors.');
    expect(input.smtp_security?.description).toContain('One of: none, starttls, tls.');
    expect(input.assertions?.description).toContain('json_body');
    const grpc = await ok('create_monitor', {
      display_name: 'Cart health (MCP)',
      monitor_type: 'grpc',
      url: 'grpc.example.com:443',
      grpc_service: 'shop.Cart',
      grpc_tls: true,
      assertions: [{ source: 'response_time', comparison: 'less_than', target: 800 }],
    });
    expect((await w.api('GET', `/monitors/${grpc.id}`)).body).toMatchObject({
      monitor_type: 'grpc',
      grpc_service: 'shop.Cart',
      grpc_tls: true,
      assertions: [{ source: 'response_time', comparison: 'less_than', target: 800 }],
    });
    const text = await fails('create_monitor', {
      display_name: 'Bad ping',
      monitor_type: 'ping',
      url: 'db.example.com',
      packet_count: 99,
      assertions: [{ source: 'packet_loss', comparison: 'less_than', target: 'some' }],
    });
    expect(text).toContain('- packet_count:');
    expect(text).toContain('- assertions[0].target:');
  });

  it('create_monitor passes the API’s validation errors on, field by field', async () => {
    const shapes = {
      display_name: 'Broken',
      monitor_type: 'http',
      url: 'https://x.example',
      timeout_seconds: 90,
      expected_status_code: 42,
      prot: 443,
    };
    const rules = { display_name: 'Broken', monitor_type: 'http', url: 'not a url' };
    for (const [body, fields] of [
      [shapes, ['timeout_seconds', 'expected_status_code', 'prot']],
      [rules, ['url', 'http_method', 'expected_status_code']],
    ] as const) {
      const api = await w.api('POST', '/monitors/create', { json: body });
      expect(api.status).toBe(422);
      expect(api.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
        [...fields].sort(),
      );
      const text = await fails('create_monitor', body);
      expect(text).toContain(api.body.error.message);
      expect(text).toContain('HTTP 422');
      for (const d of api.body.error.details) expect(text).toContain(`- ${d.field}: ${d.message}`);
    }
    expect((await w.api('GET', '/monitors?search=Broken')).body.data).toEqual([]);
  });

  it('a role that may not act gets the API’s 403 message', async () => {
    const viewer = await w.userWithKey('viewer');
    const client = await connect({ SERVICE_API_KEY: viewer.key, SERVICE_API_URL: url });
    const a = await raise('viewer-tries');
    const text = await fails('resolve_alerts', { alert_ids: [a.id] }, client);
    expect(text).toContain('HTTP 403');
    expect((await w.api('GET', `/alerts/${a.id}`)).body.status).toBe('open');
  });

  it('an expired key reaches the assistant as the API’s 401 message', async () => {
    const twoDaysAgo = new Date(h.clock.now().getTime() - 2 * 86_400_000);
    const expired = await createNamedKey(
      h.store,
      w.workspace,
      member.user,
      { name: 'old laptop', expiry: '1d' },
      twoDaysAgo,
    );
    const client = await connect({ SERVICE_API_KEY: expired.value, SERVICE_API_URL: url });
    const text = await fails('list_alerts', {}, client);
    expect(text).toContain('API key has expired');
    expect(text).toContain('HTTP 401');
    expect(text).toContain('SERVICE_API_KEY');
  });

  it('a key of another workspace is refused with the API’s message', async () => {
    const client = await connect({ SERVICE_API_KEY: other.adminKey, SERVICE_API_URL: url });
    expect(await fails('list_monitors', {}, client)).toContain('API Key is not valid for this subdomain');
    await expect(client.getPrompt({ name: 'triage_open_alerts', arguments: {} })).rejects.toThrow(
      'API Key is not valid for this subdomain',
    );
  });

  it('a revoked key is refused with the API’s message', async () => {
    const k = await w.userWithKey('member');
    const client = await connect({ SERVICE_API_KEY: k.key, SERVICE_API_URL: url });
    await ok('list_monitors', {}, client);
    expect((await w.api('POST', `/api-keys/${k.keyId}/revoke`)).status).toBe(200);
    expect(await fails('list_monitors', {}, client)).toContain('API key has been revoked.');
  });

  it('without a key or an address it does not start, and says what to set', async () => {
    const noKey = await runCli(['mcp'], { HOME: home, SERVICE_API_URL: url });
    expect(noKey.code).not.toBe(0);
    expect(noKey.stdout).toBe('');
    expect(noKey.stderr).toContain('set SERVICE_API_KEY');
    expect(noKey.stderr).toContain(`"api_key" in ${join(home, '.config', 'lookout', 'mcp.json')}`);
    expect(noKey.stderr).not.toContain('SERVICE_API_URL');

    const noUrl = await runCli(['mcp'], { HOME: home, SERVICE_API_KEY: member.key });
    expect(noUrl.code).not.toBe(0);
    expect(noUrl.stdout).toBe('');
    expect(noUrl.stderr).toContain('set SERVICE_API_URL');
    expect(noUrl.stderr).not.toContain('SERVICE_API_KEY');

    const badUrl = await runCli(['mcp'], {
      HOME: home,
      SERVICE_API_KEY: member.key,
      SERVICE_API_URL: 'acme',
    });
    expect(badUrl.code).not.toBe(0);
    expect(badUrl.stderr).toContain('SERVICE_API_URL "acme" is not');

    const missingFile = await runCli(['mcp', '--config', join(home, 'nope.json')], {
      HOME: home,
      SERVICE_API_URL: url,
    });
    expect(missingFile.code).not.toBe(0);
    expect(missingFile.stderr).toContain(join(home, 'nope.json'));
  });

  it('reads api_key (and api_url) from the config file: the default path or --config', async () => {
    const dir = join(home, '.config', 'lookout');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ api_key: member.key, api_url: url }));
    try {
      const fromDefault = await connect({});
      expect(await ok('list_monitors', {}, fromDefault)).toEqual((await w.api('GET', '/monitors')).body);
    } finally {
      rmSync(join(dir, 'mcp.json'));
    }
    const custom = join(home, 'globex.json');
    writeFileSync(custom, JSON.stringify({ api_key: other.adminKey }));
    const otherWs = await connect({ SERVICE_API_URL: `http://globex.localhost:${h.cp.port}` }, [
      '--config',
      custom,
    ]);
    const created = await ok(
      'create_monitor',
      { display_name: 'Globex home', monitor_type: 'dns', url: 'globex.example.com' },
      otherWs,
    );
    expect((await other.api('GET', `/monitors/${created.id}`)).body.display_name).toBe('Globex home');
    expect((await w.api('GET', `/monitors/${created.id}`)).status).toBe(404);
  });
});
