import { z } from 'zod';
import { type Body, ok } from '../../api-client/client.js';
import { createStatusPageBody } from '../../domain/status-pages/status-pages.js';
import {
  allPages,
  Hidden,
  type Item,
  type Live,
  type Names,
  type Reference,
  type ResourceKind,
} from '../kind.js';

/**
 * Status pages, named by their `slug` (unique in the workspace). A component names the monitor (its
 * display_name) or heartbeat it follows (`monitor`, `heartbeat` for the API's `monitor_id`,
 * `heartbeat_id`), or the group it stands for (`monitor_group`, by name, for `group_id`); its `status` is state (set by incidents or by what it follows), not configuration,
 * and is left out. Components keep their ids (and so their history) across an apply: the update sends
 * each with the id of the page's component of the same name. The page's password is write-only.
 */
const apiComponent = (
  createStatusPageBody.shape.components as unknown as z.ZodDefault<z.ZodArray<z.ZodObject>>
).unwrap().element;
const component = apiComponent
  .omit({ id: true, monitor_id: true, heartbeat_id: true, group_id: true, status: true })
  .extend({
    monitor: z.string().min(1).max(200).nullable().optional(),
    heartbeat: z.string().min(1).max(200).nullable().optional(),
    monitor_group: z
      .string()
      .min(1)
      .max(100)
      .nullable()
      .optional()
      .describe(
        'The group (by name) whose monitors and heartbeats it stands for: the worst of their statuses.',
      ),
  });

interface FileComponent {
  name: string;
  description?: string | null;
  group?: string | null;
  monitor?: string | null;
  heartbeat?: string | null;
  monitor_group?: string | null;
}
interface ApiComponent {
  id: string;
  name: string;
  description: string | null;
  group: string | null;
  monitor_id: string | null;
  heartbeat_id: string | null;
  group_id: string | null;
}

export const statusPages: ResourceKind = {
  key: 'status_pages',
  noun: 'status page',
  nameField: 'slug',
  item: createStatusPageBody
    .omit({ components: true })
    .extend({ components: z.array(component).max(100).default([]) }),
  writeRole: 'member',
  list: (a) =>
    allPages((cursor) => ok(a.GET('/status-pages', { params: { query: { limit: 100, cursor } } }))),
  immutable: [],
  fromLive(live: Live, names: Names): Item {
    const out: Item = {
      name: live.name,
      slug: live.slug,
      custom_domain: live.custom_domain,
      visibility: live.visibility,
      ...(live.visibility === 'password' ? { password: new Hidden() } : {}),
      accent_color: live.accent_color,
      auto_draft_incidents: live.auto_draft_incidents,
      components: (live.components as ApiComponent[]).map((c) => ({
        name: c.name,
        description: c.description,
        group: c.group,
        ...(c.monitor_id ? { monitor: names.nameOf('monitors', c.monitor_id) ?? c.monitor_id } : {}),
        ...(c.heartbeat_id
          ? { heartbeat: names.nameOf('heartbeats', c.heartbeat_id) ?? c.heartbeat_id }
          : {}),
        ...(c.group_id ? { monitor_group: names.nameOf('groups', c.group_id) ?? c.group_id } : {}),
      })),
    };
    return out;
  },
  references(item) {
    const refs: Reference[] = [];
    for (const [i, c] of ((item.components as FileComponent[] | undefined) ?? []).entries()) {
      if (c.monitor) refs.push({ path: ['components', i, 'monitor'], kind: 'monitors', name: c.monitor });
      if (c.heartbeat)
        refs.push({ path: ['components', i, 'heartbeat'], kind: 'heartbeats', name: c.heartbeat });
      if (c.monitor_group)
        refs.push({ path: ['components', i, 'monitor_group'], kind: 'groups', name: c.monitor_group });
    }
    return refs;
  },
  toBody(item, names) {
    const { components, ...rest } = item;
    if (!components) return rest;
    return {
      ...rest,
      components: (components as FileComponent[]).map(({ monitor, heartbeat, monitor_group, ...c }) => ({
        ...c,
        ...(monitor ? { monitor_id: names.idOf('monitors', monitor) ?? monitor } : {}),
        ...(heartbeat ? { heartbeat_id: names.idOf('heartbeats', heartbeat) ?? heartbeat } : {}),
        ...(monitor_group ? { group_id: names.idOf('groups', monitor_group) ?? monitor_group } : {}),
      })),
    };
  },
  secretField: (_item, path) => path.length === 1 && path[0] === 'password',
  sensitive: () => false,
  create: async (a, body) =>
    (await ok(a.POST('/status-pages', { body: body as Body<'/status-pages', 'post'> }))) as unknown as Live,
  async update(a, live, body) {
    // Components keep their ids, and so their uptime history, when their name stays.
    const ids = new Map((live.components as ApiComponent[]).map((c) => [c.name, c.id]));
    const patch = body.components
      ? {
          ...body,
          components: (body.components as { name: string }[]).map((c) =>
            ids.has(c.name) ? { id: ids.get(c.name), ...c } : c,
          ),
        }
      : body;
    await ok(
      a.PATCH('/status-pages/{id}', {
        params: { path: { id: live.id } },
        body: patch as Body<'/status-pages/{id}', 'patch'>,
      }),
    );
  },
  async remove(a, live) {
    await ok(a.DELETE('/status-pages/{id}', { params: { path: { id: live.id } } }));
  },
};
