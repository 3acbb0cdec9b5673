import {
  deleteWorkspaceSecret,
  loadWorkspaceSecret,
  putWorkspaceSecret,
  type SecretContext,
  secretUsers,
} from '../../domain/monitors/monitor-secrets.js';
import { MAX_SECRETS, secretBody } from '../../domain/secrets/secrets.js';
import { page } from '../responses.js';
import { type Authed, type RouteDeps, route } from '../route.js';
import { secretJson, secretResponse } from './responses.js';

const notSet = { 404: 'No secret of this name is set in this workspace' };

/**
 * Workspace secrets (docs/scripted-checks.md, "Workspace secrets"): write-only values that multi-step
 * and browser checks name. Viewers read names, hints and users; admins set and delete.
 */
export const secretRoutes = ({ store, box, clock }: RouteDeps<SecretContext['store']>) => {
  const context = (auth: Authed): SecretContext => ({
    store,
    box,
    workspaceId: auth.workspace.id,
    now: clock.now(),
  });
  const usersOf = async (auth: Authed, name: string) =>
    (await secretUsers(store, auth.workspace.id)).get(name) ?? [];
  return [
    route({
      method: 'get',
      path: '/secrets',
      tag: 'Secrets',
      response: page(secretResponse),
      summary: `List the workspace's secrets by name (at most ${MAX_SECRETS}): each name, a hint of its value and the monitors that use it. Values are never returned.`,
      async handler({ auth }) {
        const [secrets, users] = await Promise.all([
          store.listSecrets(auth.workspace.id),
          secretUsers(store, auth.workspace.id),
        ]);
        return { data: secrets.map((s) => secretJson(s, users.get(s.name) ?? [])), next_cursor: null };
      },
    }),
    route({
      method: 'get',
      path: '/secrets/{name}',
      tag: 'Secrets',
      response: secretResponse,
      summary: 'Get one secret: its name, hint and the monitors that use it (never its value).',
      responses: notSet,
      async handler({ auth, params }) {
        const secret = await loadWorkspaceSecret(context(auth), params.name!);
        return secretJson(secret, await usersOf(auth, secret.name));
      },
    }),
    route({
      method: 'put',
      path: '/secrets/{name}',
      tag: 'Secrets',
      response: secretResponse,
      summary: `Set a secret's value (201 when new, 200 when replaced). The name is upper case, digits and _ (e.g. PAY_TOKEN); a workspace holds at most ${MAX_SECRETS} (409 past that). Every monitor naming it gets the new value at once (its version moves on).`,
      role: 'admin',
      body: secretBody,
      responses: { 201: 'Created', 409: `The workspace has ${MAX_SECRETS} secrets already` },
      async handler({ ctx, auth, params, body }) {
        const { secret, created } = await putWorkspaceSecret(context(auth), params.name!, body, auth.user.id);
        if (created) ctx.state.status = 201;
        return secretJson(secret, await usersOf(auth, secret.name));
      },
    }),
    route({
      method: 'delete',
      path: '/secrets/{name}',
      tag: 'Secrets',
      response: null,
      summary: 'Delete a secret. Refused (409, naming them) while monitors use it.',
      role: 'admin',
      status: 204,
      responses: { ...notSet, 409: 'Monitors use the secret' },
      async handler({ auth, params }) {
        await deleteWorkspaceSecret(context(auth), params.name!);
        return undefined;
      },
    }),
  ];
};
