import { z } from 'zod';
import type { AuditEntry } from '../../domain/audit/audit-store.js';
import { responseSchemas, time } from '../responses.js';

export const auditEntryResponse = z
  .strictObject({
    id: z.string(),
    at: time,
    actor: z.strictObject({
      type: z.enum(['user', 'api_key', 'oauth_client', 'cli', 'system']),
      id: z.string().nullable(),
      name: z.string(),
    }),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    action: z.string(),
    resource_type: z.string(),
    resource_id: z.string().nullable(),
    changes: z
      .record(z.string(), z.tuple([z.unknown(), z.unknown()]))
      .nullable()
      .describe('Field → [before, after] of what changed, secrets redacted; null when no record changed.'),
  })
  .register(responseSchemas, { id: 'AuditEntry' });

export const auditEntryJson = (e: AuditEntry): z.output<typeof auditEntryResponse> => ({
  id: e.id,
  at: e.at.toISOString(),
  actor: { type: e.actor.type, id: e.actor.id, name: e.actor.name },
  ip: e.ip,
  user_agent: e.user_agent,
  action: e.action,
  resource_type: e.resource_type,
  resource_id: e.resource_id,
  changes: e.changes,
});
