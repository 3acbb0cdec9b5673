import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNamedKey } from '../../control-plane/src/domain/access/api-keys.js';
import { type Harness, startHarness } from '../support/harness.js';
import { runCli } from '../support/processes.js';

/** The admin CLI in its own process, on the same SQLite file as a running server. */
let h: Harness;
let env: Record<string, string>;
beforeAll(async () => {
  h = await startHarness();
  env = { LOOKOUT_DATA_DIR: h.dir, LOOKOUT_LOG_LEVEL: 'silent' };
});
afterAll(() => h.close());

const json = async (args: string[]) => {
  const r = await runCli([...args, '--json'], env);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

describe('npx lookout', () => {
  it('creates a workspace, a user and a key that works against the running API', async () => {
    const ws = await json([
      'workspace',
      'create',
      '--subdomain',
      'acme',
      '--admin-email',
      'ops@acme.test',
      '--plan',
      'team',
    ]);
    expect(ws).toMatchObject({
      // Printed from configuration: the default HTTP port, as no public port is set.
      workspace: { subdomain: 'acme', plan: 'team', api_url: 'http://acme.localhost:8080/api/v1' },
      admin: { email: 'ops@acme.test' },
    });
    expect(ws.admin.password.length).toBeGreaterThanOrEqual(20);
    const user = await json([
      'user',
      'create',
      '--workspace',
      'acme',
      '--email',
      'ci@acme.test',
      '--role',
      'member',
    ]);
    expect(user.user.role).toBe('member');
    const key = await json([
      'api-key',
      'create',
      '--workspace',
      'acme',
      '--email',
      'ci@acme.test',
      '--name',
      'GitHub Actions',
      '--expiry',
      '90d',
    ]);
    expect(key.key).toMatch(/^ak\./);
    expect(key).toMatchObject({ name: 'GitHub Actions', status: 'active', last_four: key.key.slice(-4) });
    const r = await h.request('GET', '/api/v1/monitors', { host: 'acme.localhost', key: key.key });
    expect(r.status).toBe(200);

    const list = await runCli(['api-key', 'list', '--workspace', 'acme'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('GitHub Actions');
    expect(list.stdout).toContain(`…${key.key.slice(-4)}`);
    expect(list.stdout).not.toContain(key.key);

    const revoked = await json(['api-key', 'revoke', '--workspace', 'acme', '--id', key.id]);
    expect(revoked.status).toBe('revoked');
    expect(
      (await h.request('GET', '/api/v1/monitors', { host: 'acme.localhost', key: key.key })).status,
    ).toBe(401);

    // Each change is in the audit log, by the actor `cli`, its secrets never there.
    const acme = (await h.store.getWorkspaceBySubdomain('acme'))!;
    const log = (await h.store.listAuditEntries(acme.id, {}, { limit: 10 })).data;
    expect(log.map((e) => [e.actor.type, e.action, e.resource_id])).toEqual([
      ['cli', 'api_key.revoke', key.id],
      ['cli', 'api_key.create', key.id],
      ['cli', 'user.create', user.user.id],
      ['cli', 'workspace.create', acme.id],
    ]);
    expect(JSON.stringify(log)).not.toContain(key.key);
    expect(JSON.stringify(log)).not.toContain(ws.admin.password);
  });

  it('a key acts with its user’s current role: demoting the user limits the key at once', async () => {
    await json(['user', 'create', '--workspace', 'acme', '--email', 'dev@acme.test', '--role', 'member']);
    const key = await json([
      'api-key',
      'create',
      '--workspace',
      'acme',
      '--email',
      'dev@acme.test',
      '--name',
      'dev',
      '--expiry',
      'none',
    ]);
    const create = () =>
      h.request('POST', '/api/v1/monitors/create', {
        host: 'acme.localhost',
        key: key.key,
        json: { display_name: 'db', monitor_type: 'tcp', url: 'db.acme.test', port: 5432 },
      });
    expect((await create()).status).toBe(201);
    expect(
      (
        await json([
          'user',
          'set-role',
          '--workspace',
          'acme',
          '--email',
          'dev@acme.test',
          '--role',
          'viewer',
        ])
      ).user.role,
    ).toBe('viewer');
    const refused = await create();
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('viewer');
    expect(
      (await h.request('GET', '/api/v1/monitors', { host: 'acme.localhost', key: key.key })).status,
    ).toBe(200);
  });

  it('refuses the 26th active key of a user with a clear message and exit code 1', async () => {
    await json(['workspace', 'create', '--subdomain', 'capped', '--admin-email', 'a@capped.test']);
    const ws = (await h.store.getWorkspaceBySubdomain('capped'))!;
    const admin = (await h.store.getUserByEmail(ws.id, 'a@capped.test'))!;
    for (let i = 0; i < 24; i++)
      await createNamedKey(h.store, ws, admin, { name: `k${i}`, expiry: 'none' }, new Date());
    const ok = await runCli(
      [
        'api-key',
        'create',
        '--workspace',
        'capped',
        '--email',
        'a@capped.test',
        '--name',
        'k25',
        '--expiry',
        'none',
      ],
      env,
    );
    expect(ok.code, ok.stderr).toBe(0);
    const refused = await runCli(
      [
        'api-key',
        'create',
        '--workspace',
        'capped',
        '--email',
        'a@capped.test',
        '--name',
        'k26',
        '--expiry',
        'none',
      ],
      env,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^lookout: .*25 active API keys.*Revoke one/);
  });

  it('user set-role keeps at least one admin, by the same rule as the API', async () => {
    await json(['workspace', 'create', '--subdomain', 'solo', '--admin-email', 'a@solo.test']);
    const setRole = (email: string, role: string) =>
      runCli(['user', 'set-role', '--workspace', 'solo', '--email', email, '--role', role, '--json'], env);
    const refused = await setRole('a@solo.test', 'member');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      'lookout: This is the last admin of the workspace: make another user an admin first (an invited admin counts once they have set a password).\n',
    );
    const ws = (await h.store.getWorkspaceBySubdomain('solo'))!;
    expect((await h.store.getUserByEmail(ws.id, 'a@solo.test'))?.role).toBe('admin');
    // With a second admin, the first may step down; then the second is the last one.
    await json(['user', 'create', '--workspace', 'solo', '--email', 'b@solo.test', '--role', 'admin']);
    const down = await setRole('a@solo.test', 'member');
    expect(down.code, down.stderr).toBe(0);
    expect(JSON.parse(down.stdout).user).toMatchObject({ email: 'a@solo.test', role: 'member' });
    expect((await setRole('b@solo.test', 'viewer')).code).toBe(1);
    const bad = await setRole('b@solo.test', 'owner');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^lookout: The request has invalid fields\. role /);
  });

  it('regenerates the legacy key: the old value stops working', async () => {
    await json(['workspace', 'create', '--subdomain', 'legacy', '--admin-email', 'a@legacy.test']);
    const k1 = await json(['legacy-key', 'regenerate', '--workspace', 'legacy', '--email', 'a@legacy.test']);
    const k2 = await json(['legacy-key', 'regenerate', '--workspace', 'legacy', '--email', 'a@legacy.test']);
    expect((await h.request('GET', '/api/v1/alerts', { host: 'legacy.localhost', key: k1.key })).status).toBe(
      401,
    );
    expect((await h.request('GET', '/api/v1/alerts', { host: 'legacy.localhost', key: k2.key })).status).toBe(
      200,
    );
  });

  it('raises a test alert that the API lists and resolves', async () => {
    const a = await json(['alert', 'test', '--workspace', 'acme', '--name', 'Smoke test']);
    expect(a).toMatchObject({ title: 'Smoke test', status: 'open' });
    const key = await json([
      'api-key',
      'create',
      '--workspace',
      'acme',
      '--email',
      'ops@acme.test',
      '--name',
      'k',
      '--expiry',
      '1d',
    ]);
    const list = await h.request('GET', '/api/v1/alerts?status=open', {
      host: 'acme.localhost',
      key: key.key,
    });
    expect(list.body.data.map((x: { id: string }) => x.id)).toContain(a.id);
    const r = await h.request('POST', '/api/v1/alerts/resolve', {
      host: 'acme.localhost',
      key: key.key,
      json: { UUIDs: [a.id] },
    });
    expect(r.body.resolved[0]).toMatchObject({ id: a.id, status: 'resolved' });
  });

  it('fails with one line and a non-zero exit on bad input', async () => {
    const cases: [string[], RegExp][] = [
      [['api-key', 'create', '--workspace', 'acme', '--email', 'ops@acme.test'], /missing --name, --expiry/],
      [
        [
          'api-key',
          'create',
          '--workspace',
          'acme',
          '--email',
          'ops@acme.test',
          '--name',
          'x',
          '--expiry',
          '2001-01-01',
        ],
        /expiry must be in the future/,
      ],
      [
        [
          'api-key',
          'create',
          '--workspace',
          'nope',
          '--email',
          'x@y.test',
          '--name',
          'x',
          '--expiry',
          'none',
        ],
        /no workspace with subdomain "nope"/,
      ],
      [['workspace', 'create', '--subdomain', 'acme', '--admin-email', 'x@y.test'], /taken/],
      [['workspace', 'create', '--subdomain', 'Bad_Name', '--admin-email', 'x@y.test'], /subdomain/],
      [
        ['workspace', 'create', '--subdomain', 'p', '--admin-email', 'x@y.test', '--plan', 'gold'],
        /plan must be one of: free, team, business/,
      ],
      [['user', 'create', '--workspace', 'acme', '--email', 'x@acme.test', '--role', 'owner'], /role/],
      [['frobnicate'], /unknown command/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args, env);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    const badEnv = await runCli(['api-key', 'list', '--workspace', 'acme'], {
      ...env,
      LOOKOUT_HTTP_PORT: 'eighty',
    });
    expect(badEnv.code).toBe(1);
    expect(badEnv.stderr).toContain('LOOKOUT_HTTP_PORT');
  });

  it('without the server’s store, only workspace create makes one; every other command names the path it looked at', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'lookout-cli-nostore-'));
    try {
      const data = join(elsewhere, 'data');
      const file = join(data, 'lookout.db');
      const other = { LOOKOUT_DATA_DIR: data, LOOKOUT_LOG_LEVEL: 'silent' };
      for (const args of [
        ['api-key', 'list', '--workspace', 'demo'],
        ['user', 'create', '--workspace', 'demo', '--email', 'x@demo.test', '--role', 'member'],
        ['legacy-key', 'regenerate', '--workspace', 'demo', '--email', 'x@demo.test'],
        ['alert', 'test', '--workspace', 'demo'],
        ['agent-token', 'create', '--region', 'eu-west'],
        ['agent-token', 'list'],
      ]) {
        const r = await runCli(args, other);
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
        expect(r.stderr, args.join(' ')).toContain(`no Lookout store at ${file}`);
        expect(existsSync(file), args.join(' ')).toBe(false);
      }
      const created = await runCli(
        ['workspace', 'create', '--subdomain', 'fresh', '--admin-email', 'ops@fresh.test', '--json'],
        other,
      );
      expect(created.code, created.stderr).toBe(0);
      expect(existsSync(file)).toBe(true);
      const listed = await runCli(['api-key', 'list', '--workspace', 'fresh'], other);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout.trim()).toBe('No API keys.');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
