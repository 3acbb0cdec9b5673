const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeSeconds = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

/** The time of day (with seconds) for today's instants, the date and time otherwise. */
export const formatWhen = (iso: string, now = new Date()) =>
  new Date(iso).toDateString() === now.toDateString()
    ? timeOnly.format(new Date(iso))
    : dateTime.format(new Date(iso));
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
/** With seconds: for events that come seconds apart (pings). */
export const formatDateTimeSeconds = (iso: string) => dateTimeSeconds.format(new Date(iso));
export const formatDate = (iso: string) => dateOnly.format(new Date(iso));

/** "3 minutes ago", "in 6 days". */
export const fromNow = (iso: string, now = Date.now()) => {
  const s = (new Date(iso).getTime() - now) / 1000;
  const abs = Math.abs(s);
  if (abs < 45) return s <= 0 ? 'just now' : 'in a moment';
  if (abs < 2700) return relative.format(Math.round(s / 60), 'minute');
  if (abs < 79200) return relative.format(Math.round(s / 3600), 'hour');
  if (abs < 26 * 86400) return relative.format(Math.round(s / 86400), 'day');
  return formatDate(iso);
};

/** A span of seconds as people write it: "1 day", "30 min", "90 s". */
export const duration = (seconds: number) =>
  seconds % 86_400 === 0
    ? `${seconds / 86_400} ${seconds === 86_400 ? 'day' : 'days'}`
    : seconds % 3600 === 0
      ? `${seconds / 3600} h`
      : seconds % 60 === 0
        ? `${seconds / 60} min`
        : `${seconds} s`;

/** A measured span of milliseconds (a run's duration): "350 ms", "4.2 s", then as `duration`. */
export const durationMs = (n: number) =>
  n < 1000 ? `${n} ms` : n < 60_000 ? `${(n / 1000).toFixed(1)} s` : duration(Math.round(n / 1000));
