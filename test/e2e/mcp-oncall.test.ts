import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { CLI, ROOT } from '../support/processes.js';

/**
 * The on-call tools of `npx lookout mcp` (who_is_on_call, list_my_shifts) as an assistant calls them:
 * the real process on stdio, the SDK's client, a real control plane whose clock the test holds
 * (Monday 1 June 2026, 12:00 UTC). The answers are sentences; every fact in them is checked against
 * the HTTP API's own answer.
 */

type Workspace = Awaited<ReturnType<Harness['workspace']>>;
let h: Harness;
let w: Workspace;
let alice: Awaited<ReturnType<Workspace['userWithKey']>>;
let bob: Awaited<ReturnType<Workspace['userWithKey']>>;
let home: string;
let primary: { id: string };
let foreign: { id: string };
const clients: Client[] = [];

const connect = async (key: string) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    env: { HOME: home, SERVICE_API_KEY: key, SERVICE_API_URL: `http://${w.host}:${h.cp.port}` },
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
  return { isError: r.isError === true, text: content[0]!.text };
};
const answer = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
  const r = await call(client, name, args);
  expect(r.isError, r.text).toBe(false);
  return r.text;
};

const schedule = async (ws: Workspace, name: string, users: string[], layerName = 'Weekly') => {
  const r = await ws.api('POST', '/schedules', {
    json: {
      name,
      timezone: 'Europe/Berlin',
      layers: [
        {
          name: layerName,
          users,
          rotation: 'weekly',
          handoff: '09:00',
          handoff_day: 'mon',
          starts_at: '2026-06-01T07:00:00Z',
        },
      ],
    },
  });
  expect(r.status, r.text).toBe(201);
  return r.body;
};

beforeAll(async () => {
  h = await startHarness();
  w = await h.workspace('oncall-mcp');
  alice = await w.userWithKey('member', 'alice@oncall-mcp.test');
  bob = await w.userWithKey('member', 'bob@oncall-mcp.test');
  home = mkdtempSync(join(tmpdir(), 'lookout-mcp-oncall-'));
  primary = await schedule(w, 'Primary', [alice.user.id, bob.user.id]);
  await schedule(w, 'Database', [bob.user.id], 'DBA');
  const other = await h.workspace('oncall-mcp-other');
  const carol = await other.userWithKey('member', 'carol@oncall-mcp-other.test');
  foreign = await schedule(other, 'Theirs', [carol.user.id]);
  // Bob takes Tuesday afternoon from Alice (made by the workspace's admin).
  const o = await w.api('POST', `/schedules/${primary.id}/overrides`, {
    json: { user_id: bob.user.id, starts_at: '2026-06-02T12:00:00Z', ends_at: '2026-06-02T16:00:00Z' },
  });
  expect(o.status, o.text).toBe(201);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await h.close();
  rmSync(home, { recursive: true, force: true });
});

