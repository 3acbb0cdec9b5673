import { z } from 'zod';
import type { Invitation } from '../../domain/access/member-store.js';
import type { SignInActivity } from '../../domain/access/sign-in-store.js';
import type { User } from '../../domain/types.js';
import { ROLES } from '../../domain/types.js';
import { iso, responseSchemas, time, uuidString } from '../responses.js';

export const signInActivityResponse = z
  .strictObject({
    last_sign_in_at: time.nullable(),
    failed_sign_ins: z.strictObject({
      count: z.number().int(),
      since: time.nullable(),
      last_at: time.nullable(),
      last_address: z.string().nullable(),
    }),
  })
  .register(responseSchemas, { id: 'SignInActivity' });

/**
 * A user's sign-ins (domain/access/sign-in-store.ts): when they last signed in, and the latest failed web
 * sign-ins in a row (count, since the successful sign-in before them, when and from where the last).
 */
export const signInActivityJson = (
  a: SignInActivity | undefined,
): z.output<typeof signInActivityResponse> => ({
  last_sign_in_at: iso(a?.last_sign_in_at ?? null),
  failed_sign_ins: {
    count: a?.failed_count ?? 0,
    since: iso(a?.failed_since ?? null),
    last_at: iso(a?.last_failed_at ?? null),
    last_address: a?.last_failed_address ?? null,
  },
});

/** A user as admins list them: never a password hash. */
export const userResponse = z
  .strictObject({
    id: uuidString,
    email: z.string(),
    role: z.enum(ROLES as ['admin', 'member', 'viewer']),
    created_at: time,
  })
  .register(responseSchemas, { id: 'User' });

export const userJson = (u: User): z.output<typeof userResponse> => ({
  id: u.id,
  email: u.email,
  role: u.role,
  created_at: u.created_at.toISOString(),
});

/**
 * A user as admins (and, for themselves, users) see them: `status` is `invited` until they have set a
 * password; `last_sign_in_at` and `failed_sign_ins` tell whether someone is guessing their password.
 */
export const memberJson = (u: User, invitation?: Invitation, activity?: SignInActivity) => ({
  ...userJson(u),
  status: u.password_hash ? ('active' as const) : ('invited' as const),
  invitation_expires_at: !u.password_hash && invitation ? invitation.expires_at.toISOString() : null,
  ...signInActivityJson(activity),
});

export const memberResponse = userResponse
  .extend({ status: z.enum(['active', 'invited']), invitation_expires_at: time.nullable() })
  .extend(signInActivityResponse.shape)
  .register(responseSchemas, { id: 'Member' });

/** DELETE /users/{id}: what the removal changed elsewhere, in the same step. */
export const removedUserResponse = z
  .strictObject({
    policies: z
      .array(z.strictObject({ id: uuidString, name: z.string() }))
      .describe('Escalation policies the user was taken out of.'),
    schedules: z
      .array(
        z.strictObject({
          id: uuidString,
          name: z.string(),
          empty_layers: z
            .array(z.number().int())
            .describe('1-based numbers of the layers now left with no users (they cover nobody).'),
        }),
      )
      .describe('On-call schedules the user was taken out of (the rotation continues without them).'),
  })
  .register(responseSchemas, { id: 'RemovedUser' });
