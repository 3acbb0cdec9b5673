import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { source } from '../../control-plane/src/importers/healthchecks/index.js';
import { envRef } from '../../control-plane/src/importers/import-source.js';
import { type Harness, startHarness } from '../support/harness.js';
import { type HealthchecksApi, startHealthchecksApi } from '../support/healthchecks-api.js';
import { importRoundTrip } from '../support/import-round-trip.js';
import { importSecretValue } from '../support/import-secret-values.js';
import { runCli } from '../support/processes.js';

/**
 * `npx lookout import healthchecks` against a local server speaking the Management API v3 the
 * documented way (test/fixtures/import/healthchecks/SOURCE.md), and from a JSON file: 56 checks and
 * 12 integrations become a file that plans and applies on a fresh workspace and exports as imported.
 */
const RW = 'hcw_rwKEYdoNotPrint0123456789abcd';
const RO = 'hcr_roKEYdoNotPrint0123456789abcd';
const FIXTURES = 'test/fixtures/import/healthchecks';
let h: Harness;
let api: HealthchecksApi;
let dir: string;
beforeAll(async () => {
  h = await startHarness();
  api = await startHealthchecksApi({ readWrite: RW, readOnly: RO });
  dir = mkdtempSync(join(tmpdir(), 'lookout-import-hc-'));
});
afterAll(async () => {
  await api.close();
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

const checksIn = (file: Record<string, unknown>) => (file.heartbeats as unknown[] | undefined)?.length ?? 0;

describe('import healthchecks', () => {
  it('from the API with a read-write key: heartbeats, channels and their policies round-trip', async () => {
    const outcome = await source.read({ apiUrl: api.url, apiKey: RW, env: {} });
    expect(outcome.counts).toEqual({ checks: 56, integrations: 12 });
    const r = await importRoundTrip(h, outcome, {
      source: 'Healthchecks',
      subdomain: 'import-hc-api',
      secretValue: importSecretValue,
    });
    expect(r.differences, r.log).toEqual([]);
    // 56 checks, one an OnCalendar schedule Lookout does not read.
    expect(checksIn(r.exported)).toBe(55);
    expect(r.text).toContain('schedule: 15 5 * * *');
    expect(r.text).toContain(envRef('LOOKOUT_IMPORT_CHANNEL_OPS_SLACK_CONFIG_URL'));
    expect(r.text).toMatch(/# not imported: .*desc/);
    expect(r.text).not.toContain(RW);
    expect(api.requests.map((q) => q.path)).toEqual(['/api/v3/checks/', '/api/v3/channels/']);
  });

  it('from a JSON file (checks and channels as the API lists them) the same file is made', async () => {
    const checks = JSON.parse(readFileSync(`${FIXTURES}/checks.json`, 'utf8'));
    const channels = JSON.parse(readFileSync(`${FIXTURES}/channels.json`, 'utf8'));
    const file = join(dir, 'healthchecks.json');
    writeFileSync(file, JSON.stringify({ ...checks, ...channels }));
    const fromFile = await source.read({ file, env: {} });
    const fromApi = await source.read({ apiUrl: api.url, apiKey: RW, env: {} });
    expect(fromFile.file).toEqual(fromApi.file);
    const r = await importRoundTrip(h, fromFile, {
      source: 'Healthchecks',
      subdomain: 'import-hc-file',
      secretValue: importSecretValue,
    });
    expect(r.differences, r.log).toEqual([]);
  });

  it('through the CLI: a read-only key imports the checks without channels and says so; the key is never printed', async () => {
    const out = join(dir, 'ro.yaml');
    // An address copied from the API documentation, with its /api/v3/, works too.
    const run = await runCli(
      ['import', 'healthchecks', '--api-url', `${api.url}/api/v3/`, '--api-key', RO, '-o', out],
      {},
    );
    expect(run.code, run.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    for (const printed of [text, run.stdout, run.stderr]) expect(printed).not.toContain(RO);
    expect(run.stderr).toContain('imported from Healthchecks: 56 checks, 0 integrations');
    expect(run.stderr).toContain('read-only API key');
    const file = parse(text) as Record<string, unknown>;
    expect(checksIn(file)).toBe(55);
    expect(file.channels).toBeUndefined();
    // A read-only key is not offered the integrations list (it would be refused).
    expect(api.requests.filter((q) => q.key === RO).map((q) => q.path)).toEqual(['/api/v3/checks/']);
    const r = await importRoundTrip(h, await source.read({ apiUrl: api.url, apiKey: RO, env: {} }), {
      source: 'Healthchecks',
      subdomain: 'import-hc-ro',
    });
    expect(r.differences, r.log).toEqual([]);
  });

  it('a wrong key, a missing one, a non-http address and an unreadable file exit 1 without printing the key', async () => {
    const wrong = await runCli(
      ['import', 'healthchecks', '--api-url', api.url, '--api-key', 'hc-wrong-KEY-42'],
      {},
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('Healthchecks refused the API key (401: wrong api key)');
    expect(wrong.stderr + wrong.stdout).not.toContain('hc-wrong-KEY-42');
    const none = await runCli(['import', 'healthchecks'], {});
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('--api-key');
    const file = await runCli(
      ['import', 'healthchecks', '--api-url', 'file:///etc/passwd', '--api-key', RW],
      {},
    );
    expect(file.code).toBe(1);
    expect(file.stderr).toContain('http:// or https://');
    expect(file.stderr).not.toContain(RW);
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, 'checks: []');
    const bad = await runCli(['import', 'healthchecks', notJson], {});
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is not JSON');
  });
});
