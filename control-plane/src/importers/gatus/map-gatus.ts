import { recurrenceProblems } from '../../domain/maintenance/maintenance.js';
import { policyBook } from '../import-names.js';
import type { ImportOutcome } from '../import-outcome.js';
import { type ChannelNames, mapAlerting } from './alerting.js';
import { mapEndpoint } from './endpoint.js';
import { Collector, durationSeconds, nameOf, obj, str, withoutPassword } from './values.js';

/**
 * Gatus's `config.yaml` (its README is the reference: "Configuration", "Endpoints", "External
 * Endpoints", "Alerting", "Maintenance") as a Lookout configuration: endpoints → monitors (endpoint.ts),
 * `alerting` providers → channels (alerting.ts), each endpoint's alerts → an escalation policy
 * notifying those channels (one policy per distinct set, shared), `group` → groups,
 * `external-endpoints` → heartbeats, `maintenance` and `endpoints[].maintenance-windows` → recurring
 * maintenance windows. Pure: the parsed YAML in, the outcome out.
 */

/** Top-level keys of Gatus's configuration that concern its own server, not what it checks. */
const SERVER_KEYS: Record<string, string> = {
  metrics: 'Lookout serves its own metrics',
  storage: 'Lookout keeps its own history (results are not imported)',
  security: 'Lookout has its own sign-in, roles and API keys',
  web: 'settings of Gatus’s web server',
  ui: 'settings of Gatus’s dashboard: Lookout’s status pages have their own',
  concurrency: 'Lookout’s agents schedule checks themselves',
  'disable-monitoring-lock': 'Lookout’s agents schedule checks themselves',
  'skip-invalid-config-update': 'a setting of Gatus’s configuration reload',
  connectivity: 'Lookout judges each check by itself (run agents in several regions instead)',
  announcements: 'Lookout’s status pages have incidents and notices of their own',
  suites:
    'Lookout’s multistep checks chain requests, but suites’ [CONTEXT] stores have no equivalent: rebuild them as multistep monitors',
  remote: 'Lookout has no remote instances',
  tunneling: 'Lookout has no SSH tunnels (run an agent in the network instead)',
};
const KNOWN = new Set(['alerting', 'endpoints', 'external-endpoints', 'maintenance', 'version']);

const DAYS: Record<string, number> = {
  sunday: 0,
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
};

/** Gatus's maintenance (`start: hh:mm`, `duration`, `timezone`, `every: [Monday, …]`) as a cron window. */
const windowOf = (w: Record<string, unknown>, now: Date): Record<string, unknown> | string => {
  const start = /^(\d{1,2}):(\d{2})$/.exec(str(w.start) ?? '');
  const duration = durationSeconds(w.duration);
  if (!start || Number(start[1]) > 23 || Number(start[2]) > 59) return 'start is not hh:mm';
  if (!duration) return 'duration is not a duration';
  const every = Array.isArray(w.every) ? w.every.map((d) => String(d).toLowerCase()) : [];
  const days = every.map((d) => DAYS[d]);
  if (days.some((d) => d === undefined)) return `every names a day Gatus does not know (${every.join(', ')})`;
  const dow = days.length ? [...new Set(days)].sort().join(',') : '*';
  const window = {
    schedule: `${Number(start[2])} ${Number(start[1])} * * ${dow}`,
    timezone: str(w.timezone) || 'UTC',
    duration_seconds: Math.round(duration),
  };
  // Lookout's own rules (a known zone, at most 7 days, not longer than the gap between occurrences).
  const problems = recurrenceProblems(window, now).problems;
  return problems.length ? problems.map((p) => `${p.field} ${p.message}`).join('; ') : window;
};

