import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportOutcome } from '../../control-plane/src/importers/import-outcome.js';
import { envRef, importEnvName } from '../../control-plane/src/importers/import-source.js';
import { type Harness, startHarness } from '../support/harness.js';
import { importRoundTrip } from '../support/import-round-trip.js';
import { runCli } from '../support/processes.js';

/** The import framework itself: a hand-made outcome through render → plan → apply → export, and the CLI's refusals. */
let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'lookout-import-fw-'));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

const hook = importEnvName('channel', 'Ops hook', 'config.url');
const outcome: ImportOutcome = {
  file: {
    channels: [
      { name: 'Ops hook', type: 'webhook', config: { url: envRef(hook) } },
      { name: 'Ops mail', type: 'email', config: { addresses: ['ops@example.com'] } },
    ],
    escalation_policies: [
      {
        name: 'Imported: Ops',
        repeat: 0,
        steps: [{ wait_minutes: 0, notify_channels: ['Ops hook', 'Ops mail'] }],
      },
    ],
    groups: [{ name: 'Core' }],
    monitors: [
      {
        display_name: 'Shop',
        monitor_type: 'http',
        url: 'https://shop.example.com/',
        http_method: 'GET',
        expected_status_code: 200,
        check_interval_seconds: 120,
        group: 'Core',
        escalation_policy: 'Imported: Ops',
      },
      { display_name: 'Shop', monitor_type: 'tcp', url: 'db.example.com', port: 5432 },
    ],
    heartbeats: [{ display_name: 'Nightly backup', period_seconds: 86_400, grace_seconds: 3600 }],
  },
  unmapped: [
    { source: 'thing "x"', setting: 'colour', reason: 'no colours', item: { kind: 'monitors', index: 0 } },
  ],
  secrets: [{ env: hook, where: 'channels "Ops hook" config.url' }],
  counts: { things: 6 },
};

describe('import framework', () => {
  it('round trip: what is imported is what a fresh workspace exports after plan and apply', async () => {
    const r = await importRoundTrip(h, outcome, { source: 'Test', subdomain: 'import-fw' });
    expect(r.differences, r.log).toEqual([]);
    expect(r.exported.monitors).toHaveLength(2);
    expect((r.exported.monitors as { display_name: string }[]).map((m) => m.display_name).sort()).toEqual([
      'Shop',
      'Shop (2)',
    ]);
  });

  it('round trip: a value the workspace does not keep as imported is reported', async () => {
    // The team plan checks at most every 30 s: the API keeps 30, and the comparison says so.
    const fast: ImportOutcome = {
      file: {
        monitors: [
          {
            display_name: 'Fast',
            monitor_type: 'tcp',
            url: 'db.example.com',
            port: 5432,
            check_interval_seconds: 10,
            timeout_seconds: 5,
          },
        ],
      },
      unmapped: [],
      secrets: [],
      counts: { things: 1 },
    };
    const r = await importRoundTrip(h, fast, { source: 'Test', subdomain: 'import-fw-fast', plan: 'team' });
    expect(r.differences).toEqual([
      'plan exited 2, not 0',
      'monitors "Fast".check_interval_seconds: imported 10, exported 30',
    ]);
  });

  it('the CLI refuses an unknown source, and a missing input, with exit 1', async () => {
    const none = await runCli(['import', 'statping', 'x.yaml'], {});
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no importer "statping"');
    expect(none.stderr).toContain('import gatus FILE');
    const missing = await runCli(
      ['import', 'gatus', join(dir, 'absent.yaml'), '-o', join(dir, 'out.yaml')],
      {},
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^lookout: import gatus: /);
    expect(() => readFileSync(join(dir, 'out.yaml'))).toThrow();
    // -o naming the input would overwrite the other tool's configuration: refused.
    const input = join(dir, 'config.yaml');
    writeFileSync(input, 'endpoints: []\n');
    const same = await runCli(['import', 'gatus', input, '-o', input], {});
    expect(same.code).toBe(1);
    expect(same.stderr).toContain('is the input itself');
    expect(readFileSync(input, 'utf8')).toBe('endpoints: []\n');
    const help = await runCli(['--help'], {});
    expect(help.stdout).toContain('import healthchecks (--api-url URL --api-key KEY | FILE)');
  });
});
