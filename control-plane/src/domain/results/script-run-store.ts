/**
 * What a scripted check's run reported beyond its result (CheckResult.script): its steps and, for
 * browser checks, what the page showed. One per result of a multistep or browser monitor, keyed by the
 * result's id, kept beside the results (not in them: the results' hot path stays as it is) and under
 * the same retention (config `result_retention_days`).
 */
export interface ScriptStepRecord {
  name: string;
  ok: boolean;
  duration_ms: number;
  error: string | null;
  status_code: number | null;
}

export interface ScriptRun {
  result_id: string;
  workspace_id: string;
  monitor_id: string;
  location: string;
  started_at: Date;
  ok: boolean;
  steps: ScriptStepRecord[];
  /** 1-based index into `steps`; null: no step failed. */
  failed_step: number | null;
  error_line: number | null;
  web_vitals: { ttfb_ms: number; lcp_ms: number | null; cls: number | null } | null;
  console_errors: string[];
  failed_requests: string[];
  /** Set when a screenshot is stored for this run (ScriptScreenshot). */
  screenshot: { content_type: 'image/jpeg' | 'image/png'; size: number } | null;
}

/** A failed browser run's screenshot: at most 256 KiB; at most SCREENSHOTS_PER_MONITOR kept per monitor. */
export interface ScriptScreenshot {
  result_id: string;
  workspace_id: string;
  monitor_id: string;
  taken_at: Date;
  content_type: 'image/jpeg' | 'image/png';
  data: Uint8Array;
}

/** Script runs and screenshots. Adapters: store/sqlite/script-runs.ts, store/mongo/script-runs.ts. */
export interface ScriptRunStore {
  /**
   * Stores runs and screenshots of one batch of results (a batched write), each once: a run or
   * screenshot whose result_id is already stored (a replayed batch) is left as it is.
   */
  addScriptRuns(runs: readonly ScriptRun[], screenshots: readonly ScriptScreenshot[]): Promise<void>;
  getScriptRun(workspaceId: string, monitorId: string, resultId: string): Promise<ScriptRun | null>;
  /** The newest run of a monitor (by started_at), or null. */
  latestScriptRun(workspaceId: string, monitorId: string): Promise<ScriptRun | null>;
  getScreenshot(workspaceId: string, monitorId: string, resultId: string): Promise<ScriptScreenshot | null>;
  /**
   * Retention: deletes runs started before `before`, screenshots taken before `screenshotsBefore`, and
   * each monitor's screenshots beyond its newest `keepPerMonitor`. Returns how many rows went.
   */
  pruneScriptRuns(before: Date, screenshotsBefore: Date, keepPerMonitor: number): Promise<number>;
}
