import { z } from 'zod';
import { ok } from '../api-client/client.js';
import type { McpApi } from './api.js';

/**
 * list_secrets: the workspace secrets multi-step and browser checks name (`{{secrets.NAME}}`,
 * `secrets.NAME`), with a hint of each value and the monitors using it. Values are write-only in the
 * API, so no tool can read one; setting them stays with people (the web app or the API, as an admin).
 */
export const listSecrets = {
  name: 'list_secrets',
  title: 'List workspace secrets',
  description:
    'List the workspace secrets that multi-step checks use as {{secrets.NAME}} and browser checks as secrets.NAME: each name, a hint (the last four characters of a long value, else empty) and used_by (the monitors naming it). Values are never returned. Use it before create_monitor to name only secrets that are set (a monitor naming a secret that is not set is refused).',
  input: z.object({}),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (api: McpApi) => ok(api.client.GET('/secrets')),
};
