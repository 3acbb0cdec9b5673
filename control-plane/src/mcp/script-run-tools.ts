import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ok } from '../api-client/client.js';
import type { McpApi } from './api.js';

const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/**
 * What a multistep or browser check's run reported (GET …/results/{result_id}/script, or the monitor's
 * latest run): the API's JSON, unchanged. The screenshot is named by its API path, not sent.
 */
export const getScriptRun = {
  name: 'get_script_run',
  title: 'Steps and findings of a scripted check’s run',
  description:
    'For a multistep or browser monitor: one run’s steps (name, ok, duration_ms, error, status_code), failed_step (1-based index into steps, null when none failed), error_line (the browser script’s line), web_vitals (ttfb_ms, lcp_ms, cls), console_errors, failed_requests, and screenshot ({content_type, size, url}: url is the API path of the failure’s PNG or JPEG, fetched with the same key; null when none or no longer kept). Without result_id, the monitor’s newest run. Use it to say which step of a journey fails and why. A result id comes from get_monitor_results.',
  input: z.object({
    monitor_id: z.string().min(1).describe('The monitor’s id (a UUID).'),
    result_id: z
      .string()
      .min(1)
      .optional()
      .describe('A check result’s id, as get_monitor_results lists it (default: the newest run).'),
  }),
  annotations: READ,
  run: (api: McpApi, a: { monitor_id: string; result_id?: string | undefined }) =>
    a.result_id === undefined
      ? ok(api.client.GET('/monitors/{id}/script-runs/latest', { params: { path: { id: a.monitor_id } } }))
      : ok(
          api.client.GET('/monitors/{id}/results/{result_id}/script', {
            params: { path: { id: a.monitor_id, result_id: a.result_id } },
          }),
        ),
};
