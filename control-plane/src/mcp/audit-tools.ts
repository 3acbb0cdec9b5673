import { z } from 'zod';
import { ok } from '../api-client/client.js';
import type { McpApi } from './api.js';

const text = (what: string) => z.string().optional().describe(what);
const time = (what: string) =>
  z.string().optional().describe(`${what}, as an ISO-8601 date-time with a zone, e.g. 2026-06-01T12:00:00Z.`);

/**
 * list_audit_log: who changed what in the workspace, for admins (the API refuses others with 403, and
 * the assistant is told so). One call of `GET /audit-log` with the same filters, its JSON unchanged.
 */
export const listAuditLog = {
  name: 'list_audit_log',
  title: 'List the audit log',
  description:
    'List the workspace\'s audit log (admins only), newest first: every change to configuration and access and every sign-in, each with at, actor {type: user (a web session), api_key, oauth_client, cli or system; id; name: the email or the key\'s or client\'s name}, ip, user_agent, action (e.g. monitor.update, api_key.revoke, session.sign_in_failed), resource_type, resource_id and changes (field → [before, after], secrets shown as "[redacted]"). Use it to answer "who changed this monitor?" or "who signed in from where?". Returns {"data": [...], "next_cursor"}; pass next_cursor as cursor for more.',
  input: z.object({
    actor: text(
      "Only entries of this actor: a user's email, an API key's or OAuth client's name, or a user's or key's id.",
    ),
    resource_type: text(
      'Only entries about this kind of record, e.g. monitor, heartbeat, api_key, user, sso, session.',
    ),
    action: text('Only this action, e.g. monitor.update, monitor.delete, session.sign_in_failed.'),
    from: time('Only entries at or after this time'),
    to: time('Only entries before this time'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe('At most this many entries (1-100, default 50).'),
    cursor: z
      .string()
      .optional()
      .describe('Pass the next_cursor of the previous page to get the next one; omit for the first page.'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (api: McpApi, a: Record<string, unknown>) =>
    ok(api.client.GET('/audit-log', { params: { query: a } })),
};
