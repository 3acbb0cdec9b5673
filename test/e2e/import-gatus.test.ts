import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { source as gatus } from '../../control-plane/src/importers/gatus/index.js';
import { type Harness, startHarness } from '../support/harness.js';
import { defaultSecretValue, importRoundTrip } from '../support/import-round-trip.js';
import { runCli } from '../support/processes.js';

/**
 * `npx lookout import gatus` on a realistic Gatus configuration (test/fixtures/import/gatus, 60+
 * objects): the file applies cleanly to a fresh workspace and exports back as imported.
 */
const FIXTURE = 'test/fixtures/import/gatus/config.yaml';
let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'lookout-import-gatus-'));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every secret of the fixture: none may reach the file. */
const FIXTURE_SECRETS = [
  'XXXXXXXXXXXXXXXXXXXXXXXX',
  'abcdefghijklmnop',
  'sig=xyz',
  'AAFakeTelegramTokenForTheFixture0000',
  'fedcba9876543210fedcba9876543210',
  'smtp-password-of-the-fixture',
  'tk_fixturetoken',
  'AFakeGotifyToken',
  'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
  'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
  'fixturehook',
  'syt_fixture_access_token',
  'twilio-auth-token-fixture',
  'fixture-token',
  'fixture-bearer',
  'fixture-api-token',
  'fixture-query-key',
  'fixture-basic-pass',
  'fixture-ssh-password',
  'fixture-push-token',
  'JDJhJDEw',
];

describe('import gatus', () => {
  it('round trip: the fixture imports, plans, applies and exports back as imported', async () => {
    const outcome = await gatus.read({ file: FIXTURE, env: {} });
    const r = await importRoundTrip(h, outcome, { source: 'Gatus', subdomain: 'gatus-rt', plan: 'business' });
    expect(r.differences, r.log).toEqual([]);
    const exported = r.exported as Record<string, unknown[]>;
    expect(exported.monitors!.length).toBeGreaterThanOrEqual(35);
    expect(exported.heartbeats).toHaveLength(5);
    expect(exported.channels!.length).toBeGreaterThanOrEqual(14);
    expect(exported.maintenance_windows).toHaveLength(3);
    for (const s of FIXTURE_SECRETS) expect(r.text).not.toContain(s);
  });

  it('the real command writes the file, lists what it left out on stderr, and the file plans', async () => {
    const out = join(dir, 'lookout.yaml');
    const r = await runCli(['import', 'gatus', FIXTURE, '-o', out], {});
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^lookout: imported from Gatus: 18 alerting providers, 39 endpoints, 5 external endpoints into /,
    );
    expect(r.stderr).toContain(
      'endpoint "syslog" (group network): url: udp://syslog.acme.internal:514 — Lookout has no UDP check; not imported',
    );
    expect(r.stderr).toContain('Set these before plan and apply: ');
    expect(r.stderr).toContain('OPSGENIE_API_KEY');
    const text = readFileSync(out, 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=lookout-config.schema.json');
    expect(text).toContain(
      '# not imported: conditions: [STATUS] < 400 (Lookout expects one exact status code',
    );
    for (const s of FIXTURE_SECRETS) expect(text).not.toContain(s);
    // Without the secrets' variables, plan names those it cannot do without and changes nothing;
    // with them set, apply makes everything.
    const w = await h.workspace('gatus-cli', 'business');
    const api = { LOOKOUT_API_URL: `http://${w.host}:${h.cp.port}`, LOOKOUT_API_KEY: w.adminKey };
    const plan = await runCli(['plan', '-f', out], api);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      'needs the environment variable LOOKOUT_IMPORT_CHANNEL_PAGERDUTY_CONFIG_ROUTING_KEY, which is not set',
    );
    const vars = [...text.matchAll(/^# {3}([A-Z][A-Z0-9_]+) {2}\(/gm)].map((m) => m[1]!);
    expect(vars).toContain('OPSGENIE_API_KEY');
    const env = { ...api, ...Object.fromEntries(vars.map((v) => [v, defaultSecretValue(v)])) };
    const apply = await runCli(['apply', '-f', out], env);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toMatch(/Applied \d+ changes\./);
    expect((await runCli(['plan', '-f', out], env)).code).toBe(0);
  });
});
