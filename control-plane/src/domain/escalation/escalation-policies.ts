import { AppError, type FieldProblem, newId } from '@lookout/shared';
import { z } from 'zod';
import type { PolicyNeedingUser } from '../access/member-store.js';
import type { ChannelStore } from '../notifications/channel-store.js';
import type { TenancyStore } from '../tenancy/tenancy-store.js';
import type { EscalationPolicy } from '../types.js';
import { nameText, parseOrThrow, throwIfProblems, uuid } from '../validation.js';
import type { EscalationPolicyStore } from './escalation-policy-store.js';
import { type ScheduleReads, stepSchedules } from './on-call-targets.js';
import { checkSupportHours, supportHoursBody } from './support-hours.js';

const step = z.strictObject({
  wait_minutes: z.int().min(0).max(1440),
  notify_user_ids: z.array(uuid()).max(20).default([]),
  notify_channel_ids: z.array(uuid()).max(20).default([]),
  /** Whoever is on call in each when the step fires (on-call-targets.ts). */
  notify_schedule_ids: z.array(uuid()).max(10).default([]),
});

const fields = {
  name: nameText(200),
  steps: z.array(step).min(1).max(10),
  repeat: z.int().min(0).max(10),
  is_default: z.boolean(),
  /** When `warning` alerts may notify; null: at any time (support-hours.ts). */
  support_hours: supportHoursBody.nullable(),
};

export const createPolicyBody = z.strictObject({
  name: fields.name,
  steps: fields.steps,
  repeat: fields.repeat.default(0),
  is_default: fields.is_default.default(false),
  support_hours: fields.support_hours.default(null),
});

export const updatePolicyBody = z.strictObject({
  name: fields.name.optional(),
  steps: fields.steps.optional(),
  repeat: fields.repeat.optional(),
  is_default: fields.is_default.optional(),
  support_hours: fields.support_hours.optional(),
});

/** What validating a policy reads: its users, channels and schedules. */
export type PolicyStore = EscalationPolicyStore &
  Pick<ChannelStore, 'getChannel'> &
  TenancyStore &
  Pick<ScheduleReads, 'getSchedule'>;

/** Every id must name a user, channel or schedule of this workspace; a step must notify someone. */
const policyProblems = async (store: PolicyStore, p: EscalationPolicy): Promise<FieldProblem[]> => {
  const problems: FieldProblem[] = [];
  for (const [i, s] of p.steps.entries()) {
    if (s.notify_user_ids.length + s.notify_channel_ids.length + stepSchedules(s).length === 0)
      problems.push({ field: `steps[${i}]`, message: 'must notify at least one user, channel or schedule' });
    for (const [j, id] of s.notify_user_ids.entries())
      if (!(await store.getUser(p.workspace_id, id.toLowerCase())))
        problems.push({
          field: `steps[${i}].notify_user_ids[${j}]`,
          message: 'no user with this id in the workspace',
        });
    for (const [j, id] of s.notify_channel_ids.entries())
      if (!(await store.getChannel(p.workspace_id, id.toLowerCase())))
        problems.push({
          field: `steps[${i}].notify_channel_ids[${j}]`,
          message: 'no notification channel with this id in the workspace',
        });
    for (const [j, id] of stepSchedules(s).entries())
      if (!(await store.getSchedule(p.workspace_id, id.toLowerCase())))
        problems.push({
          field: `steps[${i}].notify_schedule_ids[${j}]`,
          message: 'no schedule with this id in the workspace',
        });
  }
  if (p.support_hours) problems.push(...checkSupportHours(p.support_hours).problems);
  if (p.repeat > 0 && p.steps.every((s) => s.wait_minutes === 0))
    problems.push({
      field: 'repeat',
      message: 'needs a step that waits at least a minute, or every repeat would be sent at once',
    });
  return problems;
};

const normalise = (steps: EscalationPolicy['steps']) =>
  steps.map((s) => ({
    wait_minutes: s.wait_minutes,
    notify_user_ids: [...new Set(s.notify_user_ids.map((x) => x.toLowerCase()))],
    notify_channel_ids: [...new Set(s.notify_channel_ids.map((x) => x.toLowerCase()))],
    notify_schedule_ids: [...new Set(stepSchedules(s).map((x) => x.toLowerCase()))],
  }));

