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

/** A web app session: who, where, the CSRF token every write must send, and when it ends. */
export const sessionResponse = z
  .strictObject({
    user: z.strictObject({ id: z.string(), email: z.string(), role: z.enum(['admin', 'member', 'viewer']) }),
    workspace: z.strictObject({ id: z.string(), subdomain: z.string(), name: z.string(), plan: z.string() }),
    csrf_token: z.string(),
    expires_at: time,
  })
  .register(responseSchemas, { id: 'Session' });
