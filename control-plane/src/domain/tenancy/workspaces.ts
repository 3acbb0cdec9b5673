import { AppError, newId } from '@lookout/shared';
import { z } from 'zod';
import { type EscalationPolicy, ROLES, type Role, type User, type Workspace } from '../types.js';
import { nameText, parseOrThrow } from '../validation.js';
import { generatePassword, hashPassword } from './passwords.js';
import type { Plan } from './plans.js';
import type { TenancyStore } from './tenancy-store.js';

const RESERVED = new Set(['www', 'api', 'app', 'admin', 'hb', 'status', 'mail']);

export const workspaceInput = z.strictObject({
  subdomain: z
    .string()
    .regex(
      /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
      'must be 1-63 lower-case letters, digits or dashes, not starting or ending with a dash',
    )
    .refine((s) => !RESERVED.has(s), 'is reserved'),
  admin_email: z.email(),
  plan: z.string().min(1),
  name: nameText(200).optional(),
});

export const userInput = z.strictObject({ email: z.email(), role: z.enum(ROLES) });

/** A workspace is born with its admin and its default escalation policy (notify the admins at once). */
export const createWorkspace = async (
  store: TenancyStore,
  plans: Record<string, Plan>,
  input: unknown,
  now: Date,
): Promise<{ workspace: Workspace; admin: User; password: string }> => {
  const v = parseOrThrow(workspaceInput, input);
  if (!plans[v.plan]) {
    throw new AppError('validation_failed', 'The request has invalid fields.', [
      { field: 'plan', message: `must be one of: ${Object.keys(plans).join(', ')}` },
    ]);
  }
  const workspace: Workspace = {
    id: newId(),
    subdomain: v.subdomain,
    name: v.name ?? v.subdomain,
    plan: v.plan,
    created_at: now,
  };
  const password = generatePassword();
  const admin: User = {
    id: newId(),
    workspace_id: workspace.id,
    email: v.admin_email.toLowerCase(),
    role: 'admin',
    password_hash: await hashPassword(password),
    created_at: now,
  };
  const defaultPolicy: EscalationPolicy = {
    id: newId(),
    workspace_id: workspace.id,
    name: 'Default',
    is_default: true,
    steps: [{ wait_minutes: 0, notify_user_ids: [admin.id], notify_channel_ids: [] }],
    repeat: 0,
    support_hours: null,
    created_at: now,
    updated_at: now,
  };
  await store.createWorkspace({ workspace, admin, defaultPolicy });
  return { workspace, admin, password };
};

export const createUser = async (
  store: TenancyStore,
  workspace: Workspace,
  input: { email: string; role: Role },
  now: Date,
): Promise<{ user: User; password: string }> => {
  const v = parseOrThrow(userInput, input);
  const password = generatePassword();
  const user: User = {
    id: newId(),
    workspace_id: workspace.id,
    email: v.email.toLowerCase(),
    role: v.role,
    password_hash: await hashPassword(password),
    created_at: now,
  };
  await store.createUser(user);
  return { user, password };
};
