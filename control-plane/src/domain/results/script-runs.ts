import type { CheckResultRecord, MonitorType } from '../types.js';
import type { ScriptRun, ScriptRunStore, ScriptScreenshot, ScriptStepRecord } from './script-run-store.js';

/**
 * What a scripted check's run reported (CheckResult.script), as the control plane keeps it: beside the
 * results, one ScriptRun per result of a multistep or browser monitor, and the screenshot of a failed
 * browser run (docs/scripted-checks.md, "Runs, steps and screenshots"; docs/decisions.md).
 *
 * An agent's report is bounded here before anything is kept: at most MAX_STEPS steps, strings cut to
 * their limits, at most MAX_PAGE_LINES console errors and failed requests, and a screenshot only when
 * it is a PNG or JPEG whose first bytes say so, of at most MAX_SCREENSHOT_BYTES (otherwise dropped,
 * the run kept).
 */

export const MAX_STEPS = 50;
export const MAX_STEP_NAME = 100;
export const MAX_STEP_ERROR = 2000;
export const MAX_PAGE_LINES = 20;
export const MAX_PAGE_LINE = 500;
export const MAX_SCREENSHOT_BYTES = 256 * 1024;
/** Screenshots are kept this many days (runs: config `result_retention_days`, as the results)… */
export const SCREENSHOT_RETENTION_DAYS = 7;
/** …and at most this many per monitor, the newest. */
export const SCREENSHOTS_PER_MONITOR = 20;

export type ScreenshotType = ScriptScreenshot['content_type'];

/** A report as decoded and bounded (rpc/wire.ts), not yet tied to a stored result. */
export interface IncomingScript {
  steps: ScriptStepRecord[];
  failed_step: number | null;
  error_line: number | null;
  web_vitals: ScriptRun['web_vitals'];
  console_errors: string[];
  failed_requests: string[];
  screenshot: { content_type: ScreenshotType; data: Uint8Array } | null;
}

/** The report as an agent sent it (the wire's fields, protobuf-es names). */
export interface ReportedScript {
  steps: readonly { name: string; ok: boolean; durationMs: number; error: string; statusCode: number }[];
  failedStep: number;
  errorLine: number;
  webVitals?: { measured: boolean; ttfbMs: number; lcpMs: number; cls: number } | undefined;
  consoleErrors: readonly string[];
  failedRequests: readonly string[];
  screenshot: Uint8Array;
  screenshotType: string;
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const startsWith = (bytes: Uint8Array, magic: number[]) =>
  bytes.length > magic.length && magic.every((b, i) => bytes[i] === b);

/** The screenshot's type when its bytes are what the type says and small enough; null: drop it. */
export const screenshotType = (type: string, bytes: Uint8Array): ScreenshotType | null => {
  if (bytes.length === 0 || bytes.length > MAX_SCREENSHOT_BYTES) return null;
  if (type === 'image/png' && startsWith(bytes, PNG)) return 'image/png';
  if (type === 'image/jpeg' && startsWith(bytes, JPEG)) return 'image/jpeg';
  return null;
};

const clip = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s);
const lines = (list: readonly string[]) => list.slice(0, MAX_PAGE_LINES).map((s) => clip(s, MAX_PAGE_LINE));
const count = (n: number) => (Number.isFinite(n) && n > 0 ? Math.round(n) : 0);

