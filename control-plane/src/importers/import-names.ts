import { MAX_TAG_LENGTH, MAX_TAGS, TAG } from '../domain/monitors/labels.js';
import { oneLine } from '../domain/validation.js';
import type { SecretReference } from './import-outcome.js';
import { envRef, importEnvName } from './import-source.js';

/**
 * What the API importers (Healthchecks, UptimeRobot) share: names made unique in a kind of the file,
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
 * "PagerDuty"])` names it ("Notify Ops Slack, PagerDuty"), the same set the same policy. At most 20
 * channels a step (the API's limit): the rest go to a second step at once.
 */
export const policyBook = () => {
  const names = nameBook();
  const bySet = new Map<string, string>();
  const policies: { name: string; steps: { wait_minutes: number; notify_channels: string[] }[] }[] = [];
  const policyFor = (channels: string[]): string | undefined => {
    const set = [...new Set(channels)].sort();
    if (!set.length) return undefined;
    const key = set.join('\u0000');
    const known = bySet.get(key);
    if (known) return known;
    const label = `Notify ${set.join(', ')}`;
    const name = names(label.length <= 120 ? label : `Notify ${set.length} channels`, 'Notify');
    const steps = [];
    for (let i = 0; i < set.length; i += 20)
      steps.push({ wait_minutes: 0, notify_channels: set.slice(i, i + 20) });
    policies.push({ name, steps });
    bySet.set(key, name);
    return name;
  };
  return { policyFor, policies };
};
