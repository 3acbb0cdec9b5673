import { z } from 'zod';
import { type Body, ok } from '../../api-client/client.js';
import { createPolicyBody } from '../../domain/escalation/escalation-policies.js';
import { allPages, type Item, type Live, type Names, type Reference, type ResourceKind } from '../kind.js';

/**
 * Policies name users by email, channels and on-call schedules by name in their steps (`notify_users`,
 * `notify_channels`, `notify_schedules` for the API's `notify_user_ids`, `notify_channel_ids`,
 * `notify_schedule_ids`).
 */
const apiStep = (createPolicyBody.shape.steps as unknown as z.ZodArray<z.ZodObject>).element;
const step = apiStep
  .omit({ notify_user_ids: true, notify_channel_ids: true, notify_schedule_ids: true })
  .extend({
    notify_users: z.array(z.string().min(1).max(320)).max(20).default([]),
    notify_channels: z.array(z.string().min(1).max(200)).max(20).default([]),
    notify_schedules: z.array(z.string().min(1).max(200)).max(10).default([]),
  });

interface FileStep {
  wait_minutes: number;
  notify_users?: string[];
  notify_channels?: string[];
  notify_schedules?: string[];
}
interface ApiStep {
  wait_minutes: number;
  notify_user_ids: string[];
  notify_channel_ids: string[];
  notify_schedule_ids?: string[];
}

export const escalationPolicies: ResourceKind = {
  key: 'escalation_policies',
  noun: 'escalation policy',
  nameField: 'name',
  item: createPolicyBody.omit({ steps: true }).extend({ steps: z.array(step).min(1).max(10) }),
  writeRole: 'admin',
  list: (a) =>
    allPages((cursor) => ok(a.GET('/escalation-policies', { params: { query: { limit: 100, cursor } } }))),
  immutable: [],
  secretField: () => false,
  fromLive(live: Live, names: Names): Item {
    return {
      name: live.name,
      is_default: live.is_default,
      repeat: live.repeat,
      ...(live.support_hours ? { support_hours: live.support_hours } : {}),
      steps: (live.steps as ApiStep[]).map((s) => ({
        wait_minutes: s.wait_minutes,
        notify_users: s.notify_user_ids.map((id) => names.nameOf('users', id) ?? id),
        notify_channels: s.notify_channel_ids.map((id) => names.nameOf('channels', id) ?? id),
        notify_schedules: (s.notify_schedule_ids ?? []).map((id) => names.nameOf('schedules', id) ?? id),
      })),
    };
  },
  references(item) {
    const refs: Reference[] = [];
    for (const [i, s] of ((item.steps as FileStep[] | undefined) ?? []).entries()) {
      for (const [j, name] of (s.notify_users ?? []).entries())
        refs.push({ path: ['steps', i, 'notify_users', j], kind: 'users', name });
      for (const [j, name] of (s.notify_channels ?? []).entries())
        refs.push({ path: ['steps', i, 'notify_channels', j], kind: 'channels', name });
      for (const [j, name] of (s.notify_schedules ?? []).entries())
        refs.push({ path: ['steps', i, 'notify_schedules', j], kind: 'schedules', name });
    }
    return refs;
  },
  toBody(item, names) {
    const { steps, ...rest } = item;
    return {
      ...rest,
      ...(steps
        ? {
            steps: (steps as FileStep[]).map((s) => ({
              wait_minutes: s.wait_minutes,
              notify_user_ids: (s.notify_users ?? []).map((n) => names.idOf('users', n) ?? n),
              notify_channel_ids: (s.notify_channels ?? []).map((n) => names.idOf('channels', n) ?? n),
              notify_schedule_ids: (s.notify_schedules ?? []).map((n) => names.idOf('schedules', n) ?? n),
            })),
          }
        : {}),
    };
  },
  // A workspace always has one default: `is_default: false` follows from another policy's `true`
  // (the API moves the default), so only `true` is compared and sent. No support hours is the same
  // whether the file says `null` or nothing.
  comparable: ({ is_default, support_hours, ...rest }) => ({
    ...rest,
    ...(support_hours ? { support_hours } : {}),
    ...(is_default === true ? { is_default } : {}),
  }),
  cannotDelete: (live, items) =>
    live.is_default === true && !items.some((i) => i.is_default === true)
      ? 'it is the workspace’s default policy; name it in the file, or make another policy `is_default: true`'
      : undefined,
  create: async (a, body) =>
    (await ok(
      a.POST('/escalation-policies', { body: body as Body<'/escalation-policies', 'post'> }),
    )) as unknown as Live,
  async update(a, live, body) {
    await ok(
      a.PATCH('/escalation-policies/{id}', {
        params: { path: { id: live.id } },
        body: body as Body<'/escalation-policies/{id}', 'patch'>,
      }),
    );
  },
  async remove(a, live) {
    await ok(a.DELETE('/escalation-policies/{id}', { params: { path: { id: live.id } } }));
  },
};
