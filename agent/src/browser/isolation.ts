import { access, constants } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxIsolation, SandboxLimits } from './protocol.js';

/**
 * How the sandbox child is started on this host (docs/scripted-checks.md, "The browser sandbox"):
 * Node's permission model always; as root, user nobody in a network namespace of its own
 * (`unshare -n` then `setpriv`); not root, a user and network namespace (`unshare -rn`) when this
 * host allows one; CPU time capped by RLIMIT_CPU (`prlimit`, else `sh -c 'ulimit -t'`).
 */
export interface SandboxPlan {
  isolation: SandboxIsolation;
  /** Programs and arguments put before node's (unshare, setpriv), absolute paths. */
  wrap: string[];
  prlimit: string | null;
  sh: string | null;
}

const here = fileURLToPath(import.meta.url);
/** The child's compiled file (tests run this module from src/, the child always runs from dist/). */
export const CHILD_FILE = here.endsWith('.ts')
  ? resolve(dirname(here), '../../dist/browser/sandbox-child.js')
  : join(dirname(here), 'sandbox-child.js');

/** The child's data segment beyond its heap cap: Node itself, V8's young generation and code, buffers. */
export const DATA_SLACK_MB = 256;

export const NOBODY = { uid: 65534, gid: 65534 };

/** Node's permission flag on this Node: --permission (Node ≥ 22.13) or --experimental-permission. */
export function permissionFlag(): string {
  return process.allowedNodeEnvironmentFlags.has('--permission')
    ? '--permission'
    : '--experimental-permission';
}

/** The absolute path of a program on PATH or in the usual places, or null. */
export async function findProgram(name: string): Promise<string | null> {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/bin', '/bin', '/usr/sbin', '/sbin'];
  for (const dir of dirs) {
    if (!dir.startsWith('/')) continue;
    const path = join(dir, name);
    try {
      await access(path, constants.X_OK);
      return path;
    } catch {
      // next directory
    }
  }
  return null;
}

/** The plans to try, most isolated first; the last one (permission model only) always exists. */
export async function candidatePlans(): Promise<SandboxPlan[]> {
  const [unshare = null, setpriv = null, prlimit = null, sh = null] = await Promise.all(
    ['unshare', 'setpriv', 'prlimit', 'sh'].map((p) => findProgram(p)),
  );
  const permission_flag = permissionFlag();
  const plan = (user: SandboxIsolation['user'], network_namespace: boolean, wrap: string[]): SandboxPlan => ({
    prlimit,
    sh,
    isolation: { permission_flag, user, network_namespace },
    wrap,
  });
  const asNobody = setpriv
    ? [setpriv, `--reuid=${NOBODY.uid}`, `--regid=${NOBODY.gid}`, '--clear-groups', '--no-new-privs']
    : null;
  const plans: SandboxPlan[] = [];
  if (process.getuid?.() === 0) {
    // The namespace is made as root, then the user dropped: unshare -n needs CAP_SYS_ADMIN.
    if (unshare && asNobody) plans.push(plan(NOBODY, true, [unshare, '-n', ...asNobody]));
    if (asNobody) plans.push(plan(NOBODY, false, asNobody));
    if (unshare) plans.push(plan(null, true, [unshare, '-n']));
  } else if (unshare) {
    plans.push(plan(null, true, [unshare, '-rn']));
  }
  plans.push(plan(null, false, []));
  return plans;
}

/** The program and arguments that start the child under a plan and its caps. */
export function childCommand(
  plan: SandboxPlan,
  limits: SandboxLimits,
  file = CHILD_FILE,
  fileArgs = ['--sandbox-child'],
): { file: string; args: string[] } {
  const cpu = Math.max(1, Math.ceil(limits.cpu_seconds));
  const node = [
    process.execPath,
    plan.isolation.permission_flag,
    `--allow-fs-read=${file}`,
    '--no-addons',
    `--max-old-space-size=${Math.max(16, Math.floor(limits.memory_mb))}`,
    '--disallow-code-generation-from-strings',
    // Lets the vm refuse import() with an error of the script's own realm (without it, Node 20 rejects
    // with an error of the child's realm, whose constructors lead out of the context).
    '--experimental-vm-modules',
    '--no-warnings',
    file,
    ...fileArgs,
  ];
  const command = [...plan.wrap, ...node];
  // RLIMIT_CPU: SIGXCPU at the soft limit (how a run is told "cpu"), SIGKILL a second later.
  // RLIMIT_DATA: memory outside the V8 heap (ArrayBuffers) fails to allocate past the heap + DATA_SLACK_MB.
  const dataMb = Math.floor(limits.memory_mb) + DATA_SLACK_MB;
  if (plan.prlimit) {
    return {
      file: plan.prlimit,
      args: [`--cpu=${cpu}:${cpu + 1}`, `--data=${dataMb * 1024 * 1024}`, ...command],
    };
  }
  if (plan.sh) {
    const ulimits = `ulimit -St ${cpu} && ulimit -Ht ${cpu + 1} && ulimit -d ${dataMb * 1024}`;
    return { file: plan.sh, args: ['-c', `${ulimits} && exec "$@"`, 'sh', ...command] };
  }
  const [program = process.execPath, ...args] = command;
  return { file: program, args };
}
