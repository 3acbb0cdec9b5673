import { isIP } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import { assertPublicLiteral, publicOnlyLookup } from '@lookout/shared';
import { BODY_CAP, evaluateAssertions, needsBody, needsHeaders } from '../assertions/index.js';
import type { Deadline, ProbeOutcome, ProbeSpec, ScriptReport, Step, StepReport } from '../probe-port.js';
import { redactSecrets } from '../redact.js';
import { classifyError } from './classify-error.js';
import { extractOne, type JsonCache } from './extract.js';
import { exchange, requestBytes } from './http-exchange.js';
import type { HttpProberOptions } from './http-prober.js';
import { fillTemplates, type TemplateValues } from './templates.js';

/**
 * Multi-step API checks (docs/scripted-checks.md, "Multi-step checks"): the steps in order, each one
 * request through the http checks' transport (http-exchange.ts: a fresh connection, the same parser
 * and its caps) and the same SSRF guard (`blockPrivate`: literal addresses refused, names resolved by
 * publicOnlyLookup). A step's templates are filled from the run's variables and secrets
 * (templates.ts); its status, then its assertions (agent/src/assertions, as http monitors), then its
 * extracts (extract.ts). The first step that fails ends the run.
 *
 * Caps: a step reads at most STEP_BYTES of body (more fails it: "response larger than 1 MiB"), a run
 * RUN_BYTES in all; a step's time is min(its timeout_ms, what is left of the check's deadline) (a
 * timer only when its own is the shorter: the check's deadline is the runner's one timer). Redirects
 * are not followed: a 3xx is a step's answer, its Location a header to extract.
 *
 * Every text reported (each step's error, the run's) goes through redactSecrets with the run's
 * secrets and the values it extracted (the 4-character floor of redact.ts applies).
 */
export const STEP_BYTES = BODY_CAP;
export const RUN_BYTES = 5 * BODY_CAP;

const USER_AGENT = 'Lookout/1 (+monitoring)';

/** One run's state, one object: the request under way's end, why the run was ended, and its step timer. */
class Run {
  current: ((err: unknown) => void) | null = null;
  reason: unknown = null;
  /** A step's own timeout passed (not the check's). */
  stepTimedOut = false;
  readonly setCurrent = (end: ((err: unknown) => void) | null) => {
    this.current = end;
  };
  readonly stop = (err: unknown) => {
    this.reason ??= err;
    this.current?.(err);
  };
  readonly stepExpired = () => {
    this.stepTimedOut = true;
    this.current?.(Object.assign(new Error('step timed out'), { name: 'TimeoutError' }));
  };
}

/** A step's failure: its kind and the words of its message. */
interface Failure {
  kind: string;
  message: string;
}

const MIB = 1024 * 1024;

/** A status rule: `status_code equals N` says "expected status N, got M" (an http check's words, step-named). */
const statusFailure = (step: Step, status: number): Failure | null => {
  let has = false;
  for (const a of step.assertions) {
    if (a.source !== 'status_code') continue;
    has = true;
    if (a.comparison === 'equals' && Number(a.target) !== status)
      return { kind: 'status_mismatch', message: `expected status ${a.target.trim()}, got ${status}` };
  }
  // A step without a status assertion expects an answer below 400 (a 3xx is a step's answer).
  if (!has && status >= 400)
    return { kind: 'status_mismatch', message: `expected a status below 400, got ${status}` };
  return null;
};

/** Whether an extract reads headers (`true`) or the body (`false`): loops, no closure a step. */
const extractsFrom = (step: Step, headers: boolean): boolean => {
  for (const e of step.extract) if ((e.source === 'headers') === headers) return true;
  return false;
};
const readsBody = (step: Step) => extractsFrom(step, false) || needsBody(step.assertions);
const readsHeaders = (step: Step) => extractsFrom(step, true) || needsHeaders(step.assertions);

