import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, MAIN, startProcess } from '../support/processes.js';

/**
 * The control plane process (as `npm start` runs it) says once, at start, in its log, that no mail
 * transport is configured; with LOOKOUT_SMTP_HOST set it says nothing of the kind.
 */
const dir = mkdtempSync(join(tmpdir(), 'lookout-mail-warning-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = async (extra: Record<string, string>) => {
  const data = mkdtempSync(join(dir, 'data-'));
  const p = await startProcess(
    MAIN,
    {
      LOOKOUT_DATA_DIR: data,
      LOOKOUT_HTTP_PORT: '0',
      LOOKOUT_RPC_PORT: '0',
      LOOKOUT_LOG_LEVEL: 'info',
      LOOKOUT_DEMO_WORKSPACE: 'false',
      ...extra,
    },
    /Lookout is running: HTTP API on port (\d+)/,
  );
  const ready = await fetch(`http://127.0.0.1:${p.match[1]}/readyz`);
  expect(ready.status).toBe(200);
  // The log is buffered: read all of it once the process has drained and closed its output.
  const closed = new Promise((resolve) => p.child.once('close', resolve));
  p.child.kill('SIGTERM');
  expect(await exited(p.child), p.output()).toBe(0);
  await closed;
  const lines = p
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string });
  // Read to the end: the line the drain logs last is there.
  expect(
    lines.map((l) => l.msg),
    p.output(),
  ).toContain('stopped');
  return lines.filter((l) => /mail transport/i.test(l.msg));
};

describe('mail transport warning at start', () => {
  it('without LOOKOUT_SMTP_HOST: one warn line saying what to set, and where admins set their own', async () => {
    const warnings = await start({});
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);
    expect(warnings[0]!.msg).toMatch(/^No mail transport configured \(LOOKOUT_SMTP_HOST is not set\)/);
    expect(warnings[0]!.msg).toContain('Settings → Mail');
  });

  it('with LOOKOUT_SMTP_HOST: no such line', async () => {
    expect(await start({ LOOKOUT_SMTP_HOST: '127.0.0.1', LOOKOUT_SMTP_PORT: '2525' })).toEqual([]);
  });
});
