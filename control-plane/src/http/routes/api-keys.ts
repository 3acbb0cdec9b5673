import { AppError } from '@lookout/shared';
import { z } from 'zod';
import { createNamedKey, newKeyInput, regenerateLegacyKey } from '../../domain/api-keys.js';
import { hasRole } from '../../domain/roles.js';
import type { User } from '../../domain/types.js';
import { uuid } from '../../domain/validation.js';
import { type AppDeps, route } from '../route.js';
import { apiKeyJson } from '../serialize.js';

export const apiKeyRoutes = ({ store, clock }: AppDeps) => [
  route({
    method: 'get',
    path: '/api-keys',
    tag: 'API keys',
    summary:
      'Your API keys (admins: every key of the workspace), with the last four characters, expiry and last use. Legacy keys are listed separately.',
    query: z.strictObject({ user_id: uuid().optional() }),
    async handler({ auth, query }) {
      const admin = hasRole(auth.user.role, 'admin');
      if (query.user_id && !admin && query.user_id !== auth.user.id) {
        throw new AppError('forbidden', "Only admins can list other users' keys.");
      }
      const userId = admin ? query.user_id : auth.user.id;
      const keys = await store.listApiKeys(auth.workspace.id, userId ? { userId } : {});
      const users = new Map<string, User>((await store.listUsers(auth.workspace.id)).map((u) => [u.id, u]));
      const now = clock.now();
      return {
        data: keys.filter((k) => k.kind === 'named').map((k) => apiKeyJson(k, now, users.get(k.user_id))),
        legacy_keys: keys
          .filter((k) => k.kind === 'legacy' && !k.revoked_at)
          .map((k) => apiKeyJson(k, now, users.get(k.user_id))),
      };
    },
  }),
  route({
    method: 'post',
    path: '/api-keys',
    tag: 'API keys',
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
    tag: 'API keys',
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
    summary:
      'Revoke a key: access ends at once and for good. Your own keys; admins: any key of the workspace.',
    responses: { 200: 'The key, now revoked', 404: 'No such key visible to you' },
    async handler({ auth, params }) {
      const key = await store.getApiKey(auth.workspace.id, params.id!);
      if (!key || (key.user_id !== auth.user.id && !hasRole(auth.user.role, 'admin'))) {
        throw new AppError('not_found', 'API key not found.');
      }
      const revoked = await store.revokeApiKey(auth.workspace.id, key.id, clock.now());
      return apiKeyJson(
        revoked!,
        clock.now(),
        (await store.getUser(auth.workspace.id, key.user_id)) ?? undefined,
      );
    },
  }),
];