export const createPolicy = async (
  store: PolicyStore,
  workspaceId: string,
  body: unknown,
  now: Date,
): Promise<EscalationPolicy> => {
  const v = parseOrThrow(createPolicyBody, body);
  const policy: EscalationPolicy = {
    id: newId(),
    workspace_id: workspaceId,
    name: v.name,
    is_default: v.is_default,
    steps: normalise(v.steps),
    repeat: v.repeat,
    support_hours: v.support_hours ? (checkSupportHours(v.support_hours).value ?? v.support_hours) : null,
    created_at: now,
    updated_at: now,
  };
  throwIfProblems(await policyProblems(store, policy));
  await store.insertEscalationPolicy(policy);
  return policy;
};

/** Validates the body before looking the policy up, so a bad body is a 422 whatever the id. */
export const updatePolicy = async (
  store: PolicyStore,
  workspaceId: string,
  id: string,
  body: unknown,
  now: Date,
): Promise<EscalationPolicy> => {
  const patch = parseOrThrow(updatePolicyBody, body);
  const existing = await store.getEscalationPolicy(workspaceId, id);
  if (!existing) throw new AppError('not_found', 'Escalation policy not found.');
  if (existing.is_default && patch.is_default === false)
    throwIfProblems([
      {
        field: 'is_default',
        message: 'a workspace always has a default policy; make another policy the default instead',
      },
    ]);
  const next: EscalationPolicy = {
    ...existing,
    name: patch.name ?? existing.name,
    steps: patch.steps ? normalise(patch.steps) : existing.steps,
    repeat: patch.repeat ?? existing.repeat,
    is_default: patch.is_default ?? existing.is_default,
    support_hours:
      patch.support_hours === undefined
        ? (existing.support_hours ?? null)
        : patch.support_hours && (checkSupportHours(patch.support_hours).value ?? patch.support_hours),
    updated_at: now,
  };
  throwIfProblems(await policyProblems(store, next));
  if (!(await store.updateEscalationPolicy(next)))
    throw new AppError('not_found', 'Escalation policy not found.');
  return next;
};

export const deletePolicy = async (store: PolicyStore, workspaceId: string, id: string) => {
  const r = await store.deleteEscalationPolicy(workspaceId, id);
  if (r === 'not_found') throw new AppError('not_found', 'Escalation policy not found.');
  if (r === 'is_default')
    throw new AppError(
      'conflict',
      'This is the workspace’s default policy; make another policy the default before deleting it.',
    );
  if (typeof r === 'object') {
    const kinds = r.in_use.join(', ').replace(/, ([^,]*)$/, ' and $1');
    throw new AppError(
      'conflict',
      `${kinds[0]!.toUpperCase()}${kinds.slice(1)} still use this policy; move them to another policy first.`,
    );
  }
};

/**
 * What removing user `userId` does to the workspace's escalation policies (`policies`: those that name
 * the user). A step that notifies only this user would notify no one, so any such step blocks the
 * removal (`blocking`, and nothing changes). Otherwise the user leaves every step that names them
 * (`updated`, with `updated_at` = now) and the others in those steps are notified as before. Both
 * store adapters apply this inside the transaction that removes the user.
 */
export const withoutUser = (
  policies: EscalationPolicy[],
  userId: string,
  now: Date,
): { blocking: PolicyNeedingUser[]; updated: EscalationPolicy[] } => {
  const blocking: PolicyNeedingUser[] = [];
  const updated: EscalationPolicy[] = [];
  for (const p of policies) {
    const named = p.steps.some((s) => s.notify_user_ids.includes(userId));
    if (!named) continue;
    const alone = p.steps.flatMap((s, i) =>
      s.notify_user_ids.includes(userId) &&
      s.notify_user_ids.every((u) => u === userId) &&
      s.notify_channel_ids.length === 0 &&
      stepSchedules(s).length === 0
        ? [i + 1]
        : [],
    );
    if (alone.length > 0) blocking.push({ id: p.id, name: p.name, steps: alone });
    else
      updated.push({
        ...p,
        steps: p.steps.map((s) => ({ ...s, notify_user_ids: s.notify_user_ids.filter((u) => u !== userId) })),
        updated_at: now,
      });
  }
  return { blocking, updated: blocking.length > 0 ? [] : updated };
};
