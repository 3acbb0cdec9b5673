import type { Logger } from '@lookout/shared';
import type { Deadline, ProbeOutcome, Prober, ProbeSpec, ScriptReport } from '../probe-port.js';
import { redactSecrets } from '../redact.js';
import { BrowserBusyError, type BrowserPool } from './browser-pool.js';
import type { GuardProxy } from './guard-proxy.js';
import { createPageHost } from './page-host.js';
import type { PageHost, SandboxLimits, SandboxOutcome } from './protocol.js';
import { watchRun } from './report.js';

/** The sandbox's entry point (run-sandboxed.ts): the script in its child process, its page calls to `host`. */
export type RunSandboxed = (
  input: { script: string; url: string; secrets: Record<string, string> },
  host: PageHost,
  limits: SandboxLimits,
) => Promise<SandboxOutcome>;

export interface BrowserProberOptions {
  pool: BrowserPool;
  guard: GuardProxy;
  runSandboxed: RunSandboxed;
  cpuSeconds: number;
  memoryMb: number;
  log?: Logger;
}

/** The run's time kept back from the script for the report, the screenshot and closing the context. */
export const reserveMs = (timeoutMs: number) => Math.min(5_000, Math.max(1_000, Math.round(timeoutMs * 0.2)));

/** The least time a script is started with. */
const MIN_SCRIPT_MS = 1_000;

const KIND: Record<SandboxOutcome['kind'], string> = {
  ok: 'ok',
  script_error: 'script_error',
  timeout: 'timeout',
  cpu: 'cpu_limit',
  memory: 'memory_limit',
  crashed: 'sandbox_crashed',
};

/**
 * The error a failed run reports (pinned): `step 2 'Sign in' failed: <error> (line 7)`, or without
 * the step when the run failed outside any, without the line when it is not known.
 */
export const runError = (out: SandboxOutcome): { message: string; failedStep: number | null } => {
  const at = out.steps.findIndex((s) => !s.ok);
  const line = out.line !== null ? ` (line ${out.line})` : '';
  const error = out.error ?? (at >= 0 ? out.steps[at]!.error : null) ?? `the script failed (${out.kind})`;
  if (at < 0) return { message: `${error}${line}`, failedStep: null };
  return { message: `step ${at + 1} '${out.steps[at]!.name}' failed: ${error}${line}`, failedStep: at + 1 };
};

/** The port a URL's connection goes to (the guard proxy's key). */
const portOf = (u: URL) => Number(u.port || (u.protocol === 'https:' || u.protocol === 'wss:' ? 443 : 80));

/**
 * A browser check: a slot and a fresh context from the pool, the script in the sandbox with the page
 * host answering its calls, then the report; the context is closed whatever happened. The script's
 * wall time is the check's timeout less a reserve for the report (reserveMs).
 */
export const createBrowserProber = (opts: BrowserProberOptions): Prober<'browser'> => ({
  async run(spec: ProbeSpec<'browser'>, _deadline: Deadline): Promise<ProbeOutcome> {
    const started = performance.now();
    const { script, secrets } = spec.settings;
    const scriptEnd = Date.now() + spec.timeout_ms - reserveMs(spec.timeout_ms);
    const explain = (raw: string) => {
      try {
        const u = new URL(raw);
        return opts.guard.failure(u.hostname, portOf(u));
      } catch {
        return undefined;
      }
    };
    const elapsed = () => Math.round(performance.now() - started);
    try {
      // A run that gets its browser with less than MIN_SCRIPT_MS left fails as busy instead of starting.
      return await opts.pool.withPage(scriptEnd - MIN_SCRIPT_MS, async (page, context) => {
        const watch = await watchRun(context, page, { secrets, explain });
        const host = createPageHost(page, secrets, { deadlineAt: scriptEnd, baseUrl: spec.url, explain });
        const out = await opts.runSandboxed({ script, url: spec.url, secrets }, host, {
          wall_ms: Math.max(1, scriptEnd - Date.now()),
          cpu_seconds: opts.cpuSeconds,
          memory_mb: opts.memoryMb,
        });
        const seen = await watch.finish(!out.ok);
        const failed = out.ok ? null : runError(out);
        const report: ScriptReport = {
          steps: out.steps.map((s) => ({
            ...s,
            error: s.error === null ? null : redactSecrets(s.error, secrets),
          })),
          failed_step: failed?.failedStep ?? null,
          error_line: out.ok ? null : out.line,
          ...seen,
        };
        return {
          ok: out.ok,
          error: failed ? { kind: KIND[out.kind], message: redactSecrets(failed.message, secrets) } : null,
          response_time_ms: elapsed(),
          script: report,
        };
      });
    } catch (e) {
      const busy = e instanceof BrowserBusyError;
      if (!busy) opts.log?.warn({ err: (e as Error).message }, 'a browser check could not run');
      return {
        ok: false,
        error: {
          kind: busy ? 'browser_busy' : 'browser_unavailable',
          message: redactSecrets(
            busy ? e.message : `the browser did not run: ${(e as Error).message}`,
            secrets,
          ),
        },
        response_time_ms: elapsed(),
      };
    }
  },
});
