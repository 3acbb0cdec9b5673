import { heartbeats as heartbeatKind } from '../../config-as-code/kinds/heartbeats.js';
import { monitors as monitorKind } from '../../config-as-code/kinds/monitors.js';
import { CHECK_TYPES } from '../../domain/checks/registry.js';
import { MAX_TAG_LENGTH, MAX_TAGS, TAG } from '../../domain/monitors/labels.js';
import type { MonitorType } from '../../domain/types.js';
import { policyBook } from '../import-names.js';
import { type MapContext, sourceName } from './context.js';
import type { KumaMonitor, KumaTag } from './kuma-data.js';
import { CHECKS, type Item, NO_CHECK } from './map-checks.js';

/**
 * Kuma monitors → Lookout monitors (the types in map-checks.ts), heartbeats (Kuma's push monitors),
 * groups (Kuma's group monitors: Lookout's groups are flat, so a monitor joins the group it sits in
 * directly) and escalation policies (one per set of notifications monitors share: Kuma links a
 * monitor to its notifications, Lookout to a policy that notifies channels).
 */
export interface MappedMonitors {
  monitors: Item[];
  heartbeats: Item[];
  groups: Item[];
  policies: Item[];
  /** Kuma monitor id → what it became (for maintenance and status pages). */
  byId: Map<number, { kind: 'monitor' | 'heartbeat' | 'group'; name: string }>;
}

/** `Env: Prod` → `env:prod`: Lookout's tags are lower-case letters, digits, `-` and `_`. */
const tagPart = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
export const tagOf = (t: KumaTag): string | null => {
  const key = tagPart(t.name);
  const value = tagPart(t.value);
  const tag = value ? `${key}:${value}` : key;
  return key && tag.length <= MAX_TAG_LENGTH && TAG.test(tag) ? tag : null;
};

const schemaProblems = (
  schema: { safeParse(v: unknown): { success: boolean; error?: unknown } },
  item: Item,
) => {
  const r = schema.safeParse(item);
  if (r.success) return [];
  return ((r.error as { issues: { path: PropertyKey[]; message: string }[] }).issues ?? []).map(
    (i) => `${i.path.map(String).join('.') || 'monitor'} ${i.message}`,
  );
};

