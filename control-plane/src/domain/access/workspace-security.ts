import { z } from 'zod';

/** PUT /security: the workspace's sign-in policy (domain/access/second-factor-store.ts, WorkspaceSecurity). */
export const workspaceSecurityInput = z.strictObject({ require_2fa: z.boolean() });
