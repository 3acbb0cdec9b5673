/**
 * The web app's calls for workspace secrets, through the typed client of api.ts. Values go in only:
 * the API never returns one.
 */
import type { Schemas } from '../../src/api-client/client.js';
import { ok } from '../../src/api-client/client.js';
import { client } from './api.js';

export type Secret = Schemas['Secret'];

const named = (name: string) => ({ params: { path: { name } } });

export const secretsApi = {
  listSecrets: () => ok(client.GET('/secrets')),
  putSecret: (name: string, value: string) =>
    ok(client.PUT('/secrets/{name}', { ...named(name), body: { value } })),
  deleteSecret: (name: string) => ok(client.DELETE('/secrets/{name}', named(name))),
};
