import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportOutcome } from '../../control-plane/src/importers/import-outcome.js';
import {
  importUptimeKuma,
  readUptimeKuma,
} from '../../control-plane/src/importers/uptime-kuma/import-uptime-kuma.js';
import { standInSecrets } from '../fixtures/import/stand-ins.js';
import { buildKumaDb, KUMA_SECRETS } from '../fixtures/import/uptime-kuma/kuma-fixture.js';
import { type Harness, startHarness } from '../support/harness.js';
import { importRoundTrip } from '../support/import-round-trip.js';
import { runCli } from '../support/processes.js';

/**
 * `npx lookout import uptime-kuma FILE` for each of Kuma's inputs: its JSON backup (1.x), and kuma.db
 * of 1.23 and of 2.x built from Kuma's schema at test time; each turns into a file that plans and
 * applies cleanly on a fresh workspace, and exports back as imported. No Kuma secret is in any file.
 */
let h: Harness;
let dir: string;
const fixtures = join(import.meta.dirname, '../fixtures/import/uptime-kuma');
beforeAll(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'lookout-kuma-'));
  buildKumaDb(join(dir, 'kuma-1.23.db'), '1.23');
  buildKumaDb(join(dir, 'kuma-2.0.db'), '2.0');
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

const inputs: [name: string, file: () => string, sub: string][] = [
  ['the JSON backup of 1.x', () => join(fixtures, 'backup-1.x.json'), 'kuma-backup'],
  ['kuma.db of 1.23', () => join(dir, 'kuma-1.23.db'), 'kuma-db-123'],
  ['kuma.db of 2.x', () => join(dir, 'kuma-2.0.db'), 'kuma-db-2x'],
];

const noSecrets = (text: string) => KUMA_SECRETS.filter((s) => text.includes(s));

describe('import uptime-kuma', () => {
  for (const [name, file, subdomain] of inputs)
    it(`${name}: import → plan → apply → export gives what was imported`, async () => {
      const outcome: ImportOutcome = importUptimeKuma(await readUptimeKuma(file()), h.clock.now());
      const env = standInSecrets(outcome.file);
      const r = await importRoundTrip(h, outcome, {
        source: 'Uptime Kuma',
        subdomain,
        secretValue: (e) => env[e] ?? `stand-in-${e.toLowerCase()}`,
      });
      expect(r.differences, r.log).toEqual([]);
      expect(noSecrets(r.text)).toEqual([]);
      expect(noSecrets(JSON.stringify(r.exported))).toEqual([]);
      const exported = r.exported as Record<string, unknown[] | undefined>;
      expect(exported.monitors?.length).toBeGreaterThanOrEqual(25);
      expect(exported.channels).toHaveLength(15);
      expect(exported.heartbeats).toHaveLength(3);
      expect(exported.groups).toHaveLength(3);
      if (subdomain !== 'kuma-backup') {
        expect(exported.status_pages).toHaveLength(3);
        expect(exported.maintenance_windows?.length).toBeGreaterThanOrEqual(8);
      }
      // The file says what was left out and which variables to set.
      expect(r.text).toContain('type: docker');
      expect(r.text).toContain('LOOKOUT_IMPORT_CHANNEL_OPS_SLACK_URL');
    });

  it('the CLI writes the file with -o, lists what it left out on stderr, and refuses a file that is neither', async () => {
    const out = join(dir, 'lookout.yaml');
    const r = await runCli(['import', 'uptime-kuma', join(dir, 'kuma-2.0.db'), '-o', out], {});
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('display_name: Mail server');
    expect(noSecrets(text)).toEqual([]);
    expect(r.stderr).toContain('Lookout has no Docker container check');
    expect(noSecrets(r.stderr + r.stdout)).toEqual([]);
    const bad = await runCli(['import', 'uptime-kuma', join(fixtures, 'SOURCE.md')], {});
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('neither a kuma.db SQLite database nor a JSON backup');
  });
});