describe('on-call tools over MCP', () => {
  it('both tools are listed, read-only, with their inputs described', async () => {
    const mcp = await connect(alice.key);
    expect(mcp.getInstructions()).toContain('who_is_on_call says who is on call');
    const { tools } = await mcp.listTools();
    const who = tools.find((t) => t.name === 'who_is_on_call')!;
    const mine = tools.find((t) => t.name === 'list_my_shifts')!;
    expect(Object.keys(who.inputSchema.properties!)).toEqual(['schedule', 'at']);
    expect(Object.keys(mine.inputSchema.properties!)).toEqual(['days']);
    for (const t of [who, mine]) {
      expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(t.description!.length).toBeGreaterThan(80);
    }
  });

  it('who_is_on_call by name or id: who, until when in the schedule’s zone, why, and who is next; an override names its maker', async () => {
    const mcp = await connect(alice.key);
    // Now (Monday 12:00 UTC) Alice is on call until Bob's override on Tuesday afternoon.
    const api = (await w.api('GET', `/schedules/${primary.id}/on-call`)).body;
    expect(api.user.email).toBe('alice@oncall-mcp.test');
    const text = await answer(mcp, 'who_is_on_call', { schedule: 'primary' });
    expect(text.split('\n')).toEqual([
      `Primary (Europe/Berlin, schedule id ${primary.id}), now:`,
      `On call: alice@oncall-mcp.test until Tue 2 Jun 2026, 14:00 CEST (${api.until}).`,
      'Why: layer 1 "Weekly".',
      `Next: bob@oncall-mcp.test from Tue 2 Jun 2026, 14:00 CEST (${api.next.starts_at}).`,
    ]);
    expect(api.until).toBe('2026-06-02T12:00:00.000Z');
    expect(await answer(mcp, 'who_is_on_call', { schedule: primary.id })).toBe(text);
    // After the override: Alice until the weekly handoff, Monday 09:00 Berlin time.
    const later = await answer(mcp, 'who_is_on_call', { schedule: 'Primary', at: '2026-06-03T12:00:00Z' });
    expect(later.split('\n').slice(1)).toEqual([
      'On call: alice@oncall-mcp.test until Mon 8 Jun 2026, 09:00 CEST (2026-06-08T07:00:00.000Z).',
      'Why: layer 1 "Weekly".',
      'Next: bob@oncall-mcp.test from Mon 8 Jun 2026, 09:00 CEST (2026-06-08T07:00:00.000Z).',
    ]);

    const during = await answer(mcp, 'who_is_on_call', {
      schedule: 'Primary',
      at: '2026-06-02T14:00:00+02:00',
    });
    expect(during).toContain('at Tue 2 Jun 2026, 14:00 CEST (2026-06-02T12:00:00.000Z)');
    expect(during).toContain('On call: bob@oncall-mcp.test until Tue 2 Jun 2026, 18:00 CEST');
    expect(during).toContain(`Why: an override by admin@oncall-mcp.test.`);
    expect(during).toContain('Next: alice@oncall-mcp.test from Tue 2 Jun 2026, 18:00 CEST');
  });

  it('without a schedule: one line per schedule of the workspace, for a viewer too', async () => {
    const viewer = await w.userWithKey('viewer');
    const text = await answer(await connect(viewer.key), 'who_is_on_call');
    const lines = text.split('\n');
    expect(lines[0]).toBe('Who is on call now, in 2 schedules:');
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^- Database \(Europe\/Berlin, .*\): bob@oncall-mcp\.test, layer 1 "DBA"$/),
      expect.stringMatching(
        /^- Primary \(Europe\/Berlin, .*\): alice@oncall-mcp\.test until Tue 2 Jun 2026, 14:00 CEST .*, layer 1 "Weekly"; next bob@oncall-mcp\.test from Tue 2 Jun 2026, 14:00 CEST/,
      ),
    ]);
    expect(text).not.toContain('Theirs');
  });

  it('an unknown name lists the workspace’s schedules; another workspace’s id is unknown; a bad instant is the API’s 422', async () => {
    const mcp = await connect(alice.key);
    const unknown = await call(mcp, 'who_is_on_call', { schedule: 'Nope' });
    expect(unknown).toEqual({
      isError: true,
      text: 'No schedule is named "Nope". The schedules of this workspace: Database, Primary.',
    });
    const theirs = await call(mcp, 'who_is_on_call', { schedule: foreign.id });
    expect(theirs.isError).toBe(true);
    expect(theirs.text).toContain(`No schedule is named "${foreign.id}"`);
    expect(theirs.text).not.toContain('Theirs');
    const long = await call(mcp, 'who_is_on_call', { schedule: 'x'.repeat(300) });
    expect(long.isError).toBe(true);
    expect(long.text).toMatch(
      /^No schedule is named "x+"\. The schedules of this workspace: Database, Primary\.$/,
    );
    const bad = await call(mcp, 'who_is_on_call', { schedule: 'Primary', at: 'tomorrow' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/HTTP 422[\s\S]*- at: /);
  });

  it('list_my_shifts: the caller’s shifts across schedules, in each schedule’s zone', async () => {
    const api = (await w.as(bob.key)('GET', '/me/shifts?days=14')).body.data;
    const text = await answer(await connect(bob.key), 'list_my_shifts', { days: 14 });
    const lines = text.split('\n');
    expect(lines[0]).toBe(`bob@oncall-mcp.test has ${api.length} on-call shifts in the next 14 days:`);
    expect(lines).toHaveLength(api.length + 1);
    expect(text).toContain(
      '- Primary (schedule id ' +
        `${primary.id}): from Tue 2 Jun 2026, 14:00 CEST (2026-06-02T12:00:00.000Z) to Tue 2 Jun 2026, 18:00 CEST (2026-06-02T16:00:00.000Z), an override by admin@oncall-mcp.test`,
    );
    expect(text).toContain(
      'from Mon 8 Jun 2026, 09:00 CEST (2026-06-08T07:00:00.000Z) to Mon 15 Jun 2026, 09:00 CEST (2026-06-15T07:00:00.000Z), layer 1 "Weekly"',
    );
    const none = await answer(await connect(alice.key), 'list_my_shifts', { days: 1 });
    expect(none).toContain('alice@oncall-mcp.test has 1 on-call shift in the next day:');
    const bad = await call(await connect(alice.key), 'list_my_shifts', { days: 365 });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/- days: /);
  });
});
