import { Readable } from 'node:stream';
import { z } from 'zod';
import type { AuditFilter, AuditStore } from '../../domain/audit/audit-store.js';
import { isoTime, pageQuery } from '../query.js';
import { page } from '../responses.js';
import { type RouteDeps, route } from '../route.js';
import { auditEntryJson, auditEntryResponse } from './responses.js';

/** The widest window of time one read may ask for. */
export const MAX_AUDIT_WINDOW_DAYS = 366;

const filters = {
  actor: z
    .string()
    .min(1)
    .max(320)
    .optional()
    .describe('A user id, an API key id, or a name (email, key name).'),
  resource_type: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/, 'must be a resource type such as monitor or escalation_policy')
    .max(64)
    .optional(),
  action: z
    .string()
    .regex(/^[a-z][a-z0-9_]*\.[a-z0-9_.]+$/, 'must be an action such as monitor.update')
    .max(100)
    .optional(),
  from: isoTime.optional().describe('Entries at or after this time (ISO 8601 with a zone).'),
  to: isoTime.optional().describe('Entries before this time (ISO 8601 with a zone).'),
};

/**
 * from < to, at most MAX_AUDIT_WINDOW_DAYS apart (each bad field named by the 422). Zod runs this even
 * when a field failed, with that field's raw text: only two parsed times are compared.
 */
const windowRule = (q: { from?: unknown; to?: unknown }, ctx: z.RefinementCtx) => {
  if (!(q.from instanceof Date) || !(q.to instanceof Date)) return;
  if (q.from.getTime() >= q.to.getTime())
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
  else if (q.to.getTime() - q.from.getTime() > MAX_AUDIT_WINDOW_DAYS * 86_400_000)
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      message: `must be at most ${MAX_AUDIT_WINDOW_DAYS} days after from`,
    });
};

const listQuery = z.strictObject({ ...pageQuery, ...filters }).superRefine(windowRule);
const exportQuery = z.strictObject(filters).superRefine(windowRule);

const filterOf = (q: z.output<typeof exportQuery>): AuditFilter => ({
  ...(q.actor === undefined ? {} : { actor: q.actor }),
  ...(q.resource_type === undefined ? {} : { resource_type: q.resource_type }),
  ...(q.action === undefined ? {} : { action: q.action }),
  ...(q.from === undefined ? {} : { from: q.from }),
  ...(q.to === undefined ? {} : { to: q.to }),
});

/**
 * The audit log, for admins: read newest first with filters and cursor paging, or exported whole as
 * NDJSON, read a page at a time while it streams. Append-only: no route edits or deletes an entry
 * (the retention job alone removes old ones).
 */
export const auditLogRoutes = ({ store, logger }: RouteDeps<AuditStore>) => [
  route({
    method: 'get',
    path: '/audit-log',
    tag: 'Audit log',
    role: 'admin',
    response: page(auditEntryResponse),
    summary: `Entries of the audit log, newest first: who changed what (configuration and access) and every sign-in, successful or failed. Filters: \`actor\` (a user id, an API key id, or a name), \`resource_type\`, \`action\`, \`from\` and \`to\` (ISO 8601, at most ${MAX_AUDIT_WINDOW_DAYS} days apart). Entries are kept for config \`audit_retention_days\` (default 365).`,
    query: listQuery,
    async handler({ auth, query: { limit, cursor, ...q } }) {
      const p = await store.listAuditEntries(auth.workspace.id, filterOf(q), { limit, cursor });
      return { data: p.data.map(auditEntryJson), next_cursor: p.next_cursor };
    },
  }),
  route({
    method: 'get',
    path: '/audit-log/export',
    tag: 'Audit log',
    role: 'admin',
    response: null,
    binary: ['application/x-ndjson'],
    summary:
      'Every entry matching the filters (as for `GET /audit-log`), newest first, as NDJSON: one entry a line, in the shape `GET /audit-log` gives. Streamed, read from the store a page at a time.',
    query: exportQuery,
    async handler({ ctx, auth, query }) {
      const filter = filterOf(query);
      const workspaceId = auth.workspace.id;
      ctx.type = 'application/x-ndjson';
      ctx.set('Content-Disposition', 'attachment; filename="audit-log.ndjson"');
      async function* lines() {
        let cursor: string | undefined;
        do {
          const p = await store.listAuditEntries(workspaceId, filter, { limit: 100, cursor });
          yield p.data.map((e) => `${JSON.stringify(auditEntryJson(e))}\n`).join('');
          cursor = p.next_cursor ?? undefined;
        } while (cursor);
      }
      const stream = Readable.from(lines());
      stream.on('error', (err) => logger.error({ err }, 'audit log export failed'));
      return stream;
    },
  }),
];
