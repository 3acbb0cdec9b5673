/** How the report page writes the API's figures (the same words on screen, in print and in the chart's label). */

/** "99.95 %" (never rounds up to 100 % from below); a dash when there were no checks. */
export const pct = (v: number | null) =>
  v === null ? '—' : `${v >= 99.995 && v < 100 ? '99.99' : v.toFixed(v === 100 ? 0 : 2)} %`;

/** A span of seconds: "0 s", "45 s", "12 min", "3 h 20 min", "2 d 4 h"; negative with a minus; dash for null. */
export const span = (seconds: number | null): string => {
  if (seconds === null) return '—';
  if (seconds < 0) return `−${span(-seconds)}`;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 && m < 10 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
};

/** "340 ms"; a dash when nothing was measured. */
export const ms = (v: number | null) => (v === null ? '—' : `${Math.round(v).toLocaleString('en')} ms`);

const dayFmt = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
/** A UTC day (`YYYY-MM-DD` or an instant) as "1 Nov 2026". */
export const dayText = (day: string) => dayFmt.format(new Date(day.length === 10 ? `${day}T00:00:00Z` : day));

/** The report's days in words: its first day to its last (`to` is the end of the last day, exclusive). */
export const periodText = (from: string, to: string) => {
  const last = new Date(new Date(to).getTime() - 1).toISOString();
  const a = dayText(from);
  const b = dayText(last);
  return a === b ? a : `${a} – ${b}`;
};
