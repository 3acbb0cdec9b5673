import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import type { StepReport } from '../probe-port.js';
import { redactSecrets } from '../redact.js';
import { candidatePlans, childCommand, type SandboxPlan } from './isolation.js';
import {
  CHAIN_METHODS,
  EXPECT_MATCHERS,
  type HostCall,
  type HostReply,
  LOCATOR_METHODS,
  PAGE_METHODS,
  type PageHost,
  type SandboxIsolation,
  type SandboxLimits,
  type SandboxOutcome,
} from './protocol.js';
import { bootstrap } from './sandbox-bootstrap.js';
import type { SandboxRunMessage } from './sandbox-child.js';

/**
 * Runs a browser script in the sandbox child (sandbox-child.ts) and answers its page calls from
 * `host`. Every end is one outcome: `ok`, `script_error` (thrown or a failed call, with its line),
 * `timeout` (wall time: SIGKILL), `cpu` (RLIMIT_CPU), `memory` (the heap cap), `crashed`; the child
 * is always reaped before the promise settles, and calls answered after the end are dropped.
 *
 * What the child sends is bounded here, whatever it runs: one line at most MAX_LINE, at most
 * MAX_CALLS calls and MAX_OUTSTANDING at once; nothing heavier than a JSON.parse of one line runs
 * on the agent's side.
 */
export const MAX_CALLS = 10_000;
export const MAX_OUTSTANDING = 16;
const MAX_LINE = 1024 * 1024;
const MAX_STDERR = 8 * 1024;
/** Replies the child has not read yet (a script busy in a loop): past this, the run ends. */
const MAX_UNREAD = 16 * 1024 * 1024;
const MAX_STEPS = 200;
const MAX_ERROR = 2000;

/** The bootstrap's source, compiled by the child in the script's context, and the lists it builds from. */
const BOOTSTRAP = bootstrap.toString();
const METHODS = {
  chain: CHAIN_METHODS,
  page: PAGE_METHODS,
  locator: LOCATOR_METHODS,
  matchers: EXPECT_MATCHERS,
};

let planned: Promise<SandboxPlan> | null = null;

/** The sandbox's isolation on this host: probed once (the most isolated plan that runs), then cached. */
export async function sandboxIsolation(): Promise<SandboxIsolation> {
  return (await sandboxPlan()).isolation;
}

export function sandboxPlan(): Promise<SandboxPlan> {
  planned ??= probePlans();
  return planned;
}

async function probePlans(): Promise<SandboxPlan> {
  const plans = await candidatePlans();
  const probe = { script: 'expect(url).toBe("about:blank")', url: 'about:blank', secrets: {} };
  const limits = { wall_ms: 15_000, cpu_seconds: 5, memory_mb: 64 };
  for (const plan of plans.slice(0, -1)) {
    // Twice: a host too busy to start it in time must not cost the agent a wall for good.
    for (let attempt = 0; attempt < 2; attempt++) {
      const outcome = await runWithPlan(plan, probe, NO_PAGE, limits);
      if (outcome.ok) return plan;
      if (outcome.kind !== 'timeout') break;
    }
  }
  return plans[plans.length - 1] as SandboxPlan;
}

const NO_PAGE: PageHost = { call: async () => ({ ok: false, error: 'no page', url: 'about:blank' }) };

/** Runs `input.script` in the sandbox; what it reports of itself has the secrets' values shown as ••••. */
export async function runSandboxed(
  input: { script: string; url: string; secrets: Record<string, string> },
  host: PageHost,
  limits: SandboxLimits,
): Promise<SandboxOutcome> {
  const outcome = await runWithPlan(await sandboxPlan(), input, host, limits);
  const redact = (t: string) => redactSecrets(t, input.secrets);
  return {
    ...outcome,
    error: outcome.error === null ? null : redact(outcome.error),
    steps: outcome.steps.map((s) => ({
      ...s,
      name: redact(s.name),
      error: s.error === null ? null : redact(s.error),
    })),
  };
}

/** Why a call is refused before it reaches the host (the host keeps its own allow-list too), or null. */
export function refusal(call: HostCall): string | null {
  if (!call || typeof call !== 'object' || !Array.isArray(call.chain) || !Array.isArray(call.args)) {
    return 'a malformed page call';
  }
  if (typeof call.method !== 'string') return 'a malformed page call';
  for (const link of call.chain) {
    if (!link || typeof link.method !== 'string' || !Array.isArray(link.args)) return 'a malformed locator';
    if (!(CHAIN_METHODS as readonly string[]).includes(link.method))
      return `${link.method}() is not available`;
  }
  const matcher = call.method.startsWith('expect:') ? call.method.slice('expect:'.length) : null;
  if (matcher !== null) {
    return (EXPECT_MATCHERS as readonly string[]).includes(matcher)
      ? null
      : `expect().${matcher}() is not available`;
  }
  const allowed: readonly string[] = call.chain.length === 0 ? PAGE_METHODS : LOCATOR_METHODS;
  return allowed.includes(call.method) ? null : `${call.method}() is not available`;
}

function clip(s: string, max = MAX_ERROR): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function cleanSteps(steps: unknown): StepReport[] {
  if (!Array.isArray(steps)) return [];
  return steps.slice(0, MAX_STEPS).map((s: Partial<StepReport> | null) => ({
    name: clip(typeof s?.name === 'string' ? s.name : 'step', 200),
    ok: s?.ok === true,
    duration_ms:
      typeof s?.duration_ms === 'number' && Number.isFinite(s.duration_ms)
        ? Math.max(0, Math.round(s.duration_ms))
        : 0,
    error: typeof s?.error === 'string' ? clip(s.error) : null,
    status_code: null,
  }));
}

