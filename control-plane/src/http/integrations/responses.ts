import { z } from 'zod';
import { inboundPath } from '../../domain/integrations/integrations.js';
import { INTEGRATION_KINDS, type Integration } from '../../domain/types.js';
import { responseSchemas, time } from '../responses.js';

const iso = (d: Date) => d.toISOString();

/** An integration as the API shows it: never the key or its hash; the last four characters only. */
export const integrationJson = (i: Integration, baseUrl: string) => ({
  id: i.id,
  name: i.name,
  kind: i.kind,
  escalation_policy_id: i.escalation_policy_id,
  key_last_four: i.key_last_four,
  endpoint: `${baseUrl}${inboundPath(i.kind)}`,
  created_at: iso(i.created_at),
  updated_at: iso(i.updated_at),
});

export const integrationResponse = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    kind: z.enum(INTEGRATION_KINDS),
    escalation_policy_id: z.string().nullable(),
    key_last_four: z.string(),
    endpoint: z.string(),
    created_at: time,
    updated_at: time,
  })
  .register(responseSchemas, { id: 'Integration' });

/** An integration just created or re-keyed: its service key, shown this once. */
export const integrationWithKey = integrationResponse.extend({ service_key: z.string() });
