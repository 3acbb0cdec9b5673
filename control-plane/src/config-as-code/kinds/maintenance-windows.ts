import { z } from 'zod';
import { type Body, ok } from '../../api-client/client.js';
import { createWindowBody } from '../../domain/maintenance/maintenance.js';
import { allPages, type Item, type Live, type ResourceKind } from '../kind.js';

/**
 * `scope` names the monitor (its display_name), heartbeat or group a window covers (the API's
 * scope_id); a tag scope's `scope` is the tag itself.
 */
const scopeKind = (type: unknown) =>
  type === 'monitor' ? 'monitors' : type === 'group' ? 'groups' : 'heartbeats';
const byName = (type: unknown) => type !== 'tag';

export const maintenanceWindows: ResourceKind = {
  key: 'maintenance_windows',
  noun: 'maintenance window',
  nameField: 'name',
  item: createWindowBody.omit({ scope_id: true }).extend({ scope: z.string().min(1).max(200).optional() }),
  writeRole: 'admin',
  list: (a) =>
    allPages((cursor) => ok(a.GET('/maintenance-windows', { params: { query: { limit: 100, cursor } } }))),
  // A window that has ended is history, not configuration: not exported, compared or pruned. A
  // recurring window never ends.
  managed: (live, now) => live.ends_at === null || Date.parse(String(live.ends_at)) > now.getTime(),
  immutable: ['scope_type', 'scope'],
  secretField: () => false,
  fromLive(live, names) {
    const out: Item = { name: live.name, scope_type: live.scope_type };
    if (typeof live.scope_id === 'string')
      out.scope = byName(live.scope_type)
        ? (names.nameOf(scopeKind(live.scope_type), live.scope_id) ?? live.scope_id)
        : live.scope_id;
    if (live.schedule) {
      out.schedule = live.schedule;
      out.timezone = live.timezone;
      out.duration_seconds = live.duration_seconds;
    } else {
      out.starts_at = live.starts_at;
      out.ends_at = live.ends_at;
    }
    return out;
  },
  references: (item) =>
    typeof item.scope === 'string' && byName(item.scope_type)
      ? [{ path: ['scope'], kind: scopeKind(item.scope_type), name: item.scope }]
      : [],
  toBody(item, names) {
    const { scope, ...body } = item;
    if (typeof scope === 'string')
      body.scope_id = byName(item.scope_type)
        ? (names.idOf(scopeKind(item.scope_type), scope) ?? scope)
        : scope;
    return body;
  },
  create: async (a, body) =>
    (await ok(
      a.POST('/maintenance-windows', { body: body as Body<'/maintenance-windows', 'post'> }),
    )) as unknown as Live,
  async update(a, live, body) {
    const { scope_type: _t, scope_id: _s, ...patch } = body;
    await ok(
      a.PATCH('/maintenance-windows/{id}', {
        params: { path: { id: live.id } },
        body: patch as Body<'/maintenance-windows/{id}', 'patch'>,
      }),
    );
  },
  async remove(a, live) {
    await ok(a.DELETE('/maintenance-windows/{id}', { params: { path: { id: live.id } } }));
  },
};