export const mapMonitors = (
  list: KumaMonitor[],
  channelOf: Map<number, string>,
  ctx: MapContext,
  notificationNames: Map<number, string> = new Map(),
): MappedMonitors => {
  const policies = policyBook('Uptime Kuma', { repeat: 0 });
  const { policyFor } = policies;
  const out: MappedMonitors = {
    monitors: [],
    heartbeats: [],
    groups: [],
    policies: policies.policies,
    byId: new Map(),
  };
  const kuma = new Map(list.map((m) => [m.id, m]));
  for (const g of list.filter((m) => m.type === 'group')) {
    const name = ctx.uniqueName('groups', g.name, 100);
    const before = ctx.unmapped.length;
    if (g.notificationIds.length)
      ctx.lose(
        sourceName('group', g.name, g.id),
        'notifications',
        'Lookout groups do not alert on their own: their monitors do',
      );
    if (g.tags.length)
      ctx.lose(sourceName('group', g.name, g.id), 'tags', 'Lookout groups carry no tags: their monitors do');
    out.groups.push({ name });
    out.byId.set(g.id, { kind: 'group', name });
    if (g.parent !== null && kuma.get(g.parent)?.type === 'group')
      ctx.lose(
        sourceName('group', g.name, g.id),
        `parent: ${kuma.get(g.parent)?.name}`,
        'Lookout groups do not nest; it is a group of its own',
      );
    ctx.attach(before, 'groups', out.groups.length - 1);
  }
  for (const m of list) {
    if (m.type === 'group') continue;
    const source = sourceName('monitor', m.name, m.id);
    const lose = (setting: string, reason: string) => ctx.lose(source, setting, reason);
    const push = m.type === 'push';
    const mapper = CHECKS[m.type];
    if (!push && !mapper) {
      lose(`type: ${m.type}`, NO_CHECK[m.type] ?? `Lookout has no ${m.type} check`);
      continue;
    }
    const name = ctx.uniqueName(push ? 'heartbeats' : 'monitors', m.name, 200);
    const secretsBefore = ctx.secrets.length;
    const unmappedBefore = ctx.unmapped.length;
    const common: Item = {};
    if (!m.active) common.paused = true;
    const tags: string[] = [];
    for (const t of m.tags) {
      const tag = tagOf(t);
      if (!tag)
        lose(`tag ${t.name}${t.value ? `:${t.value}` : ''}`, 'not a tag Lookout takes, even lower-cased');
      else if (!tags.includes(tag)) tags.push(tag);
    }
    if (tags.length > MAX_TAGS)
      lose('tags', `Lookout keeps at most ${MAX_TAGS} tags; the first ${MAX_TAGS} are kept`);
    if (tags.length) common.tags = tags.slice(0, MAX_TAGS);
    const parent = m.parent === null ? undefined : out.byId.get(m.parent);
    if (parent?.kind === 'group') common.group = parent.name;
    const channels = m.notificationIds.flatMap((id) => {
      const c = channelOf.get(id);
      if (!c)
        lose(
          `notification "${notificationNames.get(id) ?? id}"`,
          'the notification was not imported (see it above): the others still notify',
        );
      return c ? [c] : [];
    });
    const policyName = policyFor([...new Set(channels)]);
    if (policyName) common.escalation_policy = policyName;
    if (m.upsideDown) lose('upsideDown', 'Lookout has no upside-down mode (down when the check passes)');
    if (m.resendInterval > 0)
      lose(
        `resendInterval: ${m.resendInterval}`,
        'Lookout repeats notifications through its escalation policy',
      );
    if (m.description?.trim()) lose('description', 'Lookout monitors have no description');
    if (m.proxyId !== null) lose('proxy', 'Lookout checks from its own locations, through no proxy');
    if (m.conditions && m.conditions.trim() !== '[]' && m.conditions.trim() !== '')
      lose('conditions', 'Lookout has no check conditions of this form; add assertions by hand');
    let item: Item;
    let problems: string[];
    if (push) {
      const period = Math.max(60, Math.round(m.interval));
      if (m.interval < 60)
        lose(`interval: ${m.interval}`, 'Lookout heartbeats expect a ping at most every 60 s');
      item = {
        display_name: name,
        period_seconds: period,
        grace_seconds: Math.max(0, m.maxretries * m.retryInterval),
        ...common,
      };
      lose('pushToken', 'the heartbeat gets a new ping URL (apply prints it): point your jobs at it');
      problems = schemaProblems(heartbeatKind.item, item);
    } else {
      const check = mapper!({ m, name, ctx, lose });
      if (typeof check === 'string') {
        ctx.secrets.splice(secretsBefore);
        ctx.unmapped.splice(unmappedBefore);
        lose('', check);
        continue;
      }
      // The API's own target rule (a host name, a URL): one bad target would stop the whole plan.
      const type = CHECK_TYPES[check.monitor_type as MonitorType];
      const url = String(check.url);
      const target = type && !url.startsWith('${') ? type.target.problem(url) : null;
      if (target) {
        ctx.secrets.splice(secretsBefore);
        ctx.unmapped.splice(unmappedBefore);
        lose('', `its target ${target}`);
        continue;
      }
      const interval = Math.max(1, Math.min(86400, Math.round(m.interval)));
      item = {
        display_name: name,
        ...check,
        check_interval_seconds: interval,
        // Kuma marks a monitor down after `maxretries` failed retries: the first failure and those.
        failure_threshold: Math.min(100, m.maxretries + 1),
      };
      if (m.timeout && m.timeout > 0) {
        const timeout = Math.max(1, Math.min(60, interval, Math.round(m.timeout)));
        if (timeout !== Math.round(m.timeout))
          lose(`timeout: ${m.timeout}`, `Lookout waits at most 60 s and at most the interval; ${timeout} s`);
        item.timeout_seconds = timeout;
      }
      if (m.maxretries > 0 && m.retryInterval > 0)
        item.retry_interval_seconds = Math.max(5, Math.min(interval, Math.round(m.retryInterval)));
      Object.assign(item, common);
      problems = schemaProblems(monitorKind.item, item);
    }
    if (problems.length) {
      ctx.secrets.splice(secretsBefore);
      lose('', `not imported: ${problems.join('; ')}`);
      continue;
    }
    const list = push ? out.heartbeats : out.monitors;
    list.push(item);
    ctx.attach(unmappedBefore, push ? 'heartbeats' : 'monitors', list.length - 1);
    out.byId.set(m.id, { kind: push ? 'heartbeat' : 'monitor', name });
  }
  return out;
};
