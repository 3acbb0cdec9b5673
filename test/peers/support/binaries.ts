import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Real peer programs for test:peers (Alertmanager now; Prometheus and others later): find the binary
 * (a clear failure, never a skip, when it is missing), start it on a free loopback port, wait until
 * it answers, stop it. Each peer gets its own small file beside this one.
 */

/** The first of `names` on PATH (or an absolute path); throws saying how to install it. */
export const findBinary = (names: string[], install: string): string => {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of names) {
    const candidates = name.startsWith('/') ? [name] : dirs.map((d) => join(d, name));
    for (const c of candidates) {
      try {
        accessSync(c, constants.X_OK);
        return c;
      } catch {
        // next
      }
    }
  }
  throw new Error(`None of ${names.join(', ')} is installed (looked on PATH). Install it: ${install}`);
};

export { freePort } from '../../support/processes.js';

export interface RunningBinary {
  child: ChildProcess;
  /** Everything it wrote so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `file` with `args` and resolves once `readyUrl` answers 200 (or fails with its output). */
export const startBinary = async (
  file: string,
  args: string[],
  readyUrl: string,
  { timeoutMs = 30_000 } = {},
): Promise<RunningBinary> => {
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  let exited: string | null = null;
  child.on('exit', (code, signal) => {
    exited = `exited (${code ?? signal})`;
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(timer);
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`${file} ${exited} before it was ready:\n${out}`);
    try {
      const r = await fetch(readyUrl);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${file} did not answer ${readyUrl} within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => out, stop };
};
