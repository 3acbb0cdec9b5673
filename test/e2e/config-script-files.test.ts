import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { runCli } from '../support/processes.js';

/**
 * Configuration as code and scripted checks, through the real CLI and a real control plane: a browser
 * monitor's `script_file` (read next to the YAML file, never from outside its folder), export writing
 * the script inline, and `{{secrets.NAME}}` kept as plain text (a workspace secret, not a variable).
 */
let h: Harness;
let w: Awaited<ReturnType<Harness['workspace']>>;
let root: string;
let dir: string;

beforeAll(async () => {
  h = await startHarness();
  w = await h.workspace('config-scripts', 'business');
  root = mkdtempSync(join(tmpdir(), 'lookout-scripts-'));
  dir = join(root, 'repo');
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  writeFileSync(join(root, 'outside.js'), 'await page.goto(url); // outside the folder');
}, 60_000);
afterAll(async () => {
  await h.close();
  rmSync(root, { recursive: true, force: true });
});

const cli = (args: string[]) =>
  runCli(args, { LOOKOUT_API_URL: `http://${w.host}:${h.cp.port}`, LOOKOUT_API_KEY: w.adminKey });

const SCRIPT = [
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the script's own JavaScript template literal
  'await page.goto(`${url}/login`);',
  "await page.getByLabel('Password').fill(secrets.SHOP_PASSWORD);",
  "await page.getByRole('button', { name: 'Sign in' }).click();",
  '',
].join('\n');

const config = (name: string, monitors: string) => {
  const path = join(dir, name);
  writeFileSync(path, `version: 1\nmonitors:\n${monitors}`);
  return path;
};

const browser = (name: string, scriptLine: string) =>
  [
    `  - display_name: ${name}`,
    '    monitor_type: browser',
    '    url: https://shop.example.com',
    `    ${scriptLine}`,
    '',
  ].join('\n');

describe('script_file and secrets in the configuration file', () => {
  it('reads a browser script from a file next to the YAML, applies it, and export writes it inline', async () => {
    writeFileSync(join(dir, 'scripts', 'checkout.js'), SCRIPT);
    expect(
      (await w.api('PUT', '/secrets/SHOP_PASSWORD', { json: { value: 'correct-horse-9f2e' } })).status,
    ).toBe(201);
    expect((await w.api('PUT', '/secrets/PAY_TOKEN', { json: { value: 'tok-abcdefgh-1234' } })).status).toBe(
      201,
    );
    const path = config(
      'lookout.yaml',
      browser('Checkout', 'script_file: scripts/checkout.js') +
        [
          '  - display_name: Pay API',
          '    monitor_type: multistep',
          '    url: https://shop.example.com',
          '    steps:',
          '      - name: Pay',
          '        method: POST',
          "        url: '{{url}}/pay'",
          '        headers:',
          "          Authorization: 'Bearer {{secrets.PAY_TOKEN}}'",
          '',
        ].join('\n'),
    );
    const applied = await cli(['apply', '-f', path]);
    expect(applied.code, applied.stderr + applied.stdout).toBe(0);
    const list = (await w.api('GET', '/monitors')).body.data as {
      display_name: string;
      script?: string;
      steps?: unknown;
    }[];
    expect(list.find((m) => m.display_name === 'Checkout')?.script).toBe(SCRIPT);
    expect(list.find((m) => m.display_name === 'Pay API')?.steps).toEqual([
      expect.objectContaining({ headers: { Authorization: 'Bearer {{secrets.PAY_TOKEN}}' } }),
    ]);
    // Planned again: nothing to change (the file's script is the monitor's).
    const again = await cli(['plan', '-f', path]);
    expect(again.code, again.stdout + again.stderr).toBe(0);

    const exported = await cli(['export']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).not.toContain('script_file');
    expect(exported.stdout).toContain('fill(secrets.SHOP_PASSWORD)');
    expect(exported.stdout).toContain('{{secrets.PAY_TOKEN}}');
    expect(exported.stdout).not.toContain('correct-horse');
    expect(exported.stdout).not.toContain('tok-abcdefgh');
    expect(exported.stdout).not.toContain('sealed');
    // The export plans back to no change.
    const back = join(dir, 'exported.yaml');
    writeFileSync(back, exported.stdout);
    const replanned = await cli(['plan', '-f', back]);
    expect(replanned.code, replanned.stdout + replanned.stderr).toBe(0);
  });

  it('refuses a path out of the folder, absolute, through a symbolic link, missing, too big or on another type, at its line', async () => {
    symlinkSync(join(root, 'outside.js'), join(dir, 'scripts', 'link.js'));
    writeFileSync(join(dir, 'scripts', 'big.js'), 'x'.repeat(64 * 1024 + 1));
    const path = config(
      'bad.yaml',
      [
        browser('Up', 'script_file: ../outside.js'),
        browser('Abs', `script_file: ${join(root, 'outside.js')}`),
        browser('Link', 'script_file: scripts/link.js'),
        browser('Gone', 'script_file: scripts/none.js'),
        browser('Big', 'script_file: scripts/big.js'),
        browser('Sneaky', 'script_file: scripts/../../outside.js'),
        '  - display_name: Not browser\n    monitor_type: http\n    script_file: scripts/checkout.js\n    url: https://a.example.com\n',
      ].join(''),
    );
    const r = await cli(['plan', '-f', path]);
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n');
    const at = (i: number, line: number, words: RegExp) =>
      expect(lines.find((l) => l.includes(`monitors[${i}].script_file`))).toMatch(
        new RegExp(`bad\\.yaml:${line}: monitors\\[${i}\\]\\.script_file .*${words.source}`),
      );
    at(0, 6, /stay inside/);
    at(1, 10, /not an absolute path/);
    at(2, 14, /symbolic link/);
    at(3, 18, /does not exist/);
    at(4, 22, /at most 65536 bytes/);
    at(5, 26, /stay inside/);
    at(6, 29, /only to browser monitors/);
    expect(r.stderr).not.toContain('outside the folder');
    expect(
      (await w.api('GET', '/monitors')).body.data.map((m: { display_name: string }) => m.display_name).sort(),
    ).toEqual(['Checkout', 'Pay API']);
  });

  it('refuses a file naming a secret that is not set, as the API does', async () => {
    writeFileSync(join(dir, 'scripts', 'missing.js'), "await page.fill('#k', secrets['NOT_SET']);\n");
    const r = await cli([
      'apply',
      '-f',
      config('missing.yaml', browser('Missing', 'script_file: scripts/missing.js')),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('names secret NOT_SET, which is not set in this workspace');
  });
});
