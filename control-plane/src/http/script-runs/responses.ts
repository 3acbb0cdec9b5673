import { z } from 'zod';
import type { ScriptRun } from '../../domain/results/script-run-store.js';
import { responseSchemas, time } from '../responses.js';
import { API_PREFIX } from '../service-endpoints.js';

export const scriptRunResponse = z
  .strictObject({
    result_id: z.string(),
    monitor_id: z.string(),
    location: z.string(),
    started_at: time,
    ok: z.boolean(),
    steps: z.array(
      z.strictObject({
        name: z.string(),
        ok: z.boolean(),
        duration_ms: z.number(),
        error: z.string().nullable(),
        status_code: z.number().int().nullable(),
      }),
    ),
    failed_step: z.number().int().nullable().describe('1-based index into steps; null: no step failed'),
    error_line: z.number().int().nullable().describe('browser: the script’s line the error came from'),
    web_vitals: z
      .strictObject({ ttfb_ms: z.number(), lcp_ms: z.number().nullable(), cls: z.number().nullable() })
      .nullable(),
    console_errors: z.array(z.string()),
    failed_requests: z.array(z.string()),
    screenshot: z
      .strictObject({
        content_type: z.enum(['image/jpeg', 'image/png']),
        size: z.number().int(),
        url: z.string().describe('The screenshot’s path in this API'),
      })
      .nullable(),
  })
  .register(responseSchemas, { id: 'ScriptRun' });

/** The screenshot's path in the API (the result id escaped: it holds `:`). */
export const screenshotPath = (monitorId: string, resultId: string) =>
  `${API_PREFIX}/monitors/${encodeURIComponent(monitorId)}/results/${encodeURIComponent(resultId)}/screenshot`;

export const scriptRunJson = (r: ScriptRun): z.output<typeof scriptRunResponse> => ({
  result_id: r.result_id,
  monitor_id: r.monitor_id,
  location: r.location,
  started_at: r.started_at.toISOString(),
  ok: r.ok,
  steps: r.steps,
  failed_step: r.failed_step,
  error_line: r.error_line,
  web_vitals: r.web_vitals,
  console_errors: r.console_errors,
  failed_requests: r.failed_requests,
  screenshot: r.screenshot ? { ...r.screenshot, url: screenshotPath(r.monitor_id, r.result_id) } : null,
});
