import { canonicalTimezone, nextRunAfter, scheduleProblem } from '../../domain/heartbeats/schedule.js';
import { MAX_DURATION_SECONDS } from '../../domain/maintenance/maintenance.js';
import { type MapContext, sourceName } from './context.js';
import type { KumaMaintenance, KumaStatusPage } from './kuma-data.js';
import type { Item } from './map-checks.js';
import type { MappedMonitors } from './map-monitors.js';

/**
 * Kuma maintenance (its maintenance model, `maintenance.js` in server/model) → Lookout maintenance windows. Kuma keeps, for every
 * recurring strategy, the cron it runs and the duration in seconds (`generateCron`): those become the
 * window's schedule, time zone and duration. A single window becomes a one-off window; a manual one
 * (switched on and off by hand) has no Lookout form. One Kuma maintenance covers many monitors and the
 * monitors of its status pages; a Lookout window covers one monitor, heartbeat or group, so it becomes
 * one window per thing it covers.
 */
const MAX_ONE_OFF_DAYS = 31;

/** The offset of `zone` from UTC at `at`, in ms. */
const offsetMs = (at: number, zone: string) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(
    +parts.year!,
    +parts.month! - 1,
    +parts.day!,
    +parts.hour!,
    +parts.minute!,
    +parts.second!,
  );
  return local - Math.floor(at / 1000) * 1000;
};

/** `2030-05-01 02:00:00` read in `zone` → the instant; null when it is not such a time. */
export const zonedTime = (text: string, zone: string): Date | null => {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(text.trim());
  if (!m) return null;
  if (/(Z|[+-]\d{2}:?\d{2})$/.test(text.trim())) return new Date(text.trim());
  const guess = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  const first = guess - offsetMs(guess, zone);
  return new Date(guess - offsetMs(first, zone));
};

/** The cron Kuma runs when it has none stored (a row written before 1.23's `cron` column). */
const cronOf = (w: KumaMaintenance): string | null => {
  if (w.cron?.trim()) return w.cron.trim();
  const [h, min] = (w.startTime ?? '').split(':').map((s) => Number.parseInt(s, 10));
  if (h === undefined || min === undefined || Number.isNaN(h) || Number.isNaN(min)) return null;
  if (w.strategy === 'recurring-interval' && w.intervalDay) return `${min} ${h} */${w.intervalDay} * *`;
  if (w.strategy === 'recurring-weekday' && w.weekdays.length)
    return `${min} ${h} * * ${w.weekdays.join(',')}`;
  if (w.strategy === 'recurring-day-of-month' && w.daysOfMonth.length)
    return `${min} ${h} ${w.daysOfMonth.map((d) => (d === 'lastDay1' ? 'L' : d)).join(',')} * *`;
  return null;
};

const durationOf = (w: KumaMaintenance): number | null => {
  if (w.duration && w.duration > 0) return w.duration;
  const secs = (t: string | null) => {
    const [h, m] = (t ?? '').split(':').map((s) => Number.parseInt(s, 10));
    return h === undefined || m === undefined || Number.isNaN(h) || Number.isNaN(m)
      ? null
      : h * 3600 + m * 60;
  };
  const a = secs(w.startTime);
  const b = secs(w.endTime);
  if (a === null || b === null) return null;
  return b > a ? b - a : b - a + 86400;
};

/** The shortest time between the next occurrences (a window must end before the next begins). */
const shortestGap = (schedule: string, zone: string, now: Date) => {
  let gap = Number.POSITIVE_INFINITY;
  let prev = nextRunAfter(schedule, zone, now);
  for (let i = 0; prev && i < 30; i++) {
    const next = nextRunAfter(schedule, zone, prev);
    if (!next) break;
    gap = Math.min(gap, (next.getTime() - prev.getTime()) / 1000);
    prev = next;
  }
  return gap;
};