/** The outcome of a `done` message (what the script says of itself; bounded here). */
function doneOutcome(m: Record<string, unknown>): SandboxOutcome {
  const ok = m.ok === true;
  const error = ok ? null : clip(typeof m.error === 'string' ? m.error : 'the script failed');
  const line = typeof m.line === 'number' && Number.isInteger(m.line) && m.line > 0 ? m.line : null;
  // An ArrayBuffer past the data the child may hold fails as an error the script could catch.
  const kind = ok ? 'ok' : /Array buffer allocation failed/.test(error ?? '') ? 'memory' : 'script_error';
  return { ok, kind, error, line: ok ? null : line, steps: cleanSteps(m.steps) };
}

function capOutcome(kind: SandboxOutcome['kind'], error: string, steps: StepReport[] = []): SandboxOutcome {
  return { ok: false, kind, error, line: null, steps };
}

export function runWithPlan(
  plan: SandboxPlan,
  input: { script: string; url: string; secrets: Record<string, string> },
  host: PageHost,
  limits: SandboxLimits,
): Promise<SandboxOutcome> {
  const { file, args } = childCommand(plan, limits);
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(file, args, { env: {}, cwd: '/', stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    } catch (e) {
      resolve(
        capOutcome('crashed', `the sandbox could not start: ${e instanceof Error ? e.message : String(e)}`),
      );
      return;
    }
    const channel = child.stdio[3] as Socket;
    let outcome: SandboxOutcome | null = null;
    let wallPassed = false;
    let stderr = '';
    let buffered = '';
    let calls = 0;
    let outstanding = 0;
    let lastUrl = 'about:blank';
    let settled = false;

    const end = (o: SandboxOutcome) => {
      outcome ??= o;
      child.kill('SIGKILL');
    };
    const wall = setTimeout(() => {
      wallPassed = true;
      child.kill('SIGKILL');
    }, limits.wall_ms);
    const settle = (o: SandboxOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(wall);
      resolve(o);
    };

    const write = (m: object) => {
      if (outcome || channel.destroyed) return;
      if (channel.writableLength > MAX_UNREAD) {
        end(capOutcome('script_error', 'the script stopped reading the replies to its page calls'));
        return;
      }
      channel.write(`${JSON.stringify(m)}\n`);
    };

    const onCall = async (id: number, call: HostCall) => {
      calls += 1;
      if (calls > MAX_CALLS) {
        end(capOutcome('script_error', `the script made more than ${MAX_CALLS} page calls`));
        return;
      }
      let reply: HostReply;
      const refused = refusal(call);
      if (refused) reply = { ok: false, error: refused, url: lastUrl };
      else if (outstanding >= MAX_OUTSTANDING) {
        reply = { ok: false, error: `more than ${MAX_OUTSTANDING} page calls at once`, url: lastUrl };
      } else {
        outstanding += 1;
        try {
          reply = await host.call(call);
        } catch (e) {
          reply = { ok: false, error: clip(e instanceof Error ? e.message : String(e)), url: lastUrl };
        } finally {
          outstanding -= 1;
        }
      }
      if (outcome || settled) return;
      lastUrl = reply.url;
      write({ t: 'reply', id, reply });
    };

    const onLine = (line: string) => {
      let m: Record<string, unknown>;
      try {
        m = JSON.parse(line) as Record<string, unknown>;
      } catch {
        end(capOutcome('crashed', "the script's process sent a malformed message"));
        return;
      }
      if (m.t === 'call' && typeof m.id === 'number') void onCall(m.id, m.call as HostCall);
      else if (m.t === 'done') end(doneOutcome(m));
      else end(capOutcome('crashed', "the script's process sent an unknown message"));
    };

    channel.setEncoding('utf8');
    channel.on('data', (chunk: string) => {
      if (outcome) return;
      buffered += chunk;
      let nl = buffered.indexOf('\n');
      while (nl >= 0 && !outcome) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        onLine(line);
        nl = buffered.indexOf('\n');
      }
      if (buffered.length > MAX_LINE)
        end(capOutcome('crashed', "the script's process sent an oversized message"));
    });
    channel.on('error', () => {});
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-MAX_STDERR);
    });
    child.on('error', (e) => {
      end(capOutcome('crashed', `the sandbox could not start: ${e.message}`));
      settle(outcome as SandboxOutcome);
    });
    child.on('close', (code, signal) => {
      if (outcome) return settle(outcome);
      if (wallPassed)
        return settle(capOutcome('timeout', `the script ran longer than ${limits.wall_ms / 1000} s`));
      if (/heap out of memory|Reached heap limit|Allocation failed/i.test(stderr)) {
        return settle(capOutcome('memory', `the script used more than ${limits.memory_mb} MiB of memory`));
      }
      if (signal === 'SIGXCPU') {
        return settle(capOutcome('cpu', `the script used more than ${limits.cpu_seconds} s of CPU time`));
      }
      settle(
        capOutcome(
          'crashed',
          `the script's process ended unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`})`,
        ),
      );
    });

    const first: SandboxRunMessage = { t: 'run', ...input, bootstrap: BOOTSTRAP, methods: METHODS };
    channel.write(`${JSON.stringify(first)}\n`);
  });
}
