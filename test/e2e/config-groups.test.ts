import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { runCli } from '../support/processes.js';

/**
 * Groups, tags and severity in configuration as code (`npx lookout export | plan | apply`, the real CLI
 * against a real control plane): groups are a kind named by `name`; monitors and heartbeats name their
 * group (`group`) and carry `tags` and `severity`.
 */
let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'lookout-config-groups-'));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

type Workspace = Awaited<ReturnType<Harness['workspace']>>;
const cli = (w: Workspace, args: string[]) =>
  runCli(args, { LOOKOUT_API_URL: `http://${w.host}:${h.cp.port}`, LOOKOUT_API_KEY: w.adminKey });
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
/** An export without its first line (the schema's address names the workspace's host). */
const body = (text: string) => text.split('\n').slice(1).join('\n');

const fill = async (w: Workspace) => {
  const edge = (await w.api('POST', '/groups', { json: { name: 'Edge' } })).body;
  await w.api('POST', '/groups', { json: { name: 'Empty' } });
  const m = await w.api('POST', '/monitors/create', {
    json: {
      display_name: 'Router',
      monitor_type: 'tcp',
      url: 'router.example.com',
      port: 22,
      group_id: edge.id,
      tags: ['env:prod', 'net'],
      severity: 'warning',
    },
  });
  expect(m.status, m.text).toBe(201);
  await w.api('POST', '/monitors/create', {
    json: { display_name: 'Loose', monitor_type: 'tcp', url: 'loose.example.com', port: 22 },
  });
  const hb = await w.api('POST', '/heartbeats', {
    json: { display_name: 'Switch backup', group_id: edge.id, tags: ['job:backup'] },
  });
  expect(hb.status, hb.text).toBe(201);
};

describe('groups in configuration as code', () => {
  it('export names groups by name; apply on an empty workspace creates the groups first and reproduces it', async () => {
    const source = await h.workspace('cacg-source');
    await fill(source);
    const exported = await cli(source, ['export']);
    expect(exported.code, exported.stderr).toBe(0);
    const text = exported.stdout;
    expect(text).toMatch(
      /groups:\n {2}- name: Edge\n {2}- name: Empty\n|groups:\n {2}- name: Empty\n {2}- name: Edge\n/,
    );
    expect(text).toContain('group: Edge');
    expect(text).toContain('- env:prod');
    expect(text).toContain('severity: warning');
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    // A monitor in no group names none.
    expect(text).not.toContain('group: null');

    // The target: a new workspace, where the source's admin (whom the default policy notifies) is a user too.
    const target = await h.workspace('cacg-target');
    await target.userWithKey('member', 'admin@cacg-source.test');
    const applied = await cli(target, ['apply', '-f', file('export.yaml', text)]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(body((await cli(target, ['export'])).stdout)).toBe(body(text));
    const groups = (await target.api('GET', '/groups')).body.data as { id: string; name: string }[];
    const edge = groups.find((g) => g.name === 'Edge')!;
    const router = (await target.api('GET', '/monitors')).body.data.find(
      (m: { display_name: string }) => m.display_name === 'Router',
    );
    expect(router).toMatchObject({ group_id: edge.id, tags: ['env:prod', 'net'], severity: 'warning' });
    const twice = await cli(target, ['plan', '-f', file('export.yaml', text)]);
    expect(twice.code, twice.stdout).toBe(0);
  });

  it('a plan names a move to a new group and changed tags; apply makes them; unknown groups and bad tags are refused by path', async () => {
    const w = await h.workspace('cacg-edit');
    await fill(w);
    const text = (await cli(w, ['export'])).stdout;
    const edited = text
      .replace('groups:\n', 'groups:\n  - name: Core\n')
      .replace(/(display_name: Router\n(?:.*\n)*?\s+group:) Edge/, '$1 Core')
      .replace('- net\n', '- net\n      - tier:1\n');
    expect(edited).not.toBe(text);
    const path = file('edited.yaml', edited);
    const plan = await cli(w, ['plan', '-f', path]);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout.trim().split('\n')).toEqual([
      '+ group "Core" (create)',
      '~ monitor "Router"',
      '    tags: ["env:prod","net"] → ["env:prod","net","tier:1"]',
      '    group: "Edge" → "Core"',
      'Plan: 1 to create, 1 to change, 0 to delete.',
    ]);
    const applied = await cli(w, ['apply', '-f', path]);
    expect(applied.code, applied.stderr).toBe(0);
    const core = ((await w.api('GET', '/groups?q=core')).body.data as { id: string }[])[0]!;
    const router = (await w.api('GET', '/monitors')).body.data.find(
      (m: { display_name: string }) => m.display_name === 'Router',
    );
    expect(router).toMatchObject({ group_id: core.id, tags: ['env:prod', 'net', 'tier:1'] });

    const bad = edited
      .replace(/(display_name: Loose\n)/, '$1    group: Nope\n')
      .replace('- job:backup', '- Job Backup');
    const refused = await cli(w, ['plan', '-f', file('bad.yaml', bad)]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/heartbeats\[0\]\.tags\[0\].*must be key or key:value/);
    const unknown = await cli(w, [
      'plan',
      '-f',
      file('unknown.yaml', edited.replace(/(display_name: Loose\n)/, '$1    group: Nope\n')),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('group names no group "Nope" in the file or the workspace');
    // --prune may not delete a group the file's monitors still name.
    const noCore = edited.replace('  - name: Core\n', '');
    const pruned = await cli(w, ['plan', '-f', file('no-core.yaml', noCore), '--prune']);
    expect(pruned.code).toBe(1);
    expect(pruned.stderr).toContain('names group "Core", which --prune would delete');
  });
});
