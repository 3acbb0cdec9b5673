import type { Item } from '../../config-as-code/kind.js';
import { recurrenceProblems } from '../../domain/maintenance/maintenance.js';
import { admit, lookoutTag } from '../import-names.js';
import type { Unmapped } from '../import-outcome.js';
import type { UrMWindow } from './uptimerobot-shapes.js';

/**
 * UptimeRobot maintenance windows → Lookout windows. Once (type 1) is a one-off window; daily,
 * weekly and monthly (2, 3, 4) are recurring windows with a cron schedule. A window covering one
 * monitor or heartbeat is scoped to it; one covering several to a tag given to each of them
 * (`maintenance:<name>`), since a Lookout window has one scope. UptimeRobot reads times in the
 * account's time zone, which its API does not give: the schedules are read in UTC, and that is listed.
 */

/** What a window covers, by the kind and name of each item in the file. */
export interface Covered {
  kind: 'monitors' | 'heartbeats';
  name: string;
}

const MAX_SECONDS = 7 * 86_400;

const hhmm = (s: string) => {
  const m = /^(\d{1,2}):(\d{2})$/.exec(s.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h < 24 && min < 60 ? { h, min } : null;
};

const days = (value: string | null | undefined, lo: number, hi: number) => {
  // `-1` (the month's last day) and other negative days: Lookout's cron has no "last day".
  if (/^\s*-/.test(String(value ?? ''))) return null;
  const list = String(value ?? '')
    .split(/[-,\s]+/)
    .filter(Boolean)
    .map(Number);
  return list.length && list.every((d) => Number.isInteger(d) && d >= lo && d <= hi)
    ? [...new Set(list)].sort((a, b) => a - b)
    : null;
};

/** The shortest gap, in days, between consecutive chosen days of a cycle of `cycle` days. */
const shortestGapDays = (chosen: number[], cycle: number) =>
  chosen.length === 1
    ? cycle
    : Math.min(
        ...chosen.map((d, i) =>
          i + 1 < chosen.length ? chosen[i + 1]! - d : chosen[0]! + Math.max(cycle, d) - d,
        ),
      );

/** The window's timing as Lookout fields, or why not. */
const timing = (w: UrMWindow, now: Date): Item | string => {
  const seconds = Math.round(Number(w.duration) * 60);
  if (!Number.isFinite(seconds) || seconds <= 0) return 'no duration';
  if (w.type === 1) {
    const start = Number(w.start_time) * 1000;
    if (!Number.isFinite(start)) return 'no start time';
    const ends = start + seconds * 1000;
    if (ends <= now.getTime()) return 'it has ended';
    if (seconds > 31 * 86_400) return 'Lookout windows last at most 31 days';
    return { starts_at: new Date(start).toISOString(), ends_at: new Date(ends).toISOString() };
  }
  const at = hhmm(String(w.start_time));
  if (!at) return `start_time "${w.start_time}" is not HH:mm`;
  if (seconds > MAX_SECONDS) return 'Lookout recurring windows last at most 7 days';
  let schedule: string;
  let gapDays: number;
  if (w.type === 2) {
    schedule = `${at.min} ${at.h} * * *`;
    gapDays = 1;
  } else if (w.type === 3) {
    const d = days(w.value, 1, 7);
    if (!d) return `value "${w.value}" is not days of the week (1 Monday … 7 Sunday)`;
    schedule = `${at.min} ${at.h} * * ${d
      .map((x) => x % 7)
      .sort((a, b) => a - b)
      .join(',')}`;
    gapDays = shortestGapDays(d, 7);
  } else if (w.type === 4) {
    const d = days(w.value, 1, 31);
    if (!d) return `value "${w.value}" is not days of the month (Lookout has no "last day")`;
    schedule = `${at.min} ${at.h} ${d.join(',')} * *`;
    gapDays = shortestGapDays(d, 28);
  } else return `type ${w.type} is not once, daily, weekly or monthly`;
  if (seconds > gapDays * 86_400) return 'it lasts longer than the time between its occurrences';
  // The API's own rules on a recurring window, so that apply never refuses one midway.
  const refused = recurrenceProblems({ schedule, timezone: 'UTC', duration_seconds: seconds }, now).problems;
  if (refused.length) return refused.map((p) => `${p.field} ${p.message}`).join('; ');
  return { schedule, timezone: 'UTC', duration_seconds: seconds };
};

export const mapWindows = (
  windows: UrMWindow[],
  coveredBy: Map<string, Covered[]>,
  names: (wanted: string, fallback: string) => string,
  now: Date,
  unmapped: Unmapped[],
): { windows: Item[]; tags: Map<Covered, string[]> } => {
  const out: Item[] = [];
  const tags = new Map<Covered, string[]>();
  const usedTags = new Set<string>();
  let recurring = false;
  for (const w of windows) {
    const source = `maintenance window "${w.friendly_name}" (id ${w.id})`;
    if (w.status === 0) {
      unmapped.push({ source, setting: 'status: paused', reason: 'not imported: the window is paused' });
      continue;
    }
    const covered = coveredBy.get(String(w.id)) ?? [];
    if (!covered.length) {
      unmapped.push({ source, setting: '', reason: 'not imported: no imported monitor is in it' });
      continue;
    }
    const t = timing(w, now);
    if (typeof t === 'string') {
      unmapped.push({ source, setting: `type ${w.type}`, reason: `not imported: ${t}` });
      continue;
    }
    const name = names(w.friendly_name, `Maintenance ${w.id}`);
    let scope: Item;
    if (covered.length === 1) {
      const only = covered[0]!;
      scope = { scope_type: only.kind === 'monitors' ? 'monitor' : 'heartbeat', scope: only.name };
    } else {
      let tag = lookoutTag(`maintenance:${w.friendly_name}`) ?? `maintenance:window-${w.id}`;
      if (usedTags.has(tag)) tag = `${tag.slice(0, 50)}-${w.id}`.slice(0, 63);
      usedTags.add(tag);
      scope = { scope_type: 'tag', scope: tag };
    }
    const admitted = admit('maintenance_windows', { name, ...scope, ...t }, source, unmapped);
    if (!admitted) continue;
    if (scope.scope_type === 'tag')
      for (const c of covered) tags.set(c, [...(tags.get(c) ?? []), scope.scope as string]);
    if ('schedule' in t) recurring = true;
    out.push(admitted);
  }
  if (recurring)
    unmapped.push({
      source: 'recurring maintenance windows',
      setting: 'time zone',
      reason:
        'UptimeRobot reads them in the account’s time zone, which its API does not give: they are read in UTC; set timezone in the file if yours differs',
    });
  return { windows: out, tags };
};
