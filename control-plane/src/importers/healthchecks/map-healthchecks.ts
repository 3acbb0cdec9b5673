import type { Item } from '../../config-as-code/kind.js';
import { SLUG } from '../../domain/heartbeats/heartbeats.js';
import { canonicalTimezone, scheduleProblem } from '../../domain/heartbeats/schedule.js';
import { admit, lookoutTags as lookoutTagsOf, nameBook, policyBook } from '../import-names.js';
import type { ImportOutcome, SecretReference, Unmapped } from '../import-outcome.js';
import { type HcChannel, mapChannel } from './map-channels.js';

/**
 * Healthchecks (Management API v3, `GET /api/v3/checks/` and `GET /api/v3/channels/`, or a JSON file
 * of the same shape) → Lookout heartbeats, channels and the escalation policies that join them. A
 * check with a period (`timeout`) keeps it and its grace; a cron check keeps its schedule and time
 * zone. Read with a read-only key a check has `unique_key` and no `channels`: the heartbeats are
 * made without their channels, and that is listed.
 */

/** A check as `GET /api/v3/checks/` lists it (hc/api/models.py Check.to_dict). */
export interface HcCheck {
  name: string;
  slug?: string;
  tags?: string;
  desc?: string;
  grace: number;
  status?: string;
  manual_resume?: boolean;
  methods?: string;
  timeout?: number;
  schedule?: string;
  tz?: string;
  /** Comma-separated channel ids; absent when read with a read-only key. */
  channels?: string;
  uuid?: string;
  unique_key?: string;
  start_kw?: string;
  success_kw?: string;
  failure_kw?: string;
  filter_subject?: boolean;
  filter_body?: boolean;
  filter_http_body?: boolean;
  filter_default_fail?: boolean;
}

export interface HcInput {
  checks: HcCheck[];
  /** `GET /api/v3/channels/`; null when not listed (a read-only key may not list them). */
  channels: HcChannel[] | null;
}

const LEAST_PERIOD = 60;
const MOST_SECONDS = 31_536_000;

const checkLabel = (c: HcCheck) =>
  `check "${c.name || c.slug || '(unnamed)'}"${c.uuid ? ` (${c.uuid})` : c.unique_key ? ` (${c.unique_key.slice(0, 12)})` : ''}`;

/** What a check sets that Lookout's heartbeats do not have. */
const lostSettings = (c: HcCheck): [string, string][] => {
  const lost: [string, string][] = [];
  if (c.desc?.trim()) lost.push(['desc', 'Lookout heartbeats have no description']);
  if (c.manual_resume)
    lost.push(['manual_resume', 'Lookout resumes a heartbeat on its next ping; it has no manual resume']);
  if (c.methods === 'POST')
    lost.push(['methods', 'Lookout takes pings by GET and POST alike; it cannot ignore GET pings']);
  const keywords = [c.start_kw, c.success_kw, c.failure_kw].some((k) => k?.trim());
  if (keywords || c.filter_subject || c.filter_body || c.filter_http_body || c.filter_default_fail)
    lost.push([
      'start_kw, success_kw, failure_kw, filter_*',
      'Lookout does not classify pings by keywords in their body or subject (it has /start and /fail ping URLs)',
    ]);
  return lost;
};

/**
 * Both checks cost a millisecond or so (a cron parser, an Intl time zone): asked once per distinct
 * value, so thousands of checks sharing a few schedules and zones map in well under a second.
 */
const once = <T>(f: (v: string) => T) => {
  const seen = new Map<string, T>();
  return (v: string): T => {
    if (!seen.has(v)) seen.set(v, f(v));
    return seen.get(v) as T;
  };
};

type Checks = { schedule: (s: string) => string | null; zone: (tz: string) => string | null };

const period = (c: HcCheck, unmapped: Unmapped[], source: string, checks: Checks): Item | null => {
  if (typeof c.schedule === 'string' && c.schedule.trim()) {
    const problem = checks.schedule(c.schedule);
    if (problem) {
      unmapped.push({
        source,
        setting: `schedule: ${c.schedule}`,
        reason: `not imported: Lookout reads five-field cron schedules (an OnCalendar schedule is not one): ${problem}`,
      });
      return null;
    }
    const tz = checks.zone(c.tz || 'UTC');
    if (!tz) {
      unmapped.push({ source, setting: `tz: ${c.tz}`, reason: 'not imported: not a known IANA time zone' });
      return null;
    }
    return { schedule: c.schedule.trim(), timezone: tz };
  }
  if (typeof c.timeout !== 'number' || !Number.isFinite(c.timeout)) {
    unmapped.push({
      source,
      setting: '',
      reason: 'not imported: the check has neither timeout nor schedule',
    });
    return null;
  }
  const seconds = Math.round(Math.min(Math.max(c.timeout, LEAST_PERIOD), MOST_SECONDS));
  if (seconds !== c.timeout)
    unmapped.push({
      source,
      setting: `timeout: ${c.timeout}`,
      reason: `Lookout periods are ${LEAST_PERIOD} s to one year: ${seconds} s`,
    });
  return { period_seconds: seconds };
};

