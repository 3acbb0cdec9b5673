import { z } from 'zod';
import type { SecondFactorStore } from '../../domain/access/second-factor-store.js';
import type { Session } from '../../domain/access/sessions.js';
import { hasSecondFactor, twoFactorSummary } from '../../domain/access/sign-in-challenge.js';
import type { User, Workspace } from '../../domain/types.js';
import { responseSchemas, time } from '../responses.js';

export const userJson = (u: User) => ({ id: u.id, email: u.email, role: u.role });
export const workspaceJson = (w: Workspace) => ({
  id: w.id,
  subdomain: w.subdomain,
  name: w.name,
  plan: w.plan,
});

/**
 * The session response of every sign-in and of GET /session: with the user's second factors and whether
 * one must still be set up (the workspace requires two-factor and this session was marked for it).
 */
export const sessionBody = async (
  store: Pick<SecondFactorStore, 'getSecondFactors'>,
  ws: Workspace,
  user: User,
  session: Session,
  csrf: string,
) => {
  const factors = await store.getSecondFactors(ws.id, user.id);
  return {
    user: { ...userJson(user), two_factor: twoFactorSummary(factors) },
    workspace: workspaceJson(ws),
    csrf_token: csrf,
    expires_at: session.expires_at.toISOString(),
    two_factor_setup_required: session.two_factor_setup === true && !hasSecondFactor(factors),
  };
};

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
