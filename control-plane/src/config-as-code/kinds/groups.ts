import { type Body, ok } from '../../api-client/client.js';
import { groupBody } from '../../domain/monitors/groups.js';
import { allPages, type Live, type ResourceKind } from '../kind.js';

/**
 * Groups of monitors and heartbeats, by name: monitors and heartbeats name theirs (`group`). A rename
 * in the file is a new group (and --prune deletes the old one, ungrouping its members).
 */
export const groups: ResourceKind = {
  key: 'groups',
  noun: 'group',
  nameField: 'name',
  item: groupBody,
  writeRole: 'member',
  list: (a) => allPages((cursor) => ok(a.GET('/groups', { params: { query: { limit: 100, cursor } } }))),
  immutable: [],
  secretField: () => false,
  fromLive: (live) => ({ name: live.name }),
  references: () => [],
  toBody: (item) => ({ ...item }),
  create: async (a, body) =>
    (await ok(a.POST('/groups', { body: body as Body<'/groups', 'post'> }))) as unknown as Live,
  async update(a, live, body) {
    await ok(
      a.PATCH('/groups/{id}', {
        params: { path: { id: live.id } },
        body: body as Body<'/groups/{id}', 'patch'>,
      }),
    );
  },
  async remove(a, live) {
    await ok(a.DELETE('/groups/{id}', { params: { path: { id: live.id } } }));
  },
};
