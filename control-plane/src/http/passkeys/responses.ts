import { z } from 'zod';
import { responseSchemas, time } from '../responses.js';

export { passkeyJson } from '../../domain/access/passkeys.js';

/** A passkey as its owner sees it (never its key). */
export const passkeyResponse = z
  .strictObject({ id: z.string(), name: z.string(), created_at: time, last_used_at: time.nullable() })
  .register(responseSchemas, { id: 'Passkey' });

export const passkeyListResponse = z.strictObject({ data: z.array(passkeyResponse) });

/**
 * WebAuthn options as the browser's navigator.credentials takes them (@simplewebauthn/browser's
 * `optionsJSON`); their fields are WebAuthn's (W3C Web Authentication, level 3).
 */
export const creationOptionsResponse = z
  .looseObject({
    challenge: z.string(),
    rp: z.looseObject({ id: z.string(), name: z.string() }),
    user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  })
  .register(responseSchemas, { id: 'PasskeyCreationOptions' });

export const requestOptionsResponse = z
  .looseObject({ challenge: z.string(), rpId: z.string() })
  .register(responseSchemas, { id: 'PasskeyRequestOptions' });
