import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'control-plane', 'bin', 'lookout.js');
export const MAIN = join(ROOT, 'control-plane', 'dist', 'main.js');
export const AGENT = join(ROOT, 'agent', 'dist', 'main.js');

/** Runs the admin CLI as a user would, with its own environment. */
export const runCli = (args: string[], env: Record<string, string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      cwd: ROOT,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });

/** Starts a process and resolves once its stdout matches `ready`. */
export const startProcess = (file: string, env: Record<string, string>, ready: RegExp) =>
  new Promise<{ child: ChildProcess; output: () => string; match: RegExpMatchArray }>((resolve, reject) => {
    const child = spawn(process.execPath, [file], {
      // Agents' metrics listeners on free ports, so that several agents can run side by side.
      env: { PATH: process.env.PATH ?? '', LOOKOUT_AGENT_METRICS_PORT: '0', ...env },
      cwd: ROOT,
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`not ready: ${out}\n${err}`)), 30_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = out.match(ready);
      if (m) {
        clearTimeout(timer);
        resolve({ child, output: () => out, match: m });
      }
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${out}\n${err}`));
    });
  });

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
