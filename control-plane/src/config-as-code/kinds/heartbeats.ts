import { z } from 'zod';
import { type Body, ok } from '../../api-client/client.js';
import { createHeartbeatBody } from '../../domain/heartbeats/heartbeats.js';
import { dependsOnItem, dependsOnRef } from '../depends-on.js';
import { allPages, groupRef, type Live, pick, type ResourceKind, singleRef } from '../kind.js';

const policy = singleRef('escalation_policy_id', 'escalation_policy', 'escalation_policies');
const group = groupRef();
const fields = Object.keys(createHeartbeatBody.shape);

/** Heartbeats: a new one gets a new uuid (its ping URL), so jobs pinging a recreated one need its new URL. */
export const heartbeats: ResourceKind = {
  key: 'heartbeats',
  noun: 'heartbeat',
  nameField: 'display_name',
  item: createHeartbeatBody.omit({ escalation_policy_id: true, group_id: true, depends_on: true }).extend({
    depends_on: dependsOnItem,
    escalation_policy: z.string().min(1).max(200).optional(),
    group: z
      .string()
      .min(1)
      .max(100)
      .nullable()
      .optional()
      .describe('The name of its group (`groups`); null: none.'),
  }),
  writeRole: 'member',
  list: (a) => allPages((cursor) => ok(a.GET('/heartbeats', { params: { query: { limit: 100, cursor } } }))),
  immutable: [],
  secretField: () => false,
  fromLive(live, names) {
    // A record says what it does not use as null (a scheduled heartbeat's period, a periodic one's
    // schedule, a missing slug); the file leaves such fields out, and a periodic one its time zone.
    const out = pick(
      live,
      fields.filter((f) => live[f] !== null && !(f === 'timezone' && live.schedule === null)),
    );
    policy.fromLive(out, live, names);
    group.fromLive(out, live, names);
    dependsOnRef.fromLive(out, live);
    return out;
  },
  references: (item) => [
    ...policy.references(item),
    ...group.references(item),
    ...dependsOnRef.references(item),
  ],
  toBody(item, names) {
    const body = { ...item };
    policy.toBody(body, names);
    group.toBody(body, names);
    dependsOnRef.toBody(body, names);
    return body;
  },
  create: async (a, body) =>
    (await ok(a.POST('/heartbeats', { body: body as Body<'/heartbeats', 'post'> }))) as unknown as Live,
  async update(a, live, body) {
    await ok(
      a.PATCH('/heartbeats/{uuid}', {
        params: { path: { uuid: live.id } },
        body: body as Body<'/heartbeats/{uuid}', 'patch'>,
      }),
    );
  },
  async remove(a, live) {
    await ok(a.DELETE('/heartbeats/{uuid}', { params: { path: { uuid: live.id } } }));
  },
  createdNote: (h) => `heartbeat "${h.display_name}" pings at ${h.ping_url}`,
};
