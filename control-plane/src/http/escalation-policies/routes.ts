import { AppError } from '@lookout/shared';
import { z } from 'zod';
import {
  createPolicy,
  createPolicyBody,
  deletePolicy,
  type PolicyStore,
  updatePolicy,
  updatePolicyBody,
} from '../../domain/escalation/escalation-policies.js';
import { idOf, pageQuery } from '../query.js';
import { page } from '../responses.js';
import { type RouteDeps, route } from '../route.js';
import { policyJson, policyResponse } from './responses.js';

/** A path id that is not a UUID cannot name anything: 404 without a lookup. */

export const escalationPolicyRoutes = ({ store, clock }: RouteDeps<PolicyStore>) => [
  route({
    method: 'get',
    path: '/escalation-policies',
    tag: 'Escalation policies',
    response: page(policyResponse),
    summary: 'List the workspace’s escalation policies, newest first (one is the default).',
    query: z.strictObject(pageQuery),
    async handler({ auth, query }) {
      const page = await store.listEscalationPolicies(auth.workspace.id, query);
      return { data: page.data.map(policyJson), next_cursor: page.next_cursor };
    },
  }),
  route({
    method: 'post',
    path: '/escalation-policies',
    tag: 'Escalation policies',
    response: policyResponse,
    summary:
      'Create a policy: ordered steps (wait N minutes after the previous step, then notify users by email and their verified contact methods, channels, and whoever is on call in the named schedules), repeated `repeat` more times until acknowledged. `is_default: true` makes it the workspace default.',
    role: 'admin',
    body: createPolicyBody,
    status: 201,
    async handler({ auth, body }) {
      return policyJson(await createPolicy(store, auth.workspace.id, body, clock.now()));
    },
  }),
  route({
    method: 'get',
    path: '/escalation-policies/{id}',
    tag: 'Escalation policies',
    response: policyResponse,
    summary: 'Get an escalation policy.',
    responses: { 404: 'No such policy in this workspace' },
    async handler({ auth, params }) {
      const p = await store.getEscalationPolicy(auth.workspace.id, idOf(params.id));
      if (!p) throw new AppError('not_found', 'Escalation policy not found.');
      return policyJson(p);
    },
  }),
  route({
    method: 'patch',
    path: '/escalation-policies/{id}',
    tag: 'Escalation policies',
    response: policyResponse,
    summary: 'Change a policy. Alerts already escalating follow the new steps from their current position.',
    role: 'admin',
    body: updatePolicyBody,
    responses: { 404: 'No such policy in this workspace' },
    async handler({ auth, params, body }) {
      return policyJson(await updatePolicy(store, auth.workspace.id, idOf(params.id), body, clock.now()));
    },
  }),
  route({
    method: 'delete',
    path: '/escalation-policies/{id}',
    tag: 'Escalation policies',
    response: null,
    summary: 'Delete a policy that is not the default and that no monitor, heartbeat or integration uses.',
    role: 'admin',
    status: 204,
    responses: { 404: 'No such policy in this workspace', 409: 'The default, or still in use' },
    async handler({ auth, params }) {
      await deletePolicy(store, auth.workspace.id, idOf(params.id));
      return undefined;
    },
  }),
];