/** The times of a window, or why it has none in Lookout. */
const timesOf = (
  w: KumaMaintenance,
  zone: string,
  now: Date,
  lose: (s: string, r: string) => void,
): Item | string => {
  if (w.strategy === 'manual')
    return 'Lookout has no maintenance switched on and off by hand: windows have times (add one when you need it)';
  if (w.strategy === 'single') {
    const starts = w.startDate ? zonedTime(w.startDate, zone) : null;
    const ends = w.endDate ? zonedTime(w.endDate, zone) : null;
    if (!starts || !ends || ends <= starts) return 'it has no start and end date';
    if (ends <= now) return 'it has ended: past maintenance is history, not configuration';
    if (ends.getTime() - starts.getTime() > MAX_ONE_OFF_DAYS * 86_400_000)
      return `Lookout one-off windows last at most ${MAX_ONE_OFF_DAYS} days`;
    return { starts_at: starts.toISOString(), ends_at: ends.toISOString() };
  }
  const schedule = cronOf(w);
  const duration = durationOf(w);
  if (!schedule || !duration) return `its ${w.strategy} schedule is incomplete`;
  const bad = scheduleProblem(schedule);
  if (bad) return `its schedule "${schedule}" is not one Lookout runs: it ${bad}`;
  if (duration > MAX_DURATION_SECONDS) return 'Lookout recurring windows last at most 7 days';
  if (duration > shortestGap(schedule, zone, now))
    return `each occurrence (${duration} s) lasts past the next one; Lookout windows do not overlap themselves`;
  if (w.startDate || w.endDate)
    lose('dateRange', 'Lookout recurring windows have no date range: it recurs from now on');
  return { schedule, timezone: zone, duration_seconds: duration };
};

export const mapMaintenance = (
  list: KumaMaintenance[],
  pages: KumaStatusPage[],
  mapped: MappedMonitors,
  ctx: MapContext,
  now: Date,
  serverTimezone: string | null = null,
): Item[] => {
  const windows: Item[] = [];
  const pageMonitors = new Map(pages.map((p) => [p.id, p.groups.flatMap((g) => g.monitorIds)]));
  for (const w of list) {
    const source = sourceName('maintenance', w.title, w.id);
    const unmappedBefore = ctx.unmapped.length;
    const lose = (setting: string, reason: string) => ctx.lose(source, setting, reason);
    if (!w.active) {
      lose(
        'active: false',
        'it is paused in Kuma; Lookout windows cannot be paused (add it when you need it)',
      );
      continue;
    }
    let zone = w.timezone && w.timezone !== 'SAME_AS_SERVER' ? canonicalTimezone(w.timezone) : null;
    const server = serverTimezone ? canonicalTimezone(serverTimezone) : null;
    if (!zone && server) {
      zone = server;
      lose(
        `timezone: ${w.timezone ?? '(none)'}`,
        `read in ${server}, the Kuma server’s zone setting (a TZ of its process would override it)`,
      );
    } else if (!zone) {
      lose(
        `timezone: ${w.timezone ?? '(none)'}`,
        'read as UTC: the Kuma server’s own zone is not in its data',
      );
      zone = 'UTC';
    }
    const times = timesOf(w, zone, now, lose);
    if (typeof times === 'string') {
      lose(`strategy: ${w.strategy}`, times);
      continue;
    }
    const ids = [...new Set([...w.monitorIds, ...w.statusPageIds.flatMap((p) => pageMonitors.get(p) ?? [])])];
    const targets = ids.flatMap((id) => {
      const t = mapped.byId.get(id);
      return t ? [t] : [];
    });
    if (!targets.length) {
      lose('', 'it covers no monitor that was imported');
      continue;
    }
    ctx.attach(unmappedBefore, 'maintenance_windows', windows.length);
    for (const t of targets) {
      const name = ctx.uniqueName(
        'maintenance_windows',
        targets.length === 1 ? w.title : `${w.title} (${t.name})`,
        200,
      );
      windows.push({ name, scope_type: t.kind, scope: t.name, ...times });
    }
  }
  return windows;
};
