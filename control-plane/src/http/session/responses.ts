import { z } from 'zod';
import type { User, Workspace } from '../../domain/types.js';
import { responseSchemas, time } from '../responses.js';

export const userJson = (u: User) => ({ id: u.id, email: u.email, role: u.role });
export const workspaceJson = (w: Workspace) => ({
  id: w.id,
  subdomain: w.subdomain,
  name: w.name,
  plan: w.plan,
});

/** The user's second factors as GET /session shows them (domain/access/sign-in-challenge.ts). */
export const twoFactorJson = z.strictObject({
  totp: z.boolean(),
  passkeys: z.number().int(),
  recovery_codes_left: z.number().int(),
});

/**
 * A web app session: who, where, the CSRF token every write must send, and when it ends.
 * `two_factor_setup_required`: the workspace requires two-factor and the user has none yet; until one
 * is set up, other API calls with this session answer 403 `two_factor_setup_required`.
 */
export const sessionResponse = z
  .strictObject({
    user: z.strictObject({
      id: z.string(),
      email: z.string(),
      role: z.enum(['admin', 'member', 'viewer']),
      two_factor: twoFactorJson.optional(),
    }),
    workspace: z.strictObject({ id: z.string(), subdomain: z.string(), name: z.string(), plan: z.string() }),
    csrf_token: z.string(),
    expires_at: time,
    two_factor_setup_required: z.boolean().optional(),
  })
  .register(responseSchemas, { id: 'Session' });

/** A correct password of a user with a second factor: no session yet, a challenge to finish with it. */
export const secondFactorRequiredResponse = z
  .strictObject({
    second_factor_required: z.literal(true),
    methods: z.array(z.enum(['totp', 'passkey', 'recovery_code'])),
    challenge: z.string(),
  })
  .register(responseSchemas, { id: 'SecondFactorRequired' });
