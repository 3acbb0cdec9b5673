import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { runCli } from '../support/processes.js';

/**
 * `depends_on` in configuration as code, by name: a monitor naming a monitor of the same file, a
 * heartbeat (applied after monitors) and a group; apply sets it once all exist, export writes it back
 * by name, and a second apply changes nothing. The real CLI against a real control plane.
 */
let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'lookout-config-deps-'));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

const FILE = `groups:
  - name: Rack 4
monitors:
  - display_name: Server
    monitor_type: tcp
    url: server.internal.example
    port: 22
    depends_on:
      - monitor: Switch
      - heartbeat: Backup
      - group: Rack 4
  - display_name: Switch
    monitor_type: tcp
    url: switch.internal.example
    port: 22
heartbeats:
  - display_name: Backup
`;

describe('depends_on in configuration as code', () => {
  it('applies by name, also naming records the same apply creates; exports by name; a second apply changes nothing', async () => {
    const w = await h.workspace('cac-deps');
    const path = join(dir, 'deps.yaml');
    writeFileSync(path, FILE);
    const env = { LOOKOUT_API_URL: `http://${w.host}:${h.cp.port}`, LOOKOUT_API_KEY: w.adminKey };
    const applied = await runCli(['apply', '-f', path], env);
    expect(applied.code, applied.stderr + applied.stdout).toBe(0);
    expect(applied.stdout).toContain('set monitor "Server" depends_on');
    const monitors = (await w.api('GET', '/monitors')).body.data as {
      display_name: string;
      dependencies: { kind: string; name: string }[];
    }[];
    expect(
      monitors.find((m) => m.display_name === 'Server')?.dependencies.map((d) => [d.kind, d.name]),
    ).toEqual([
      ['monitor', 'Switch'],
      ['heartbeat', 'Backup'],
      ['group', 'Rack 4'],
    ]);
    const exported = await runCli(['export'], env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(
      'depends_on:\n      - monitor: Switch\n      - heartbeat: Backup\n      - group: Rack 4',
    );
    const again = await runCli(['apply', '-f', path], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Nothing to change.');
    // A name that exists nowhere is refused before anything changes.
    writeFileSync(path, FILE.replace('heartbeat: Backup', 'heartbeat: Nightly'));
    const bad = await runCli(['plan', '-f', path], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Nightly');
  });
});
