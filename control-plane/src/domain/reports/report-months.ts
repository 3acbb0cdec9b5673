/**
 * Months of the monthly report, in UTC, as `YYYY-MM` (text that sorts as time: the store compares it).
 * A month's report is due from 06:00 UTC on the 1st of the month after it.
 */

/** The hour (UTC) of the 1st from which the previous month's report is mailed. */
export const REPORT_HOUR_UTC = 6;

const key = (y: number, m0: number) => {
  const d = new Date(Date.UTC(y, m0, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
};

/** The month before the one `now` is in. */
export const previousMonth = (now: Date) => key(now.getUTCFullYear(), now.getUTCMonth() - 1);

/** When `month`'s report becomes due: 06:00 UTC on the 1st of the next month. */
export const reportDueAt = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1, REPORT_HOUR_UTC));
};

/** The month whose report is due at `now` (the previous one once 06:00 UTC on the 1st has passed), or null before. */
export const dueMonth = (now: Date): string | null => {
  const month = previousMonth(now);
  return now.getTime() >= reportDueAt(month).getTime() ? month : null;
};

/** The first and last day (`YYYY-MM-DD`, both included) of `month`. */
export const monthDays = (month: string): { from: string; to: string } => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
};

/** `November 2026`. */
export const monthName = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleString('en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
};

/** The month after `month`. */
export const monthAfter = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return key(y, m);
};