/** Gatus's key for an external endpoint (`<group>_<name>`, some characters as `-`), as a slug. */
const slugOf = (group: string, name: string) =>
  `${group}_${name}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '') || 'heartbeat';

export const mapGatus = (config: Record<string, unknown>, now = new Date()): ImportOutcome => {
  const c = new Collector();
  const alerting = obj(config.alerting);
  const channels = mapAlerting(alerting, c);
  const policies = policyBook('Gatus alerts', { repeat: 0 });
  const groups = new Set<string>();

  const endpoints = (Array.isArray(config.endpoints) ? config.endpoints : []).map(obj);
  const externals = (Array.isArray(config['external-endpoints']) ? config['external-endpoints'] : []).map(
    obj,
  );
  // Gatus names are unique within a group: a name used in two groups takes its group in Lookout.
  const seen = new Map<string, number>();
  for (const e of [...endpoints, ...externals])
    seen.set(str(e.name) ?? '', (seen.get(str(e.name) ?? '') ?? 0) + 1);
  const itemName = (e: Record<string, unknown>) => {
    const name = str(e.name) ?? '';
    const group = str(e.group)?.trim();
    return nameOf(group && (seen.get(name) ?? 0) > 1 ? `${name} (${group})` : name, 200, 'unnamed');
  };
  const groupOf = (e: Record<string, unknown>, item: Record<string, unknown>, source: string) => {
    const group = str(e.group)?.trim();
    if (!group) return;
    const name = nameOf(c.plain(group, source, 'group'), 100, 'unnamed group');
    if (!groups.has(name)) {
      groups.add(name);
      c.add('groups', { name });
    }
    item.group = name;
  };

  for (const e of endpoints) {
    c.count('endpoints');
    const name = itemName(e);
    const source = `endpoint "${str(e.name) ?? ''}"${e.group ? ` (group ${str(e.group)})` : ''}`;
    const r = mapEndpoint(e, c.plain(name, source, 'name'), c, source);
    if ('skipped' in r) {
      c.note(source, `url: ${withoutPassword(str(e.url) ?? '')}`, `${r.skipped}; not imported`);
      continue;
    }
    const m = r.monitor;
    groupOf(e, m, source);
    const lostAlerts = alertsOf(e, alerting, channels, policies, m);
    const index = c.add('monitors', m);
    const item = { kind: 'monitors', index };
    for (const l of [...r.lost, ...lostAlerts]) c.note(source, l.setting, l.reason, item);
    if (r.domain) {
      if (m.group) r.domain.group = m.group;
      if (m.escalation_policy) r.domain.escalation_policy = m.escalation_policy;
      c.add('monitors', r.domain);
    }
    const windows = Array.isArray(e['maintenance-windows']) ? e['maintenance-windows'] : [];
    windows.forEach((w, i) => {
      const win = windowOf(obj(w), now);
      if (typeof win === 'string') c.note(source, `maintenance-windows[${i}]`, `${win}; not imported`, item);
      else
        c.add('maintenance_windows', {
          name: `Maintenance of ${String(m.display_name).slice(0, 170)}${windows.length > 1 ? ` #${i + 1}` : ''}`,
          scope_type: 'monitor',
          scope: m.display_name,
          ...win,
        });
    });
  }

  for (const e of externals) {
    c.count('external endpoints');
    const name = itemName(e);
    const source = `external endpoint "${str(e.name) ?? ''}"${e.group ? ` (group ${str(e.group)})` : ''}`;
    const h: Record<string, unknown> = { display_name: c.plain(name, source, 'name') };
    const lost: { setting: string; reason: string }[] = [];
    const interval = durationSeconds(obj(e.heartbeat).interval);
    if (!interval) {
      h.period_seconds = 3600;
      lost.push({
        setting: 'heartbeat.interval',
        reason:
          'none: Gatus waits for pushes without a deadline; a Lookout heartbeat expects a ping every period (written as 1h: set yours)',
      });
    } else {
      h.period_seconds = Math.max(60, Math.round(interval));
      if (h.period_seconds !== interval)
        lost.push({
          setting: 'heartbeat.interval',
          reason: `${String(obj(e.heartbeat).interval)}: Lookout's period is whole seconds, at least 60; written as ${h.period_seconds}s`,
        });
    }
    h.slug = slugOf(str(e.group) ?? '', str(e.name) ?? '');
    if (e.enabled === false) h.paused = true;
    if (e.token !== undefined)
      lost.push({
        setting: 'token',
        reason:
          'a Lookout heartbeat is pinged at its own URL, which apply prints, and at that URL with /fail for a failure: point the pushing job there; the token is not written',
      });
    groupOf(e, h, source);
    lost.push(...alertsOf(e, alerting, channels, policies, h, true));
    for (const key of Object.keys(e))
      if (!['name', 'group', 'token', 'alerts', 'heartbeat', 'enabled'].includes(key))
        lost.push({ setting: key, reason: 'Lookout has no such heartbeat setting' });
    const index = c.add('heartbeats', h);
    for (const l of lost) c.note(source, l.setting, l.reason, { kind: 'heartbeats', index });
  }
  // Slugs are unique in a workspace.
  const slugs = new Set<string>();
  for (const h of c.outcome.file.heartbeats ?? []) {
    let slug = String(h.slug);
    for (let n = 2; slugs.has(slug); n++) slug = `${String(h.slug).slice(0, 95)}-${n}`;
    slugs.add(slug);
    h.slug = slug;
  }

  if (config.maintenance !== undefined) {
    const w = obj(config.maintenance);
    if (w.enabled === false) c.note('maintenance', 'enabled', 'false: a disabled window is not imported');
    else {
      const win = windowOf(w, now);
      if (typeof win === 'string') c.note('maintenance', '', `${win}; not imported`);
      else c.add('maintenance_windows', { name: 'Maintenance', scope_type: 'workspace', ...win });
    }
  }
  for (const key of Object.keys(config)) {
    if (KNOWN.has(key)) continue;
    c.note(key, '', SERVER_KEYS[key] ?? 'not a setting Lookout has');
  }
  for (const p of policies.policies) c.add('escalation_policies', p);
  return c.outcome;
};