export const mapHealthchecks = (input: HcInput): ImportOutcome => {
  const unmapped: Unmapped[] = [];
  const secrets: SecretReference[] = [];
  const channelNames = nameBook();
  const channels: Item[] = [];
  /** Source channel id → the Lookout channel's name (only those that map). */
  const channelById = new Map<string, string>();
  for (const ch of input.channels ?? []) {
    const mapped = mapChannel(ch, channelNames, secrets);
    if ('reason' in mapped) unmapped.push(mapped);
    else if (admit('channels', mapped.item, `integration "${ch.name || ch.kind}" (${ch.id})`, unmapped)) {
      if (mapped.note) unmapped.push({ ...mapped.note, item: { kind: 'channels', index: channels.length } });
      channels.push(mapped.item);
      channelById.set(ch.id, mapped.item.name as string);
    }
  }
  const { policyFor, policies } = policyBook('Healthchecks');
  const names = nameBook();
  const slugs = new Set<string>();
  const heartbeats: Item[] = [];
  const checks: Checks = { schedule: once(scheduleProblem), zone: once(canonicalTimezone) };
  let readOnly = false;
  for (const c of input.checks) {
    const source = checkLabel(c);
    // What this check loses, marked with its heartbeat's place in the file once it has one.
    const lost: Unmapped[] = [];
    const timing = period(c, lost, source, checks);
    if (!timing) {
      unmapped.push(...lost);
      continue;
    }
    const hb: Item = { display_name: names(c.name ?? '', c.slug || 'Unnamed check'), ...timing };
    const grace = Math.round(Math.min(Math.max(c.grace ?? 3600, 0), MOST_SECONDS));
    hb.grace_seconds = grace;
    if (c.slug) {
      const slug = c.slug.toLowerCase().replace(/_/g, '-');
      if (!SLUG.test(slug))
        lost.push({ source, setting: `slug: ${c.slug}`, reason: 'not a Lookout slug (a-z, 0-9 and -)' });
      else if (slugs.has(slug))
        lost.push({
          source,
          setting: `slug: ${c.slug}`,
          reason: 'another check has this slug; slugs are unique in a Lookout workspace',
        });
      else {
        slugs.add(slug);
        hb.slug = slug;
        if (slug !== c.slug)
          lost.push({ source, setting: `slug: ${c.slug}`, reason: `Lookout slugs have no _: ${slug}` });
      }
    }
    const tags = (c.tags ?? '').split(/\s+/).filter(Boolean);
    if (tags.length) {
      const t = lookoutTagsFor(tags, source, lost);
      if (t.length) hb.tags = t;
    }
    if (c.status === 'paused') hb.paused = true;
    if (c.channels === undefined) readOnly = true;
    else {
      const ids = c.channels
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const mapped = ids.map((id) => channelById.get(id)).filter((n): n is string => n !== undefined);
      const policy = policyFor(mapped);
      if (policy) hb.escalation_policy = policy;
    }
    for (const [setting, reason] of lostSettings(c)) lost.push({ source, setting, reason });
    const admitted = admit('heartbeats', hb, source, lost);
    if (!admitted) {
      unmapped.push(...lost);
      continue;
    }
    const index = heartbeats.length;
    heartbeats.push(admitted);
    unmapped.push(...lost.map((u) => ({ ...u, item: { kind: 'heartbeats', index } })));
  }
  if (readOnly)
    unmapped.push({
      source: 'every check',
      setting: 'channels',
      reason:
        'read with a read-only API key, which does not show which integrations a check notifies: the heartbeats notify through the workspace default policy; import with a read-write key to keep them',
    });
  else if (input.channels === null)
    unmapped.push({
      source: 'every check',
      setting: 'channels',
      reason:
        'the file has no "channels" list (GET /api/v3/channels/) beside "checks": the integrations are not imported',
    });
  if (input.checks.length)
    unmapped.push(
      {
        source: 'every check',
        setting: 'ping_url',
        reason:
          'a Lookout heartbeat has its own ping URL: point each job at it (apply prints them; slugs carry over for /hb/ping/{ping_key}/{slug})',
      },
      {
        source: 'every check',
        setting: 'pings, flips, badges',
        reason: 'history and badges are not configuration: Lookout starts them afresh',
      },
    );
  const file: Record<string, unknown> = { version: 1 };
  if (channels.length) file.channels = channels;
  if (policies.length) file.escalation_policies = policies;
  if (heartbeats.length) file.heartbeats = heartbeats;
  return {
    file: file as ImportOutcome['file'],
    unmapped,
    secrets,
    counts: { checks: input.checks.length, integrations: input.channels?.length ?? 0 },
  };
};

const lookoutTagsFor = (tags: string[], source: string, unmapped: Unmapped[]) => {
  const r = lookoutTagsOf(tags);
  if (r.changed.length)
    unmapped.push({
      source,
      setting: `tags: ${r.changed.join(', ')}`,
      reason: 'Lookout tags are lower-case a-z, 0-9, - and _',
    });
  if (r.dropped.length)
    unmapped.push({
      source,
      setting: `tags: ${r.dropped.join(' ')}`,
      reason: 'not a Lookout tag, or past the 20 tags a heartbeat carries',
    });
  return r.tags;
};