export const createMultistepProber = (opts: HttpProberOptions = {}) => {
  const secureContext: SecureContext = createSecureContext(opts.ca ? { ca: opts.ca } : {});
  const blockPrivate = opts.blockPrivate ?? false;

  /** One step's request, filled in; throws a TemplateError or a URL/header error (the step fails). */
  const requestOf = (step: Step, values: TemplateValues, bodyLimit: number) => {
    const url = new URL(fillTemplates(step.url, values));
    const isHttps = url.protocol === 'https:';
    if (!isHttps && url.protocol !== 'http:')
      throw Object.assign(new Error(`the URL is ${url.protocol} one, not http(s)`), { code: 'EPROTOCOL' });
    const host = url.hostname;
    if (blockPrivate) assertPublicLiteral(host);
    const hostname = host.startsWith('[') ? host.slice(1, -1) : host;
    // Names in lower case (HTTP/1.1 reads them so): a step's own User-Agent replaces ours, and its
    // Content-Length or Connection never goes out beside the ones the exchange needs.
    const headers: Record<string, string> = { 'user-agent': USER_AGENT };
    for (const name in step.headers) headers[name.toLowerCase()] = fillTemplates(step.headers[name]!, values);
    const body = step.body === null ? null : Buffer.from(fillTemplates(step.body, values));
    if (body) headers['content-length'] = String(body.length);
    else delete headers['content-length'];
    headers.connection = 'close';
    const named = isIP(hostname) === 0;
    return {
      host: hostname,
      port: url.port !== '' ? Number(url.port) : isHttps ? 443 : 80,
      isHttps,
      servername: isHttps && named ? hostname : undefined,
      secureContext: isHttps ? secureContext : undefined,
      lookup: blockPrivate ? publicOnlyLookup : undefined,
      named,
      bytes: requestBytes(step.method, url.pathname + url.search, url.host, headers, body),
      head: step.method === 'HEAD',
      wantCert: false,
      keepBody: readsBody(step) ? bodyLimit : 0,
      keepHeaders: readsHeaders(step),
      bodyLimit,
    };
  };

  return {
    async run(spec: ProbeSpec<'multistep'>, deadline: Deadline): Promise<ProbeOutcome> {
      const started = performance.now();
      const endsAt = started + spec.timeout_ms;
      const steps = spec.settings.steps;
      const vars: Record<string, string> = Object.create(null);
      // Without its trailing /: `{{url}}/login` is the same for https://shop.example and https://shop.example/.
      vars.url = spec.url.endsWith('/') ? spec.url.replace(/\/+$/, '') : spec.url;
      const values: TemplateValues = { vars, secrets: spec.settings.secrets };
      const reports: StepReport[] = [];
      const run = new Run();
      deadline.onAbort(run.stop);
      let read = 0;
      let failure: Failure | null = null;
      let failedAt = -1;
      let status: number | null = null;
      try {
        for (let i = 0; i < steps.length && failure === null; i++) {
          const step = steps[i]!;
          const t0 = performance.now();
          let stepStatus: number | null = null;
          const left = endsAt - t0;
          const runLeft = RUN_BYTES - read;
          const bodyLimit = Math.min(STEP_BYTES, runLeft);
          let timer: NodeJS.Timeout | undefined;
          try {
            if (run.reason !== null) throw run.reason;
            const req = requestOf(step, values, bodyLimit);
            if (step.timeout_ms !== null && step.timeout_ms < left) {
              run.stepTimedOut = false;
              timer = setTimeout(run.stepExpired, step.timeout_ms);
              timer.unref();
            }
            const r = await exchange(req, run.setCurrent);
            read += r.bodyBytes;
            stepStatus = r.status;
            failure = statusFailure(step, r.status);
            if (failure === null && step.assertions.length > 0) {
              failure = evaluateAssertions(
                {
                  status_code: r.status,
                  response_time: r.total,
                  headers: r.headers,
                  body: r.body,
                  body_truncated: r.bodyTruncated,
                },
                step.assertions,
              );
            }
            if (failure === null && step.extract.length > 0) {
              const cache: JsonCache = { parsed: null };
              const view = { body: r.body, headers: r.headers };
              for (const e of step.extract) {
                const got = extractOne(e, view, cache);
                if ('error' in got) {
                  failure = { kind: 'extract_failed', message: `could not extract ${e.name}: ${got.error}` };
                  break;
                }
                vars[e.name] = got.value;
              }
            }
          } catch (e) {
            failure = stepError(e, step, run, bodyLimit === runLeft && runLeft < STEP_BYTES);
          } finally {
            if (timer) clearTimeout(timer);
          }
          // The failed step's (none when it got no answer), else the last one's.
          status = stepStatus;
          if (failure !== null) failedAt = i;
          reports.push({
            name: step.name,
            ok: failure === null,
            duration_ms: performance.now() - t0,
            error: failure === null ? null : failure.message,
            status_code: stepStatus,
          });
        }
      } finally {
        deadline.onAbort(null);
      }
      return outcomeOf(spec, performance.now() - started, reports, failure, failedAt, status, vars);
    },
  };
};

/** Why a step's request failed, in the words a person reads. */
const stepError = (e: unknown, step: Step, run: Run, runCapped: boolean): Failure => {
  const err = e as { code?: string; name?: string; message?: string; limit?: number };
  if (err?.code === 'EBODYLIMIT')
    return runCapped
      ? { kind: 'response_too_large', message: `the run read more than ${RUN_BYTES / MIB} MiB of responses` }
      : { kind: 'response_too_large', message: `response larger than ${STEP_BYTES / MIB} MiB` };
  if (err?.code === 'ETEMPLATE') return { kind: 'template_failed', message: String(err.message) };
  if (err?.code === 'EPROTOCOL') return { kind: 'bad_url', message: String(err.message) };
  if (err?.code === 'ERR_INVALID_URL')
    return { kind: 'bad_url', message: 'its URL is not a URL once filled in' };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') {
    return run.stepTimedOut && run.reason === null
      ? { kind: 'timeout', message: `timed out after ${step.timeout_ms} ms (the step's timeout)` }
      : { kind: 'timeout', message: "timed out (the check's timeout)" };
  }
  return classifyError(e);
};

/** The run's outcome: its steps, and the failed one's error named `step 3 'Pay' failed: …`. */
const outcomeOf = (
  spec: ProbeSpec<'multistep'>,
  total: number,
  reports: StepReport[],
  failure: Failure | null,
  failedAt: number,
  status: number | null,
  vars: Record<string, string>,
): ProbeOutcome => {
  const script: ScriptReport = {
    steps: reports,
    failed_step: failedAt === -1 ? null : failedAt + 1,
    error_line: null,
    web_vitals: null,
    console_errors: [],
    failed_requests: [],
    screenshot: null,
  };
  const outcome: ProbeOutcome = { ok: failure === null, error: null, response_time_ms: total, script };
  if (status !== null) outcome.status_code = status;
  if (failure !== null) {
    // What the run saw and must not show: the secrets and every value it extracted (not `url`).
    const hidden: Record<string, string> = { ...spec.settings.secrets };
    for (const name in vars) if (name !== 'url') hidden[`var.${name}`] = vars[name]!;
    const report = reports[failedAt]!;
    report.error = redactSecrets(failure.message, hidden);
    const step = spec.settings.steps[failedAt]!;
    outcome.error = {
      kind: failure.kind,
      message: redactSecrets(`step ${failedAt + 1} '${step.name}' failed: ${report.error}`, hidden),
    };
  }
  return outcome;
};
