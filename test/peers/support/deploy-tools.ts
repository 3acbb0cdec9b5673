import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'ini';
import { findBinary } from './binaries.js';

/** Runs a program to completion: exit status and everything it wrote. */
export const runTool = (file: string, args: string[]) => {
  const r = spawnSync(file, args, { encoding: 'utf8' });
  if (r.error) throw r.error;
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
};

/** `haproxy -c -f <file>`: HAProxy's own check of a configuration file. */
export const haproxyCheck = (cfgFile: string) =>
  runTool(findBinary(['haproxy', '/usr/sbin/haproxy'], 'apt-get install haproxy'), ['-c', '-f', cfgFile]);

const systemdAnalyze = () => findBinary(['systemd-analyze'], 'apt-get install systemd');
const HOST_UNITS = ['/usr/lib/systemd/system', '/lib/systemd/system'].find((d) => existsSync(d));

/**
 * A throwaway root for `systemd-analyze --root` holding what the unit refers to, so the check means
 * the same on any machine: the unit under /etc/systemd/system, the host's system units (the targets
 * it orders itself after), an executable stand-in at ExecStart's program path (/usr/bin/node: the
 * machine's own node may live elsewhere), its WorkingDirectory and its EnvironmentFile (the example).
 */
export const systemdRoot = (unitName: string, unitText: string, envText: string) => {
  const root = mkdtempSync(join(tmpdir(), 'lookout-systemd-'));
  const put = (path: string, text: string, mode = 0o644) => {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text);
    chmodSync(join(root, path), mode);
  };
  put(`/etc/systemd/system/${unitName}`, unitText);
  if (HOST_UNITS)
    cpSync(HOST_UNITS, join(root, '/usr/lib/systemd/system'), { recursive: true, verbatimSymlinks: true });
  const service = (parse(unitText).Service ?? {}) as Record<string, string>;
  const program = String(service.ExecStart ?? '').split(/\s+/)[0];
  if (program?.startsWith('/') && program.endsWith('/node')) put(program, '#!/bin/sh\nexit 0\n', 0o755);
  if (service.WorkingDirectory) mkdirSync(join(root, service.WorkingDirectory), { recursive: true });
  if (service.EnvironmentFile) put(service.EnvironmentFile.replace(/^-/, ''), envText, 0o600);
  return root;
};

/** `systemd-analyze verify`: every diagnostic (unknown key, bad value, missing program) is printed. */
export const systemdVerify = (root: string, unitName: string) =>
  runTool(systemdAnalyze(), ['verify', `--root=${root}`, unitName]);

/**
 * `systemd-analyze security --offline`: systemd's own reading of the sandbox, setting by setting.
 * `threshold` is on systemd's 0–100 exposure scale (the text report divides by 10: "1.7 OK" is 17);
 * above it the exit status is non-zero.
 */
export const systemdSecurity = (root: string, unitName: string, threshold: number) => {
  const r = runTool(systemdAnalyze(), [
    'security',
    '--offline=true',
    `--root=${root}`,
    `--threshold=${threshold}`,
    '--json=short',
    unitName,
  ]);
  const json = r.output.slice(r.output.indexOf('['), r.output.lastIndexOf(']') + 1);
  const settings = json
    ? new Map((JSON.parse(json) as { json_field: string; set: boolean }[]).map((s) => [s.json_field, s.set]))
    : new Map<string, boolean>();
  return { ...r, settings };
};
