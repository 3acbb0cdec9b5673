/**
 * A day's uptime as the colour band of its bar: `g` (≥ 99.9 %), `y` (≥ 99 %), `o` (≥ 95 %), `r` (below),
 * `n` (no checks). The public status page (html.ts) and the web app's SLA report (web/src/pages/reports/)
 * colour their bars by this one rule. Both builds import this file, so it imports nothing.
 */
export type UptimeBand = 'g' | 'y' | 'o' | 'r' | 'n';

export const uptimeBand = (uptime: number | null): UptimeBand =>
  uptime === null ? 'n' : uptime >= 99.9 ? 'g' : uptime >= 99 ? 'y' : uptime >= 95 ? 'o' : 'r';
