import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { CLI, ROOT } from '../support/processes.js';

/**
 * `npx lookout mcp` and scripted checks: list_secrets (names, hints and users; never a value) and
 * create_monitor with a multi-step check's steps, through the real process on stdio and a real
 * control plane; each effect checked through the HTTP API.
 */

type Workspace = Awaited<ReturnType<Harness['workspace']>>;
let h: Harness;
let w: Workspace;
let home: string;
let mcp: Client;

const VALUE = 'tok_live_never_shown_77e1';

beforeAll(async () => {
  h = await startHarness();
  w = await h.workspace('mcp-secrets', 'business');
  const member = await w.userWithKey('member');
  home = mkdtempSync(join(tmpdir(), 'lookout-mcp-home-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    env: { HOME: home, SERVICE_API_KEY: member.key, SERVICE_API_URL: `http://${w.host}:${h.cp.port}` },
    cwd: ROOT,
    stderr: 'pipe',
  });
  mcp = new Client({ name: 'lookout-e2e', version: '1.0.0' });
  await mcp.connect(transport);
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  await h.close();
  rmSync(home, { recursive: true, force: true });
});

const call = async (name: string, args: Record<string, unknown> = {}) => {
  const r = await mcp.callTool({ name, arguments: args });
  const text = (r.content as { text: string }[])[0]!.text;
  return { isError: r.isError === true, text };
};

const steps = (secret: string) => [
  { name: 'Sign in', method: 'POST', url: '{{url}}/login', body: `{"key":"{{secrets.${secret}}}"}` },
  { name: 'Orders', method: 'GET', url: '{{url}}/orders', headers: { Accept: 'application/json' } },
];

describe('MCP and scripted checks', () => {
  it('create_monitor makes a multi-step check with its steps; a step naming a secret not set is refused on its field', async () => {
    const refused = await call('create_monitor', {
      display_name: 'Shop journey',
      monitor_type: 'multistep',
      url: 'https://shop.example.com',
      steps: steps('SHOP_KEY'),
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('steps[0].body');
    expect(refused.text).toContain('names secret SHOP_KEY, which is not set in this workspace');

    expect((await w.api('PUT', '/secrets/SHOP_KEY', { json: { value: VALUE } })).status).toBe(201);
    const made = await call('create_monitor', {
      display_name: 'Shop journey',
      monitor_type: 'multistep',
      url: 'https://shop.example.com',
      steps: steps('SHOP_KEY'),
    });
    expect(made.isError, made.text).toBe(false);
    const id = JSON.parse(made.text).id as string;
    const got = await w.api('GET', `/monitors/${id}`);
    expect(got.body.monitor_type).toBe('multistep');
    expect(got.body.steps.map((s: { name: string }) => s.name)).toEqual(['Sign in', 'Orders']);
    expect(made.text).not.toContain(VALUE);
  });

  it('list_secrets gives names, hints and the monitors using each, never a value', async () => {
    const r = await call('list_secrets');
    expect(r.isError, r.text).toBe(false);
    const data = JSON.parse(r.text).data;
    expect(data).toEqual([
      expect.objectContaining({
        name: 'SHOP_KEY',
        hint: '77e1',
        used_by: [expect.objectContaining({ display_name: 'Shop journey' })],
      }),
    ]);
    expect(r.text).not.toContain(VALUE);
    expect(r.text).not.toContain('sealed');
  });
});
