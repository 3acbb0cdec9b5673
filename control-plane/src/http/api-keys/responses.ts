import { z } from 'zod';
import { keyStatus } from '../../domain/access/api-keys.js';
import type { ApiKey, User } from '../../domain/types.js';
import { iso, responseSchemas, time, uuidString } from '../responses.js';

export const apiKeyResponse = z
  .strictObject({
    id: uuidString,
    name: z.string(),
    kind: z.enum(['named', 'legacy']),
    status: z.enum(['active', 'expired', 'revoked']),
    last_four: z.string(),
    user_id: z.string(),
    user_email: z.string().nullable(),
    created_at: time,
    expires_at: time.nullable(),
    revoked_at: time.nullable(),
    last_used_at: time.nullable(),
    last_used_from: z.string().nullable(),
  })
  .register(responseSchemas, { id: 'ApiKey' });

/** Key as the list shows it: never the value or its hash; the last four characters only. */
export const apiKeyJson = (k: ApiKey, now: Date, owner?: User): z.output<typeof apiKeyResponse> => ({
  id: k.id,
  name: k.name,
  kind: k.kind,
  status: keyStatus(k, now),
  last_four: k.last_four,
  user_id: k.user_id,
  user_email: owner?.email ?? null,
  created_at: iso(k.created_at),
  expires_at: iso(k.expires_at),
  revoked_at: iso(k.revoked_at),
  last_used_at: iso(k.last_used_at),
  last_used_from: k.last_used_from,
});
