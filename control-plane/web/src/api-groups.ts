/**
 * The web app's calls for groups of monitors and heartbeats, and the tags both carry, through the
 * typed client of api.ts. Types are the API's own.
 */
import type { Schemas } from '../../src/api-client/client.js';
import { ok } from '../../src/api-client/client.js';
import { client } from './api.js';

export type Group = Schemas['Group'];
export type Severity = Schemas['Monitor']['severity'];

const id = (id: string) => ({ params: { path: { id } } });

export const groupsApi = {
  listGroups: (cursor?: string, q?: string) =>
    ok(client.GET('/groups', { params: { query: { limit: 100, cursor, q: q || undefined } } })),
  getGroup: (gid: string) => ok(client.GET('/groups/{id}', id(gid))),
  createGroup: (name: string) => ok(client.POST('/groups', { body: { name } })),
  renameGroup: (gid: string, name: string) =>
    ok(client.PATCH('/groups/{id}', { ...id(gid), body: { name } })),
  deleteGroup: (gid: string) => ok(client.DELETE('/groups/{id}', id(gid))),
};

/**
 * Tags as typed in a form (separated by commas or spaces) as the API takes them: the list in the order
 * typed; the server judges each (and names a bad one `tags[i]`, i its place in this list).
 */
export const tagsOf = (typed: string) => typed.split(/[\s,]+/).filter((t) => t !== '');

/** Tags as a form shows them to edit. */
export const tagsText = (tags: readonly string[] | undefined) => (tags ?? []).join(', ');
