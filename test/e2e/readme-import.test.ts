import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { ROOT } from '../support/processes.js';

/**
 * The README's "Moving from another tool" walkthrough, run as pasted: its shell blocks in order in one
 * bash session (every failing command stops it), against a real control plane, with `$BASE` and
 * `$KEY` as the five-minute walkthrough leaves them and `$DIR` a scratch folder. What the README
 * shows of the command's output is what it prints.
 */
const section = () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Moving from another tool');
  if (start < 0) throw new Error('README has no "Moving from another tool" section');
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
};
const blocks = (lang: string) =>
  [...section().matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);

const runBash = (source: string, env: Record<string, string>) =>
  new Promise<{ code: number; output: string }>((resolve, reject) => {
    const child = spawn('bash', ['-c', source], { cwd: ROOT, env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });

let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'lookout-readme-import-'));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('README: moving from another tool', () => {
  it('names the four import commands', () => {
    const text = blocks('text')[0]!;
    for (const command of [
      'npx lookout import uptime-kuma FILE',
      'npx lookout import healthchecks (--api-url URL --api-key KEY | FILE)',
      'npx lookout import uptimerobot (--api-key KEY [--api-url URL] | FILE)',
      'npx lookout import gatus FILE',
    ])
      expect(text).toContain(command);
  });

  it('runs its shell blocks as pasted: import, plan, apply; then nothing is left to change', async () => {
    const w = await h.workspace('readme-import');
    const sh = blocks('sh');
    expect(sh.length).toBeGreaterThanOrEqual(2);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      NPM_CONFIG_UPDATE_NOTIFIER: 'false',
      BASE: `http://${w.host}:${h.cp.port}`,
      KEY: w.adminKey,
      DIR: dir,
    };
    const r = await runBash(
      ['set -eo pipefail', ...sh, 'echo "### done"', 'npx lookout plan -f "$DIR/lookout.yaml"'].join('\n'),
      env,
    );
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain('### done');
    expect(r.output).toContain('Plan: 0 to create, 0 to change, 0 to delete.');
    const monitors = await w.api('GET', '/monitors');
    expect(monitors.body.data.map((m: { display_name: string }) => m.display_name)).toEqual(['website']);
    const heartbeats = await w.api('GET', '/heartbeats');
    expect(heartbeats.body.data.map((x: { display_name: string }) => x.display_name)).toEqual([
      'nightly-backup',
    ]);
    // The output the README shows is the command's (but for the scratch folder's name).
    const shown = blocks('text')[1]!
      .split('\n')
      .filter((l) => l && !l.startsWith('lookout: imported'));
    for (const line of shown) expect(r.output).toContain(line);
    const file = readFileSync(join(dir, 'lookout.yaml'), 'utf8');
    const excerpt = blocks('text')[2]!
      .split('\n')
      .filter((l) => l && !l.includes('…'));
    for (const line of excerpt)
      expect(file).toContain(line.replace(/2026-12-08/, new Date().toISOString().slice(0, 10)));
  }, 120_000);
});