/** An agent's report, bounded (see above); every number made a finite count. */
export const boundScript = (r: ReportedScript): IncomingScript => {
  const steps = r.steps.slice(0, MAX_STEPS).map((s) => ({
    name: clip(s.name, MAX_STEP_NAME),
    ok: s.ok,
    duration_ms: count(s.durationMs),
    error: s.ok || s.error === '' ? null : clip(s.error, MAX_STEP_ERROR),
    status_code: count(s.statusCode) || null,
  }));
  const failed = count(r.failedStep);
  const v = r.webVitals;
  const type = screenshotType(r.screenshotType, r.screenshot);
  return {
    steps,
    failed_step: failed >= 1 && failed <= steps.length ? failed : null,
    error_line: count(r.errorLine) || null,
    web_vitals: v?.measured
      ? {
          ttfb_ms: count(v.ttfbMs),
          lcp_ms: count(v.lcpMs) || null,
          cls: Number.isFinite(v.cls) && v.cls >= 0 ? v.cls : null,
        }
      : null,
    console_errors: lines(r.consoleErrors),
    failed_requests: lines(r.failedRequests),
    // A copy: the decoded message's bytes are a view of the whole request's buffer.
    screenshot: type ? { content_type: type, data: r.screenshot.slice() } : null,
  };
};

/** Monitor types whose results carry a script report: any other type's report is ignored. */
export const SCRIPTED_TYPES: ReadonlySet<MonitorType> = new Set<MonitorType>(['multistep', 'browser']);

/**
 * The runs and screenshots of a batch's results (each paired with its report), ready for one
 * `addScriptRuns`. A screenshot's time is when it was received (the control plane's clock, as the
 * results' retention): an agent's clock cannot keep it longer.
 */
export const scriptRunsOf = (
  reported: readonly { result: CheckResultRecord; script: IncomingScript }[],
): { runs: ScriptRun[]; screenshots: ScriptScreenshot[] } => {
  const runs: ScriptRun[] = [];
  const screenshots: ScriptScreenshot[] = [];
  for (const { result: r, script: s } of reported) {
    runs.push({
      result_id: r.id,
      workspace_id: r.workspace_id,
      monitor_id: r.monitor_id,
      location: r.location,
      started_at: r.started_at,
      ok: r.ok,
      steps: s.steps,
      failed_step: s.failed_step,
      error_line: s.error_line,
      web_vitals: s.web_vitals,
      console_errors: s.console_errors,
      failed_requests: s.failed_requests,
      screenshot: s.screenshot
        ? { content_type: s.screenshot.content_type, size: s.screenshot.data.length }
        : null,
    });
    if (s.screenshot)
      screenshots.push({
        result_id: r.id,
        workspace_id: r.workspace_id,
        monitor_id: r.monitor_id,
        taken_at: r.received_at,
        content_type: s.screenshot.content_type,
        data: s.screenshot.data,
      });
  }
  return { runs, screenshots };
};

/** Stores a batch's runs in one write (nothing when it has none); a replay stores nothing twice. */
export const storeScriptRuns = async (
  store: Pick<ScriptRunStore, 'addScriptRuns'>,
  reported: readonly { result: CheckResultRecord; script: IncomingScript }[],
) => {
  if (reported.length === 0) return;
  const { runs, screenshots } = scriptRunsOf(reported);
  await store.addScriptRuns(runs, screenshots);
};

/** Retention cuts at `now`: runs as the results, screenshots SCREENSHOT_RETENTION_DAYS. */
export const scriptRunCuts = (now: Date, resultRetentionDays: number) => ({
  before: new Date(now.getTime() - resultRetentionDays * 86_400_000),
  screenshotsBefore: new Date(now.getTime() - SCREENSHOT_RETENTION_DAYS * 86_400_000),
});

/**
 * Retention at `now` (the jobs' prune-results pass): runs as the results, screenshots older than
 * SCREENSHOT_RETENTION_DAYS or beyond each monitor's newest SCREENSHOTS_PER_MONITOR. Returns how many
 * rows went.
 */
export const pruneScriptRunsAt = (
  store: Pick<ScriptRunStore, 'pruneScriptRuns'>,
  now: Date,
  resultRetentionDays: number,
) => {
  const cuts = scriptRunCuts(now, resultRetentionDays);
  return store.pruneScriptRuns(cuts.before, cuts.screenshotsBefore, SCREENSHOTS_PER_MONITOR);
};
