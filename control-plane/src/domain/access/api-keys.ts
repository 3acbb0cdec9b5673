import { AppError, digestsEqual, hashSecret, newId, randomToken, validationError } from '@lookout/shared';
import { z } from 'zod';
import { hasRole } from '../tenancy/roles.js';
import type { TenancyStore } from '../tenancy/tenancy-store.js';
import type { ApiKey, User, Workspace } from '../types.js';
import { nameText, parseOrThrow } from '../validation.js';

export const MAX_ACTIVE_KEYS_PER_USER = 25;
export const KEY_NAME_MAX = 100;
export const EXPIRY_CHOICES = ['none', '1d', '7d', '30d', '90d'] as const;
const DAY_MS = 86_400_000;
const presetDays: Record<string, number> = { '1d': 1, '7d': 7, '30d': 30, '90d': 90 };

/**
 * Expiry: a preset, or a custom future date (valid through that UTC day) or date-time: when the key
 * expires (null: never), or why `expiry` is not acceptable at `now`.
 */
const readExpiry = (expiry: string, now: Date): { at: Date | null } | { problem: string } => {
  if (expiry === 'none') return { at: null };
  const days = presetDays[expiry];
  if (days !== undefined) return { at: new Date(now.getTime() + days * DAY_MS) };
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(expiry);
  const dateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(expiry);
  const at = dateOnly
    ? new Date(`${expiry}T00:00:00Z`).getTime() + DAY_MS
    : dateTime
      ? Date.parse(expiry)
      : Number.NaN;
  if (Number.isNaN(at))
    return {
      problem: 'must be none, 1d, 7d, 30d, 90d, or a date (YYYY-MM-DD) or date-time with a time zone',
    };
  if (at <= now.getTime()) return { problem: 'must be in the future' };
  return { at: new Date(at) };
};

/** When a key with this `expiry` expires (null: never); a 422 naming `expiry` when it is not acceptable. */
export const parseExpiry = (expiry: string, now: Date): Date | null => {
  const e = readExpiry(expiry, now);
  if ('problem' in e) throw validationError([{ field: 'expiry', message: e.problem }]);
  return e.at;
};

export const newKeyInput = z.strictObject({
  name: nameText(KEY_NAME_MAX),
  expiry: z.string().min(1),
});

/** A fresh key value: `ak.` + 256 random bits. Returned once; only its hash is kept. */
const mintKey = (
  workspace: Workspace,
  user: User,
  kind: ApiKey['kind'],
  name: string,
  expiresAt: Date | null,
  now: Date,
) => {
  const value = randomToken('ak.');
  const record: ApiKey = {
    id: newId(),
    workspace_id: workspace.id,
    user_id: user.id,
    kind,
    name,
    key_hash: hashSecret(value),
    last_four: value.slice(-4),
    created_at: now,
    expires_at: expiresAt,
    revoked_at: null,
    last_used_at: null,
    last_used_from: null,
  };
  return { record, value };
};

export const createNamedKey = async (
  store: TenancyStore,
  workspace: Workspace,
  user: User,
  input: unknown,
  now: Date,
): Promise<{ record: ApiKey; value: string }> => {
  // The expiry is judged with the other fields, so one answer names every bad one.
  const withExpiry = newKeyInput.extend({
    expiry: newKeyInput.shape.expiry.superRefine((v, ctx) => {
      const e = readExpiry(v, now);
      if ('problem' in e) ctx.addIssue({ code: 'custom', message: e.problem });
    }),
  });
  const { name, expiry } = parseOrThrow(withExpiry, input);
  const minted = mintKey(workspace, user, 'named', name, parseExpiry(expiry, now), now);
  const outcome = await store.insertApiKey(minted.record, { maxActive: MAX_ACTIVE_KEYS_PER_USER, now });
  if (outcome === 'limit_reached') {
    throw new AppError(
      'limit_reached',
      `${user.email} already has ${MAX_ACTIVE_KEYS_PER_USER} active API keys, the most a user can have. Revoke one you no longer use, then create the new key.`,
    );
  }
  return minted;
};

export const regenerateLegacyKey = async (
  store: TenancyStore,
  workspace: Workspace,
  user: User,
  now: Date,
) => {
  const minted = mintKey(workspace, user, 'legacy', 'Legacy API key', null, now);
  await store.replaceLegacyKey(minted.record, now);
  return minted;
};

/**
 * Whose keys a user may list: admins any one user's, or (no user named) every key of the workspace;
 * everyone else only their own (naming another user is refused). Returns the owner to list by.
 */
export const keyListOwner = (user: User, requested: string | undefined): string | undefined => {
  const admin = hasRole(user.role, 'admin');
  if (requested && !admin && requested !== user.id) {
    throw new AppError('forbidden', "Only admins can list other users' keys.");
  }
  return admin ? requested : user.id;
};

/** Revokes a key, at once and for good: a user's own, or (admins) any key of the workspace; else not found. */
export const revokeKey = async (
  store: Pick<TenancyStore, 'getApiKey' | 'revokeApiKey'>,
  workspaceId: string,
  user: User,
  id: string,
  now: Date,
): Promise<ApiKey> => {
  const key = await store.getApiKey(workspaceId, id);
  if (!key || (key.user_id !== user.id && !hasRole(user.role, 'admin'))) {
    throw new AppError('not_found', 'API key not found.');
  }
  return (await store.revokeApiKey(workspaceId, key.id, now))!;
};

export type KeyStatus = 'active' | 'expired' | 'revoked';
export const keyStatus = (k: ApiKey, now: Date): KeyStatus =>
  k.revoked_at ? 'revoked' : k.expires_at && k.expires_at.getTime() <= now.getTime() ? 'expired' : 'active';

export const AUTH_MESSAGES = {
  missing: 'Send your API key in the X-API-Key header.',
  invalid: 'API key is not valid.',
  revoked: 'API key has been revoked.',
  expired: 'API key has expired',
  otherSubdomain: 'API Key is not valid for this subdomain',
  noUser: 'The user of this API key no longer exists.',
} as const;

/** How often a key's last-used time is written: at most once a minute per key, not once a request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Who is calling: the key's own user with that user's current role, in the workspace the request is
 * addressed to. Every refusal is a 401 with the spec's wording.
 */
export const authenticateKey = async (
  store: TenancyStore,
  value: string | undefined,
  workspace: Workspace | null,
  now: Date,
): Promise<{ key: ApiKey; user: User }> => {
  if (!value) throw new AppError('unauthorized', AUTH_MESSAGES.missing);
  const hash = hashSecret(value);
  const key = await store.findApiKeyByHash(hash);
  // The lookup is by hash; compare again in constant time so no early-exit comparison touches the secret.
  if (!key || !digestsEqual(key.key_hash, hash)) throw new AppError('unauthorized', AUTH_MESSAGES.invalid);
  if (!workspace || key.workspace_id !== workspace.id)
    throw new AppError('unauthorized', AUTH_MESSAGES.otherSubdomain);
  const status = keyStatus(key, now);
  if (status === 'revoked') throw new AppError('unauthorized', AUTH_MESSAGES.revoked);
  if (status === 'expired') throw new AppError('unauthorized', AUTH_MESSAGES.expired);
  const user = await store.getUser(workspace.id, key.user_id);
  if (!user) throw new AppError('unauthorized', AUTH_MESSAGES.noUser);
  return { key, user };
};

export const shouldRecordUse = (key: ApiKey, now: Date) =>
  !key.last_used_at || now.getTime() - key.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS;
