import { z } from 'zod';
import { createHeartbeatBody } from '../../domain/heartbeats/heartbeats.js';
import { type Live, pick, type ResourceKind, singleRef } from '../kind.js';

const policy = singleRef('escalation_policy_id', 'escalation_policy', 'escalation_policies');
const fields = Object.keys(createHeartbeatBody.shape);

/** Heartbeats: a new one gets a new uuid (its ping URL), so jobs pinging a recreated one need its new URL. */
export const heartbeats: ResourceKind = {
  key: 'heartbeats',
  noun: 'heartbeat',
  nameField: 'display_name',
  item: createHeartbeatBody
    .omit({ escalation_policy_id: true })
    .extend({ escalation_policy: z.string().min(1).max(200).optional() }),
  writeRole: 'member',
  listPath: '/heartbeats',
  immutable: [],
  fromLive(live, names) {
    const out = pick(live, fields);
    policy.fromLive(out, live, names);
    return out;
  },
  references: (item) => policy.references(item),
  toBody(item, names) {
    const body = { ...item };
    policy.toBody(body, names);
    return body;
  },
  create: async (a, body) => a.post('/heartbeats', body) as Promise<Live>,
  async update(a, live, body) {
    await a.patch(`/heartbeats/${live.id}`, body);
  },
  remove: (a, live) => a.delete(`/heartbeats/${live.id}`),
  createdNote: (h) => `heartbeat "${h.display_name}" pings at ${h.ping_url}`,
};
