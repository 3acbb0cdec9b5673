import { z } from 'zod';
import type { GroupStore } from '../../domain/monitors/group-store.js';
import {
  createGroup,
  deleteGroup,
  groupBody,
  loadGroup,
  MAX_GROUPS,
  renameGroup,
} from '../../domain/monitors/groups.js';
import { idOf, pageQuery } from '../query.js';
import { page } from '../responses.js';
import { type RouteDeps, route } from '../route.js';
import { groupJson, groupResponse } from './responses.js';

export const groupRoutes = ({ store, clock }: RouteDeps<GroupStore>) => [
  route({
    method: 'get',
    path: '/groups',
    tag: 'Groups',
    response: page(groupResponse),
    summary:
      'List the groups of monitors and heartbeats, newest first; search with `q` (a part of the name, any case).',
    query: z.strictObject({
      ...pageQuery,
      q: z.string().min(1).max(100).optional().describe('A case-insensitive part of the name.'),
    }),
    async handler({ auth, query: { q, ...query } }) {
      const p = await store.listGroups(auth.workspace.id, { ...query, search: q });
      return { data: p.data.map(groupJson), next_cursor: p.next_cursor };
    },
  }),
  route({
    method: 'post',
    path: '/groups',
    tag: 'Groups',
    response: groupResponse,
    summary: `Create a group (\`name\`, unique in the workspace ignoring case; 409 when taken). Monitors and heartbeats join it by \`group_id\`; groups hold no groups. A workspace holds at most ${MAX_GROUPS} groups (409 past that).`,
    role: 'member',
    body: groupBody,
    status: 201,
    responses: { 409: 'The name is taken, or the workspace has the most groups it may' },
    async handler({ auth, body }) {
      return groupJson(await createGroup(store, auth.workspace.id, body, clock.now()));
    },
  }),
  route({
    method: 'get',
    path: '/groups/{id}',
    tag: 'Groups',
    response: groupResponse,
    summary: 'Get a group. Its members: `GET /monitors?group_id=` and `GET /heartbeats?group_id=`.',
    responses: { 404: 'No such group in this workspace' },
    async handler({ auth, params }) {
      return groupJson(await loadGroup(store, auth.workspace.id, idOf(params.id)));
    },
  }),
  route({
    method: 'patch',
    path: '/groups/{id}',
    tag: 'Groups',
    response: groupResponse,
    summary: 'Rename a group (409 when another group has the name, ignoring case).',
    role: 'member',
    body: groupBody,
    responses: { 404: 'No such group in this workspace', 409: 'The name is taken' },
    async handler({ auth, params, body }) {
      return groupJson(await renameGroup(store, auth.workspace.id, idOf(params.id), body, clock.now()));
    },
  }),
  route({
    method: 'delete',
    path: '/groups/{id}',
    tag: 'Groups',
    response: null,
    summary:
      'Delete a group. Its monitors and heartbeats stay, ungrouped (their `group_id` becomes null in the same step). A status-page component standing for the group shows no members until it is edited; maintenance windows and dependencies that name the group no longer match anything through it.',
    role: 'member',
    status: 204,
    responses: { 404: 'No such group in this workspace' },
    async handler({ auth, params }) {
      await deleteGroup(store, auth.workspace.id, idOf(params.id), clock.now());
      return undefined;
    },
  }),
];
