import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
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

/** Starts a process and resolves once its stdout matches `ready`; `errors` is its stderr so far. */
export const startProcess = (file: string, env: Record<string, string>, ready: RegExp) =>
  new Promise<{
    child: ChildProcess;
    output: () => string;
    errors: () => string;
    match: RegExpMatchArray;
  }>((resolve, reject) => {
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
        resolve({ child, output: () => out, errors: () => err, match: m });
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

/** A port that was free a moment ago, for processes that must be told their port in advance. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createNetServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

/**
 * A control plane process on ports the kernel picks (0) unless `ports` are given (a restart on the
 * same ports), read back from its banner: a port chosen in advance can be taken by another suite
 * before the process binds it.
 */
export const startControlPlaneProcess = async (
  env: Record<string, string>,
  ports?: { http: number; rpc: number },
) => {
  const p = await startProcess(
    MAIN,
    {
      // Tests' notification receivers listen on loopback.
      LOOKOUT_NOTIFY_ALLOW_PRIVATE: 'true',
      ...env,
      LOOKOUT_HTTP_PORT: String(ports?.http ?? 0),
      LOOKOUT_RPC_PORT: String(ports?.rpc ?? 0),
    },
    /Lookout is running[\s\S]*?(?:localhost:|on port )(\d+)[\s\S]*agents connect: http:\/\/[^\s]+:(\d+)\n/,
  );
  return {
    ...p,
    httpPort: Number(p.match[1]),
    rpcPort: Number(p.match[2]),
    key: p.output().match(/API key:\s+(ak\.\S+)/)?.[1],
  };
};

/** A region token made by the real admin CLI against the store `env` names. */
export const agentTokenFromCli = async (env: Record<string, string>, region: string) => {
  const r = await runCli(['agent-token', 'create', '--region', region, '--json'], env);
  return JSON.parse(r.stdout).token as string;
};

/** A real agent process, resolved once its output matches `ready` (default: registered). */
export const startAgentProcess = (opts: {
  rpcUrl: string;
  token: string;
  region: string;
  instance: string;
  env?: Record<string, string>;
  ready?: RegExp;
}) =>
  startProcess(
    AGENT,
    {
      LOOKOUT_AGENT_CONTROL_PLANE_URL: opts.rpcUrl,
      LOOKOUT_AGENT_TOKEN: opts.token,
      LOOKOUT_AGENT_REGION: opts.region,
      LOOKOUT_AGENT_INSTANCE_ID: opts.instance,
      LOOKOUT_AGENT_LOG_LEVEL: 'info',
      LOOKOUT_AGENT_METRICS_HOST: '127.0.0.1',
      LOOKOUT_AGENT_RDAP_BOOTSTRAP_URL: 'off',
      ...opts.env,
    },
    opts.ready ?? /registered/,
  );
