import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../control-plane/src/domain/audit/audit-store.js';
import { type Harness, startHarness } from '../support/harness.js';
import { CLI, ROOT } from '../support/processes.js';

/**
 * `npx lookout mcp`: list_audit_log through the real process on stdio and a real control plane. An
 * admin's key reads the workspace's entries with the API's filters and paging (never another
 * workspace's); a member's key is refused in words, as the API refuses it.
 */

type Workspace = Awaited<ReturnType<Harness['workspace']>>;
let h: Harness;
let w: Workspace;
let other: Workspace;
let home: string;
const clients: Client[] = [];

const entry = (workspaceId: string, iso: string, over: Partial<AuditEntry> = {}): AuditEntry => ({
  id: randomUUID(),
  workspace_id: workspaceId,
  at: new Date(iso),
  actor: { type: 'user', id: 'u-1', name: 'ada@mcp-audit.test' },
  ip: '203.0.113.7',
  user_agent: 'test',
  action: 'monitor.update',
  resource_type: 'monitor',
  resource_id: randomUUID(),
  changes: { display_name: ['Shop', 'Shop (EU)'], auth: ['[redacted]', '[redacted]'] },
  ...over,
});

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
  w = await h.workspace('mcp-audit', 'business');
  other = await h.workspace('mcp-audit-other', 'business');
  home = mkdtempSync(join(tmpdir(), 'lookout-mcp-home-'));
  for (let i = 0; i < 3; i++)
    await h.store.appendAuditEntry(entry(w.workspace.id, `2026-05-0${i + 1}T10:00:00Z`));
  await h.store.appendAuditEntry(
    entry(w.workspace.id, '2026-05-04T10:00:00Z', {
      actor: { type: 'api_key', id: 'key-9', name: 'ci-deploy' },
      action: 'channel.delete',
      resource_type: 'channel',
      changes: null,
    }),
  );
  await h.store.appendAuditEntry(
    entry(other.workspace.id, '2026-05-05T10:00:00Z', {
      actor: { type: 'user', id: 'u-x', name: 'eve@other.test' },
    }),
  );
}, 60_000);
afterAll(async () => {
  for (const c of clients) await c.close();
  await h.close();
  rmSync(home, { recursive: true, force: true });
});

describe('MCP: list_audit_log', () => {
  it("gives an admin the workspace's entries, newest first, filtered and paged as the API does", async () => {
    const call = await connect(w.adminKey);
    const all = await call('list_audit_log');
    expect(all.isError, all.text).toBe(false);
    const data = JSON.parse(all.text).data as { action: string; actor: { name: string } }[];
    // Only this workspace's seeded entries (and none of the other's), newest first.
    expect(data.map((e) => e.actor.name)).not.toContain('eve@other.test');
    const seeded = data.filter((e) => ['ada@mcp-audit.test', 'ci-deploy'].includes(e.actor.name));
    expect(seeded.map((e) => e.action)).toEqual([
      'channel.delete',
      'monitor.update',
      'monitor.update',
      'monitor.update',
    ]);

    const byKey = JSON.parse((await call('list_audit_log', { actor: 'ci-deploy' })).text).data;
    expect(byKey).toEqual([
      expect.objectContaining({
        action: 'channel.delete',
        actor: { type: 'api_key', id: 'key-9', name: 'ci-deploy' },
      }),
    ]);
    const window = await call('list_audit_log', {
      resource_type: 'monitor',
      from: '2026-05-02T00:00:00Z',
      to: '2026-05-04T00:00:00Z',
    });
    const inWindow = JSON.parse(window.text).data;
    expect(inWindow.map((e: { at: string }) => e.at)).toEqual([
      '2026-05-03T10:00:00.000Z',
      '2026-05-02T10:00:00.000Z',
    ]);
    expect(inWindow[0].changes).toEqual({
      display_name: ['Shop', 'Shop (EU)'],
      auth: ['[redacted]', '[redacted]'],
    });

    const first = JSON.parse((await call('list_audit_log', { resource_type: 'monitor', limit: 2 })).text);
    expect(first.data).toHaveLength(2);
    const second = JSON.parse(
      (await call('list_audit_log', { resource_type: 'monitor', limit: 2, cursor: first.next_cursor })).text,
    );
    expect(second.data[0].at).toBe('2026-05-01T10:00:00.000Z');
  });

  it("passes the API's field errors on, each bad filter named", async () => {
    const call = await connect(w.adminKey);
    const r = await call('list_audit_log', { action: 'Not An Action', from: 'yesterday' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('HTTP 422');
    expect(r.text).toContain('- action:');
    expect(r.text).toContain('- from:');
  });

  it('refuses a member in words: the audit log is for admins', async () => {
    const member = await w.userWithKey('member');
    const call = await connect(member.key);
    const r = await call('list_audit_log');
    expect(r.isError).toBe(true);
    expect(r.text).toContain('HTTP 403');
    expect(r.text).not.toContain('ada@mcp-audit.test');
  });
});