/**
 * An endpoint's `alerts` (each merged with its provider's `default-alert`, as Gatus does) as the
 * monitor's `failure_threshold` and an escalation policy notifying those providers' channels.
 */
const alertsOf = (
  e: Record<string, unknown>,
  alerting: Record<string, unknown>,
  channels: ChannelNames,
  policies: ReturnType<typeof policyBook>,
  item: Record<string, unknown>,
  heartbeat = false,
): { setting: string; reason: string }[] => {
  const lost: { setting: string; reason: string }[] = [];
  const alerts = Array.isArray(e.alerts) ? e.alerts.map(obj) : [];
  const targets = new Set<string>();
  const thresholds = new Set<number>();
  for (const [i, raw] of alerts.entries()) {
    const type = str(raw.type) ?? '';
    const a = { ...obj(obj(alerting[type])['default-alert']), ...raw };
    const at = `alerts[${i}] (${type})`;
    if (a.enabled === false) {
      lost.push({ setting: at, reason: 'disabled in Gatus: not imported' });
      continue;
    }
    const channel = channels.get(type);
    if (!channel) {
      lost.push({ setting: at, reason: `alerting.${type} is not imported (see the list at the top)` });
      continue;
    }
    targets.add(channel);
    const threshold = Number(a['failure-threshold'] ?? 3);
    if (Number.isInteger(threshold) && threshold >= 1 && threshold <= 100) thresholds.add(threshold);
    if (a['success-threshold'] !== undefined && Number(a['success-threshold']) !== 1)
      lost.push({
        setting: `${at}.success-threshold`,
        reason: 'Lookout resolves an alert on the first check that passes',
      });
    if (a['minimum-reminder-interval'] !== undefined)
      lost.push({
        setting: `${at}.minimum-reminder-interval`,
        reason: 'Lookout repeats an alert through its escalation policy’s steps and repeat',
      });
    if (a.description !== undefined)
      lost.push({
        setting: `${at}.description`,
        reason: 'Lookout’s alerts name the monitor and the failed check; there is no text per alert',
      });
    if (a['provider-override'] !== undefined)
      lost.push({
        setting: `${at}.provider-override`,
        reason: 'make a channel for this destination and a policy naming it; the override is not written',
      });
  }
  if (heartbeat) {
    if (alerts.some((a) => a['failure-threshold'] !== undefined))
      lost.push({
        setting: 'alerts[].failure-threshold',
        reason:
          'a Lookout heartbeat alerts once a ping is late (its period and grace); pushed failures alert at once',
      });
  } else if (thresholds.size) {
    item.failure_threshold = Math.min(...thresholds);
    if (thresholds.size > 1)
      lost.push({
        setting: 'alerts[].failure-threshold',
        reason: `Lookout has one threshold per monitor: the lowest, ${item.failure_threshold}, is kept`,
      });
  }
  if (!targets.size) return lost;
  const policy = policies.policyFor([...targets]);
  item.escalation_policy = policy;
  return lost;
};
