import { z } from 'zod';
import type { SecretUser } from '../../domain/monitors/monitor-secrets.js';
import type { WorkspaceSecret } from '../../domain/secrets/secret-store.js';
import { iso, responseSchemas, time, uuidString } from '../responses.js';

/** A workspace secret as the API shows it: never its value, sealed or not. */
export const secretResponse = z
  .strictObject({
    name: z.string(),
    hint: z.string().describe("The value's last four characters when it has 12 or more, else empty."),
    created_at: time,
    updated_at: time,
    used_by: z
      .array(z.strictObject({ id: uuidString, display_name: z.string() }))
      .describe('The monitors that name it (multi-step and browser checks).'),
  })
  .register(responseSchemas, { id: 'Secret' });

export const secretJson = (
  s: WorkspaceSecret,
  usedBy: readonly SecretUser[],
): z.output<typeof secretResponse> => ({
  name: s.name,
  hint: s.hint,
  created_at: iso(s.created_at),
  updated_at: iso(s.updated_at),
  used_by: usedBy.map((u) => ({ id: u.id, display_name: u.display_name })),
});
