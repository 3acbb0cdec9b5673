import { z } from 'zod';
import { createIntegrationBody } from '../../domain/integrations/integrations.js';
import { type Live, pick, type ResourceKind, singleRef } from '../kind.js';

const policy = singleRef('escalation_policy_id', 'escalation_policy', 'escalation_policies');
const fields = Object.keys(createIntegrationBody.shape);

export const integrations: ResourceKind = {
  key: 'integrations',
  noun: 'integration',
  nameField: 'name',
  item: createIntegrationBody
    .omit({ escalation_policy_id: true })
    .extend({ escalation_policy: z.string().min(1).max(200).nullable().optional() }),
  writeRole: 'admin',
  listPath: '/integrations',
  immutable: ['kind'],
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
  create: async (a, body) => a.post('/integrations', body) as Promise<Live>,
  async update(a, live, body) {
    const { kind: _k, ...patch } = body;
    await a.patch(`/integrations/${live.id}`, patch);
  },
  remove: (a, live) => a.delete(`/integrations/${live.id}`),
  createdNote: (i) =>
    `integration "${i.name}": its service key was shown once in the API's answer and is not printed here; rotate it (web app, or POST /integrations/${i.id}/rotate-key) to get one`,
};
