import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, MAIN, ROOT, startProcess } from '../support/processes.js';

/**
 * The README's walkthrough, run as a user pastes it: its shell blocks, in order, in one bash session,
 * against a really started server (as `npm start` runs it: control plane and local agents, fresh data
 * directory). Only the base URL differs, through the `BASE` variable the README itself defines. Every
 * curl fails on an HTTP error (--fail-with-body) and any failing command stops the run; a block marked
 * `<!-- readme-test: expect-http-error -->` must end in an HTTP error instead.
 */

interface Block {
  code: string;
  expectHttpError: boolean;
  line: number;
}

/** The ```sh blocks of the walkthrough section, in order. */
const walkthroughBlocks = (readme: string): Block[] => {
  const start = readme.indexOf('## Five-minute walkthrough');
  if (start < 0) throw new Error('README has no walkthrough section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const firstLine = readme.slice(0, start).split('\n').length;
  const blocks: Block[] = [];
  const fence = /(<!-- readme-test: expect-http-error -->\s*\n)?```sh\n([\s\S]*?)```/g;
  for (let m = fence.exec(section); m; m = fence.exec(section)) {
    blocks.push({
      code: m[2]!,
      expectHttpError: m[1] !== undefined,
      line: firstLine + section.slice(0, m.index).split('\n').length,
    });
  }
  return blocks;
};

/** One bash script: each block as written, announced on stderr, so a failure names its block. */
const script = (blocks: Block[]) =>
  [
    'set -eo pipefail',
    // HTTP errors are failures (the README's curls are `curl -s`, as a user types them).
    'curl() { command curl --fail-with-body "$@"; }',
    ...blocks.map((b, i) =>
      b.expectHttpError
        ? `printf '\\n### block ${i + 1} (README line ${b.line}), expecting an HTTP error\\n' >&2
if ( ${b.code.trimEnd()}
); then echo "block ${i + 1} (README line ${b.line}) should have failed with an HTTP error" >&2; exit 1; fi`
        : `printf '\\n### block ${i + 1} (README line ${b.line})\\n' >&2\n${b.code}`,
    ),
    'echo "### walkthrough done" >&2',
    // What the walkthrough leaves behind, for the test to look at.
    'curl -s "$API/escalation-policies?limit=100" -H "X-API-Key: $KEY" > "$HOME/policies.json"',
    'curl -s "$API/channels?limit=100" -H "X-API-Key: $KEY" > "$HOME/channels.json"',
  ].join('\n');

const runBash = (source: string, env: Record<string, string>) =>
  new Promise<{ code: number; output: string }>((resolve, reject) => {
    const child = spawn('bash', ['-c', source], { cwd: ROOT, env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });

const dir = mkdtempSync(join(tmpdir(), 'lookout-readme-'));
let server: Awaited<ReturnType<typeof startProcess>>;
let port: number;
const env = {
  LOOKOUT_DATA_DIR: dir,
  LOOKOUT_HTTP_PORT: '0',
  LOOKOUT_RPC_PORT: '0',
  LOOKOUT_LOG_LEVEL: 'warn',
  // as `npm start` runs it
  LOOKOUT_LOCAL_AGENTS: 'eu-west,us-east',
};

beforeAll(async () => {
  server = await startProcess(MAIN, env, /API:\s+http:\/\/demo\.localhost:(\d+)\/api\/v1/);
  port = Number(server.match[1]);
});
afterAll(async () => {
  server?.child.kill('SIGTERM');
  if (server) await exited(server.child);
  rmSync(dir, { recursive: true, force: true });
});

describe('README walkthrough', () => {
  it('every shell block of the README reaches the server through $BASE or $API, never a fixed address', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const commands = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
      .flatMap((m) => m[1]!.split('\n'))
      .filter((line) => !/^\s*#/.test(line) && !line.startsWith('BASE=${BASE:-'));
    expect(commands.filter((line) => /https?:\/\/demo\.localhost/.test(line))).toEqual([]);
  });

  it('finds the walkthrough’s shell blocks, with no placeholders left in them', () => {
    const blocks = walkthroughBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    expect(blocks.filter((b) => b.expectHttpError)).toHaveLength(1);
    for (const b of blocks)
      expect(b.code, `README line ${b.line}`).not.toMatch(/<[a-z][a-z ]*>|\.\/backup\.sh /);
  });

  it('runs every block in order, as pasted, against a started server', async () => {
    const blocks = walkthroughBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    const r = await runBash(script(blocks), {
      ...env,
      PATH: process.env.PATH ?? '',
      HOME: dir,
      NPM_CONFIG_UPDATE_NOTIFIER: 'false',
      BASE: `http://demo.localhost:${port}`,
    });
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain('### walkthrough done');
    // The workspace's default policy, which every later monitor inherits, notifies no example address.
    const read = (f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8')).data;
    const policy = read('policies.json').find((p: { is_default: boolean }) => p.is_default);
    const channels = new Map<string, string>(
      read('channels.json').map((c: { id: string; config: { url?: string } }) => [c.id, c.config.url ?? '']),
    );
    const notified = policy.steps.flatMap((st: { notify_channel_ids: string[] }) => st.notify_channel_ids);
    for (const id of notified) expect(channels.get(id), policy.name).not.toMatch(/example\.com/);
  }, 120_000);
});
