import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './processes.js';

export interface ClockedControlPlane {
  child: ChildProcess;
  port: number;
  /** Moves the process's clock to `ms` (epoch) and resolves once it has. */
  setClock(ms: number): Promise<void>;
}

/**
 * A real control-plane OS process whose clock the test drives (test/support/control-plane-child.js):
 * LOOKOUT_* settings from `env` on top of a data dir and free ports; the clock starts at `clockStart`.
 * The child is pushed onto `children` so the caller's cleanup kills it.
 */
export const startClockedControlPlane = (opts: {
  data: string;
  clockStart: number;
  env?: Record<string, string>;
  /** Node options for the child, e.g. the production heap limit (`--max-old-space-size=384`). */
  execArgv?: string[];
  children: ChildProcess[];
}) =>
  new Promise<ClockedControlPlane>((resolve, reject) => {
    const child = fork(join(ROOT, 'test', 'support', 'control-plane-child.js'), [], {
      cwd: ROOT,
      ...(opts.execArgv ? { execArgv: opts.execArgv } : {}),
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: {
        PATH: process.env.PATH ?? '',
        LOOKOUT_DATA_DIR: opts.data,
        LOOKOUT_HTTP_PORT: '0',
        LOOKOUT_RPC_PORT: '0',
        LOOKOUT_LOG_LEVEL: 'warn',
        LOOKOUT_VALIDATE_RESPONSES: 'true',
        // Tests' notification receivers listen on loopback.
        LOOKOUT_NOTIFY_ALLOW_PRIVATE: 'true',
        // One message per alert unless a test turns grouping on.
        LOOKOUT_NOTIFY_GROUP_INTERVAL_SECONDS: '0',
        ...opts.env,
        TEST_CLOCK_START: String(opts.clockStart),
      },
    });
    opts.children.push(child);
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    child.once('exit', (code) => reject(new Error(`child exited ${code}: ${err}`)));
    let seq = 0;
    const acks = new Map<number, () => void>();
    const setClock = (ms: number) =>
      new Promise<void>((ok) => {
        const id = ++seq;
        acks.set(id, ok);
        child.send({ set: ms, id });
      });
    child.on('message', (m: { ready?: { port: number }; ack?: number }) => {
      if (m.ready) resolve({ child, port: m.ready.port, setClock });
      if (typeof m.ack === 'number') acks.get(m.ack)?.();
    });
  });
