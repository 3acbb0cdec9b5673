import { z } from 'zod';
import { type Body, ok } from '../../api-client/client.js';
import { CHECK_TYPES, TYPES_OF_FIELD } from '../../domain/checks/registry.js';
import { connectionHint } from '../../domain/checks/targets.js';
import { SECRET_MASK } from '../../domain/monitors/monitor-masking.js';
import { createMonitorBody, MAX_MONITOR_BATCH } from '../../domain/monitors/monitors.js';
import { dependsOnItem, dependsOnRef } from '../depends-on.js';
import {
  allPages,
  groupRef,
  Hidden,
  type Live,
  pick,
  type ResourceKind,
  SECRET_HEADER,
  singleRef,
} from '../kind.js';

const api = createMonitorBody as unknown as z.ZodObject;
const policy = singleRef('escalation_policy_id', 'escalation_policy', 'escalation_policies');
const group = groupRef();
const fields = Object.keys(api.shape);

/** A URL whose query carries a credential (`?token=…`, `?api_key=…`) is a secret as a whole. */
const hasSecretQuery = (url: unknown) => {
  try {
    return [...new URL(String(url)).searchParams.keys()].some((k) => SECRET_HEADER.test(k));
  } catch {
    return false;
  }
};

/** A value a viewer sees masked: the file cannot know it. */
const masked = (v: unknown) => typeof v === 'string' && v.includes(SECRET_MASK);

export const monitors: ResourceKind = {
  key: 'monitors',
  noun: 'monitor',
  nameField: 'display_name',
  item: api.omit({ escalation_policy_id: true, group_id: true, depends_on: true }).extend({
    depends_on: dependsOnItem,
    escalation_policy: z.string().min(1).max(200).optional(),
    group: z
      .string()
      .min(1)
      .max(100)
      .nullable()
      .optional()
      .describe('The name of its group (`groups`); null: none.'),
    script_file: z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .describe(
        'Browser monitors: the script from a file instead of `script`, its path relative to this file’s folder (inside it), at most 64 KiB; read by plan and apply.',
      ),
  }),
  writeRole: 'member',
  list: (a) => allPages((cursor) => ok(a.GET('/monitors', { params: { query: { limit: 100, cursor } } }))),
  immutable: ['monitor_type'],
  fromLive(live, names) {
    const type = live.monitor_type as string;
    const out = pick(live, fields);
    // Only the fields of its type: the API refuses the others on create.
    for (const [field, types] of Object.entries(TYPES_OF_FIELD))
      if (!types.includes(type as never)) delete out[field];
    // A connection URL is never returned (the API shows its hint): a secret of the file, compared by
    // the hint it would have.
    if (CHECK_TYPES[type as keyof typeof CHECK_TYPES]?.target.secret)
      out.url = new Hidden((v) => typeof v === 'string' && connectionHint(v) === live.url);
    if (type !== 'http' && type !== 'api') delete out.expected_status_code;
    // The endpoint's password or token is never returned: a secret of the file.
    const auth = live.auth as { type: string; username?: string } | null;
    if (auth)
      out.auth =
        auth.type === 'basic' ? { ...auth, password: new Hidden() } : { ...auth, token: new Hidden() };
    if (masked(out.url)) out.url = new Hidden();
    if (masked(out.request_body)) out.request_body = new Hidden();
    if (out.request_headers)
      out.request_headers = Object.fromEntries(
        Object.entries(out.request_headers as Record<string, string>).map(([k, v]) => [
          k,
          masked(v) ? new Hidden() : v,
        ]),
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
  secretField: (_item, path) =>
    (path[0] === 'auth' && (path[1] === 'password' || path[1] === 'token')) ||
    path[0] === 'request_headers' ||
    (path.length === 1 && (path[0] === 'url' || path[0] === 'request_body')),
  sensitive: (item, path) =>
    (path[0] === 'request_headers' && SECRET_HEADER.test(String(path[1]))) ||
    (path.length === 1 && path[0] === 'url' && hasSecretQuery(item.url)),
  create: async (a, body) =>
    (await ok(
      a.POST('/monitors/create', { body: body as Body<'/monitors/create', 'post'> }),
    )) as unknown as Live,
  bulk: {
    size: MAX_MONITOR_BATCH,
    async check(a, bodies, others) {
      await ok(
        a.POST('/monitors/batch/check', {
          body: { monitors: bodies, in_other_batches: others } as Body<'/monitors/batch/check', 'post'>,
        }),
      );
    },
    async create(a, bodies) {
      const r = await ok(
        a.POST('/monitors/batch', { body: { monitors: bodies } as Body<'/monitors/batch', 'post'> }),
      );
      return r.data as unknown as Live[];
    },
  },
  async update(a, live, body) {
    await ok(
      a.PATCH('/monitors/{id}', {
        params: { path: { id: live.id } },
        body: body as Body<'/monitors/{id}', 'patch'>,
      }),
    );
  },
  async remove(a, live) {
    await ok(a.DELETE('/monitors/{id}', { params: { path: { id: live.id } } }));
  },
};
