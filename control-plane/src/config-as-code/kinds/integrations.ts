import { z } from 'zod';
import { type Body, ok } from '../../api-client/client.js';
import { createIntegrationBody } from '../../domain/integrations/integrations.js';
import { allPages, type Live, pick, type ResourceKind, singleRef } from '../kind.js';

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
  list: (a) =>
    allPages((cursor) => ok(a.GET('/integrations', { params: { query: { limit: 100, cursor } } }))),
  immutable: ['kind'],
  secretField: () => false,
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
  create: async (a, body) =>
    (await ok(a.POST('/integrations', { body: body as Body<'/integrations', 'post'> }))) as unknown as Live,
  async update(a, live, body) {
    const { kind: _k, ...patch } = body;
    await ok(
      a.PATCH('/integrations/{integration_id}', {
        params: { path: { integration_id: live.id } },
        body: patch as Body<'/integrations/{integration_id}', 'patch'>,
      }),
    );
  },
  async remove(a, live) {
    await ok(a.DELETE('/integrations/{integration_id}', { params: { path: { integration_id: live.id } } }));
  },
  createdNote: (i) =>
    `integration "${i.name}": its service key was shown once in the API's answer and is not printed here; rotate it (web app, or POST /integrations/${i.id}/rotate-key) to get one`,
};
