import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { envRef } from '../../control-plane/src/importers/import-source.js';
import { source } from '../../control-plane/src/importers/uptimerobot/index.js';
import { type Harness, startHarness } from '../support/harness.js';
import { importRoundTrip } from '../support/import-round-trip.js';
import { importSecretValue } from '../support/import-secret-values.js';
import { runCli } from '../support/processes.js';
import { startUptimeRobotApi, type UptimeRobotApi } from '../support/uptimerobot-api.js';

/**
 * `npx lookout import uptimerobot` against a local server speaking API v2 the documented way
 * (test/fixtures/import/uptimerobot/SOURCE.md: form-encoded POSTs, pages of 50), and from the CSV
 * export: 55 monitors, 11 alert contacts and 9 maintenance windows become a file that plans and
 * applies on a fresh workspace and exports as imported. No secret of the fixtures (every one holds
 * "SECRET") and never the key is written or printed.
 */
const KEY = 'ur1234567-readOnlyKEYdoNotPrint';
const FIXTURES = 'test/fixtures/import/uptimerobot';
let h: Harness;
let api: UptimeRobotApi;
let dir: string;
beforeAll(async () => {
  h = await startHarness();
  api = await startUptimeRobotApi(KEY);
  dir = mkdtempSync(join(tmpdir(), 'lookout-import-ur-'));
});
afterAll(async () => {
  await api.close();
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = (file: Record<string, unknown>, kind: string) =>
  (file[kind] as unknown[] | undefined)?.length ?? 0;

describe('import uptimerobot', () => {
  it('from the API: monitors, heartbeats, channels, policies and maintenance windows round-trip', async () => {
    const outcome = await source.read({ apiUrl: api.url, apiKey: KEY, env: {} });
    expect(outcome.counts).toEqual({ monitors: 55, 'alert contacts': 11, 'maintenance windows': 9 });
    // getMonitors read page by page (50, then 5), each call with the key in the body, never the URL.
    expect(api.calls.map((c) => `${c.method}@${c.form.offset}`)).toEqual([
      'getMonitors@0',
      'getMonitors@50',
      'getAlertContacts@0',
      'getMWindows@0',
    ]);
    expect(api.calls.every((c) => c.form.api_key === KEY && c.form.format === 'json' && c.query === '')).toBe(
      true,
    );
    const r = await importRoundTrip(h, outcome, {
      source: 'UptimeRobot',
      subdomain: 'import-ur-api',
      secretValue: importSecretValue,
    });
    expect(r.differences, r.log).toEqual([]);
    expect(count(r.exported, 'monitors')).toBe(50);
    expect(count(r.exported, 'heartbeats')).toBe(5);
    expect(count(r.imported, 'maintenance_windows')).toBe(5);
    expect(r.text).toContain('schedule: 30 3 * * 1,3,5');
    expect(r.text).toContain('scope: maintenance:weekly-patching');
    expect(r.text).toContain('comparison: not_contains');
    expect(r.text).toContain(envRef('LOOKOUT_IMPORT_MONITOR_BLOG_SITE_AUTH_PASSWORD'));
    expect(r.text).not.toMatch(/SECRET/);
    expect(r.text).not.toContain(KEY);
  });

  it('from the CSV export: the monitors round-trip, and what the export lacks is listed', async () => {
    const outcome = await source.read({ file: `${FIXTURES}/monitors.csv`, env: {} });
    expect(outcome.counts.monitors).toBe(55);
    expect(outcome.unmapped.map((u) => u.source)).toContain('the CSV export');
    const r = await importRoundTrip(h, outcome, {
      source: 'UptimeRobot',
      subdomain: 'import-ur-csv',
      secretValue: importSecretValue,
    });
    expect(r.differences, r.log).toEqual([]);
    expect(count(r.exported, 'monitors')).toBe(50);
    expect(count(r.exported, 'heartbeats')).toBe(5);
  });

  it('through the CLI: the file, stdout and stderr hold no secret and no key', async () => {
    const out = join(dir, 'ur.yaml');
    // An address copied from the documentation, with its /v2, works too.
    const run = await runCli(
      ['import', 'uptimerobot', '--api-key', KEY, '--api-url', `${api.url}/v2`, '-o', out],
      {},
    );
    expect(run.code, run.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    for (const printed of [text, run.stdout, run.stderr]) {
      expect(printed).not.toContain(KEY);
      expect(printed).not.toMatch(/SECRET/);
    }
    expect(run.stderr).toContain(
      'imported from UptimeRobot: 55 monitors, 11 alert contacts, 9 maintenance windows',
    );
    expect(run.stderr).toContain('LOOKOUT_IMPORT_CHANNEL_OPS_SLACK_CONFIG_URL');
    expect(run.stderr).toContain('it has ended');
    expect(count(parse(text) as Record<string, unknown>, 'channels')).toBe(8);
  });

  it('a wrong key exits 1 with the API’s message, never the key it echoes back', async () => {
    const wrong = await runCli(
      ['import', 'uptimerobot', '--api-key', 'u-wrong-KEY-77', '--api-url', api.url],
      {},
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('getMonitors refused: api_key is invalid.');
    expect(wrong.stderr + wrong.stdout).not.toContain('u-wrong-KEY-77');
    const ftp = await runCli(
      ['import', 'uptimerobot', '--api-key', KEY, '--api-url', 'ftp://api.example.com'],
      {},
    );
    expect(ftp.code).toBe(1);
    expect(ftp.stderr).toContain('http:// or https://');
    const notCsv = await runCli(['import', 'uptimerobot', `${FIXTURES}/SOURCE.md`], {});
    expect(notCsv.code).toBe(1);
    expect(notCsv.stderr).toContain('not UptimeRobot');
  });
});
