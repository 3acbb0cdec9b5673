import { z } from 'zod';
import { type Body, ok } from '../../api-client/client.js';
import {
  createScheduleBody,
  layerBody,
  MAX_LAYER_USERS,
  MAX_LAYERS,
  timezoneOf,
  WEEKDAYS,
} from '../../domain/oncall/schedule-body.js';
import { allPages, type Item, type Live, type Names, type Reference, type ResourceKind } from '../kind.js';

/**
 * On-call schedules, by name: each layer names its users by email (`users` for the API's user ids,
 * in rotation order). Escalation policies name schedules in their steps (`notify_schedules`), so
 * schedules come before policies in the table of kinds.
 */
const layer = layerBody.extend({
  users: z
    .array(z.string().min(1).max(320))
    .min(1)
    .max(MAX_LAYER_USERS)
    .describe('Users by email, in rotation order.'),
});

interface FileRestriction {
  days: string[];
  start: string;
  end: string;
}
interface FileLayer {
  name?: string;
  users: string[];
  starts_at?: string;
  shift_seconds?: number | null;
  handoff_day?: string | null;
  restrictions?: FileRestriction[];
  [k: string]: unknown;
}

export const schedules: ResourceKind = {
  key: 'schedules',
  noun: 'schedule',
  nameField: 'name',
  item: createScheduleBody.omit({ layers: true }).extend({ layers: z.array(layer).max(MAX_LAYERS) }),
  writeRole: 'member',
  list: (a) => allPages((cursor) => ok(a.GET('/schedules', { params: { query: { limit: 100, cursor } } }))),
  immutable: [],
  secretField: () => false,
  fromLive(live: Live, names: Names): Item {
    return {
      name: live.name,
      timezone: live.timezone,
      layers: (live.layers as FileLayer[]).map((l) => ({
        name: l.name,
        users: l.users.map((id) => names.nameOf('users', id) ?? id),
        rotation: l.rotation,
        ...(l.shift_seconds != null ? { shift_seconds: l.shift_seconds } : {}),
        handoff: l.handoff,
        ...(l.handoff_day != null ? { handoff_day: l.handoff_day } : {}),
        starts_at: l.starts_at,
        restrictions: l.restrictions ?? [],
      })),
    };
  },
  references(item) {
    const refs: Reference[] = [];
    for (const [i, l] of ((item.layers as FileLayer[] | undefined) ?? []).entries())
      for (const [j, email] of (l.users ?? []).entries())
        refs.push({ path: ['layers', i, 'users', j], kind: 'users', name: email });
    return refs;
  },
  toBody(item, names) {
    const { layers, ...rest } = item;
    return {
      ...rest,
      ...(layers
        ? {
            layers: (layers as FileLayer[]).map((l) => ({
              ...l,
              users: l.users.map((email) => names.idOf('users', email) ?? email),
            })),
          }
        : {}),
    };
  },
  // Compared as the API keeps them: the zone's canonical name, a layer without a name named by its
  // place, restriction days in week order (schedule-body.ts `layersOf`).
  comparable: ({ timezone, layers, ...rest }) => ({
    ...rest,
    ...(typeof timezone === 'string' ? { timezone: timezoneOf(timezone) } : {}),
    ...(layers
      ? {
          layers: (layers as FileLayer[]).map((l, i) => ({
            ...l,
            name: l.name ?? `Layer ${i + 1}`,
            restrictions: (l.restrictions ?? []).map((r) => ({
              ...r,
              days: WEEKDAYS.filter((d) => r.days.includes(d)),
            })),
          })),
        }
      : {}),
  }),
  create: async (a, body) =>
    (await ok(a.POST('/schedules', { body: body as Body<'/schedules', 'post'> }))) as unknown as Live,
  async update(a, live, body) {
    await ok(
      a.PATCH('/schedules/{id}', {
        params: { path: { id: live.id } },
        body: body as Body<'/schedules/{id}', 'patch'>,
      }),
    );
  },
  async remove(a, live) {
    await ok(a.DELETE('/schedules/{id}', { params: { path: { id: live.id } } }));
  },
};
