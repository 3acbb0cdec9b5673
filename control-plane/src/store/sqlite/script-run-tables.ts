/** Table layouts of scripted checks' runs (tables.ts re-exports them; a new column goes here and into a new migration). */
import type { ColumnKind, Table } from './tables.js';

const table = (name: string, columns: Record<string, ColumnKind>): Table => ({ name, columns });

/** Scripted checks' runs (domain/results/script-run-store.ts), keyed by their result's id. */
export const scriptRuns = table('script_runs', {
  result_id: 'text',
  workspace_id: 'text',
  monitor_id: 'text',
  location: 'text',
  started_at: 'date',
  ok: 'bool',
  steps: 'json',
  failed_step: 'int',
  error_line: 'int',
  web_vitals: 'json',
  console_errors: 'json',
  failed_requests: 'json',
  screenshot: 'json',
});

/** A failed browser run's screenshot (the image's bytes), keyed by its result's id. */
export const scriptScreenshots = table('script_screenshots', {
  result_id: 'text',
  workspace_id: 'text',
  monitor_id: 'text',
  taken_at: 'date',
  content_type: 'text',
  data: 'blob',
});
