import { z } from 'zod';
import {
  createNamedKey,
  keyListOwner,
  newKeyInput,
  regenerateLegacyKey,
  revokeKey,
} from '../../domain/access/api-keys.js';
import type { TenancyStore } from '../../domain/tenancy/tenancy-store.js';
import type { ApiKey, User } from '../../domain/types.js';
import { uuid } from '../../domain/validation.js';
import { allPages } from '../../store/cursor.js';
import { page } from '../responses.js';
import { type RouteDeps, route } from '../route.js';
import { apiKeyJson, apiKeyResponse } from './responses.js';

/** A key just made: the value, shown this once. */
const apiKeyWithValue = apiKeyResponse.extend({ key: z.string() });

import { pageQuery } from '../query.js';

export const apiKeyRoutes = ({ store, clock }: RouteDeps<TenancyStore>) => [
  route({
    method: 'get',
    path: '/api-keys',
    tag: 'API keys',
    response: page(apiKeyResponse).extend({ legacy_keys: z.array(apiKeyResponse) }),
    summary:
      'Your named API keys (admins: every key of the workspace), newest first and paged, with the last four characters, expiry and last use. Active legacy keys are listed separately, whole, in `legacy_keys` (one per user at most).',
    query: z.strictObject({ ...pageQuery, user_id: uuid().optional() }),
    async handler({ auth, query }) {
      const { user_id, ...pageOf } = query;
      const userId = keyListOwner(auth.user, user_id);
      const named = await store.listApiKeys(auth.workspace.id, { ...pageOf, userId, kind: 'named' });
      const legacy = (
        await allPages((q) => store.listApiKeys(auth.workspace.id, { ...q, userId, kind: 'legacy' }))
      ).filter((k) => !k.revoked_at);
      const owners = new Map<string, User | null>();
      for (const k of [...named.data, ...legacy])
        if (!owners.has(k.user_id)) owners.set(k.user_id, await store.getUser(auth.workspace.id, k.user_id));
      const now = clock.now();
      const json = (k: ApiKey) => apiKeyJson(k, now, owners.get(k.user_id) ?? undefined);
      return { data: named.data.map(json), next_cursor: named.next_cursor, legacy_keys: legacy.map(json) };
    },
  }),
  route({
    method: 'post',
    path: '/api-keys',
    tag: 'API keys',
    response: apiKeyWithValue,
    auth: 'session',
    summary:
      'Create a named key for yourself (web app session only: an API key cannot mint keys). expiry: none, 1d, 7d, 30d, 90d, or a date (YYYY-MM-DD, valid through that UTC day) or date-time. The value is in `key`, shown this once.',
    body: newKeyInput,
    status: 201,
    responses: {
      201: 'The key, with its value in `key` (shown once)',
      403: 'Called with an API key',
      409: 'You already have 25 active keys',
    },
    async handler({ auth, body }) {
      const now = clock.now();
      const { record, value } = await createNamedKey(store, auth.workspace, auth.user, body, now);
      return { ...apiKeyJson(record, now, auth.user), key: value };
    },
  }),
  route({
    method: 'post',
    path: '/api-keys/legacy/regenerate',
    audit: { action: 'api_key.regenerate', resource_type: 'api_key' },
    tag: 'API keys',
    response: apiKeyWithValue,
    auth: 'session',
    summary:
      'Regenerate your legacy key (web app session only): the old value stops at once; the new one is in `key`, shown this once.',
    status: 201,
    responses: {
      201: 'The new legacy key, with its value in `key` (shown once)',
      403: 'Called with an API key',
    },
    async handler({ auth }) {
      const now = clock.now();
      const { record, value } = await regenerateLegacyKey(store, auth.workspace, auth.user, now);
      return { ...apiKeyJson(record, now, auth.user), key: value };
    },
  }),
  route({
    method: 'post',
    path: '/api-keys/{id}/revoke',
    tag: 'API keys',
    response: apiKeyResponse,
    summary:
      'Revoke a key: access ends at once and for good. Your own keys; admins: any key of the workspace.',
    responses: { 200: 'The key, now revoked', 404: 'No such key visible to you' },
    async handler({ auth, params }) {
      const revoked = await revokeKey(store, auth.workspace.id, auth.user, params.id!, clock.now());
      return apiKeyJson(
        revoked,
        clock.now(),
        (await store.getUser(auth.workspace.id, revoked.user_id)) ?? undefined,
      );
    },
  }),
];
