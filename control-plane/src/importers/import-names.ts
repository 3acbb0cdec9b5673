import type { Item } from '../config-as-code/kind.js';
import { kindByKey } from '../config-as-code/kinds/index.js';
import { UNSET_STAND_IN } from '../config-as-code/yaml-source.js';
import { MAX_TAG_LENGTH, MAX_TAGS, TAG } from '../domain/monitors/labels.js';
import { oneLine } from '../domain/validation.js';
import type { SecretReference, Unmapped } from './import-outcome.js';
import { envRef, importEnvName } from './import-source.js';

/**
 * What the importers share: names made unique in a kind of the file,
 * tags made into Lookout's, `${ENV}` references named `LOOKOUT_IMPORT_<KIND>_<NAME>_<FIELD>`, and one
 * escalation policy per distinct set of channels (a heartbeat or monitor names one policy, where the
 * source lists its channels one by one).
 */

/** Names unique within one kind of the file: the second "API" becomes "API (2)". */
export const nameBook = (max = 200) => {
  const taken = new Set<string>();
  return (wanted: string, fallback: string): string => {
    const base = (oneLine(wanted) || fallback).slice(0, max - 6);
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base} (${n})`;
    taken.add(name.toLowerCase());
    return name;
  };
};

/** `${LOOKOUT_IMPORT_CHANNEL_OPS_SLACK_CONFIG_URL}` for field `config.url` of channel "Ops Slack". */
export const secretRef = (
  secrets: SecretReference[],
  noun: string,
  name: string,
  field: (string | number)[],
): string => {
  const env = importEnvName(noun, name, field.join('.'));
  const where = `${noun}s "${name}" ${field.join('.')}`;
  if (!secrets.some((s) => s.env === env)) secrets.push({ env, where });
  return envRef(env);
};

/**
 * A source's tag as a Lookout tag (`key` or `key:value` of lower-case letters, digits, - and _):
 * lower-cased, anything else a dash; null when nothing is left.
 */
export const lookoutTag = (tag: string): string | null => {
  const [key, ...rest] = tag.toLowerCase().split(':');
  const clean = (s: string) =>
    s
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, MAX_TAG_LENGTH);
  const k = clean(key ?? '');
  const v = clean(rest.join('-'));
  const t = (v ? `${k}:${v}` : k).slice(0, MAX_TAG_LENGTH);
  return k && TAG.test(t) ? t : null;
};

/** Tags of a source as Lookout's, repeats dropped, at most MAX_TAGS; `changed` lists what was rewritten. */
export const lookoutTags = (tags: string[]) => {
  const out: string[] = [];
  const changed: string[] = [];
  const dropped: string[] = [];
  for (const tag of tags) {
    const t = lookoutTag(tag);
    if (t === null || out.length >= MAX_TAGS) dropped.push(tag);
    else {
      if (t !== tag) changed.push(`${tag} → ${t}`);
      if (!out.includes(t)) out.push(t);
    }
  }
  return { tags: out, changed, dropped };
};

/**
 * One escalation policy per distinct set of channels (names in the file): `policyFor(["Ops Slack",
 * "PagerDuty"])` names it after the source ("Healthchecks: Ops Slack, PagerDuty"), the same set the
 * same policy. At most 20 channels a step (the API's limit): the rest go to a second step at once.
 * Every importer routes through it; `repeat` is written on each policy when given.
 */
export const policyBook = (source: string, opts: { repeat?: number } = {}) => {
  const names = nameBook();
  const bySet = new Map<string, string>();
  const policies: {
    name: string;
    repeat?: number;
    steps: { wait_minutes: number; notify_channels: string[] }[];
  }[] = [];
  const policyFor = (channels: string[]): string | undefined => {
    const set = [...new Set(channels)].sort();
    if (!set.length) return undefined;
    const key = set.join('\u0000');
    const known = bySet.get(key);
    if (known) return known;
    const label = `${source}: ${set.join(', ')}`;
    const name = names(label.length <= 120 ? label : `${source}: ${set.length} channels`, source);
    const steps = [];
    for (let i = 0; i < set.length; i += 20)
      steps.push({ wait_minutes: 0, notify_channels: set.slice(i, i + 20) });
    policies.push(opts.repeat === undefined ? { name, steps } : { name, repeat: opts.repeat, steps });
    bySet.set(key, name);
    return name;
  };
  return { policyFor, policies };
};

const ENV_ONLY = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/** Fields without which an item is not the item: a problem there leaves the whole item out. */
const CORE = new Set(['display_name', 'name', 'monitor_type', 'url', 'type', 'scope_type', 'scope']);

/**
 * An item as the file's schema for its kind takes it (`${NAME}` references read as the stand-in a
 * secret reads as until set): an optional field the schema refuses (a header value too long, an
 * address it does not take) is dropped and listed; a refused core field (the name, the type, the
 * target) leaves the item out, listed. Null when it is left out.
 */
export const admit = (
  key: 'channels' | 'monitors' | 'heartbeats' | 'maintenance_windows',
  item: Item,
  source: string,
  lost: Unmapped[],
): Item | null => {
  const schema = kindByKey(key)?.item;
  if (!schema) return item;
  const standIn = (v: unknown): unknown =>
    typeof v === 'string' && ENV_ONLY.test(v)
      ? UNSET_STAND_IN
      : Array.isArray(v)
        ? v.map(standIn)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, standIn(x)]))
          : v;
  const out = { ...item };
  /** A `${NAME}` stands for what the user sets: its field's own shape (a 32-character key) is theirs to meet. */
  const isRef = (path: PropertyKey[]) => {
    let v: unknown = out;
    for (const k of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
    return typeof v === 'string' && ENV_ONLY.test(v);
  };
  for (let round = 0; round < 5; round++) {
    const r = schema.safeParse(standIn(out));
    const issues = r.success ? [] : r.error.issues.filter((i) => !isRef(i.path));
    if (!issues.length) return out;
    const fields = [...new Set(issues.map((i) => String(i.path[0] ?? '')))];
    const core = fields.filter((f) => CORE.has(f) || f === '' || f === 'config');
    const issue = (f: string) => issues.find((i) => String(i.path[0] ?? '') === f);
    if (core.length) {
      for (const f of core)
        lost.push({
          source,
          setting: f || '(the whole object)',
          reason: `not imported: ${issue(f)?.message}`,
        });
      return null;
    }
    for (const f of fields) {
      lost.push({ source, setting: f, reason: `left out: Lookout refuses it (${issue(f)?.message})` });
      delete out[f];
    }
  }
  return null;
};
