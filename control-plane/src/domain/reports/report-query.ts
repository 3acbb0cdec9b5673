import { z } from 'zod';
import { tag } from '../monitors/labels.js';
import { DAY_MS, dayOf } from '../results/uptime.js';
import type { ReportScope } from './scope.js';
import { DEFAULT_SLO_PERCENT, MAX_REPORT_DAYS } from './sla-report.js';

/**
 * The question of `GET /reports/sla` (and of the MCP tool through it): at most one scope selector, a
 * period of whole UTC days [from, to] (both included; default the current month so far) of at most
 * MAX_REPORT_DAYS days, and the SLO. Every bad field is named in one 422.
 */

const SELECTORS = ['monitor_id', 'group_id', 'tag', 'status_page_id'] as const;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A UTC date `YYYY-MM-DD` that exists, as the ms of its start. */
const utcDate = z
  .string()
  .max(10)
  .refine((s) => {
    const m = DATE.exec(s);
    if (!m) return false;
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'must be a date YYYY-MM-DD (UTC)')
  .transform((s) => Date.parse(`${s}T00:00:00Z`));

const id = (what: string) =>
  z.string().min(1).max(100).optional().describe(`Report on this ${what} (its id).`);

export const reportQuery = z
  .strictObject({
    monitor_id: id('monitor'),
    group_id: id('group: its monitors'),
    tag: tag().optional().describe('Report on the monitors carrying this tag.'),
    status_page_id: id("status page: its components' monitors and its groups' members"),
    from: utcDate
      .optional()
      .describe('First day, YYYY-MM-DD (UTC), included. Default: the first day of the month of `to`.'),
    to: utcDate.optional().describe('Last day, YYYY-MM-DD (UTC), included. Default: today.'),
    slo: z.coerce
      .number()
      .gt(0)
      .lt(100)
      .optional()
      .describe(`The SLO target in percent, 0 < slo < 100 (default ${DEFAULT_SLO_PERCENT}).`),
    format: z.enum(['json', 'csv']).optional().describe('csv: the CSV (as `Accept: text/csv`).'),
  })
  .superRefine((q, ctx) => {
    const given = SELECTORS.filter((k) => q[k] !== undefined);
    if (given.length > 1)
      for (const k of given)
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message: `give at most one of ${SELECTORS.join(', ')} (none: the whole workspace)`,
        });
    if (typeof q.from !== 'number' || typeof q.to !== 'number') return;
    if (q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
    else if ((q.to - q.from) / DAY_MS + 1 > MAX_REPORT_DAYS)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `must be at most ${MAX_REPORT_DAYS} days from from (both included)`,
      });
  });

export type ReportQuery = z.output<typeof reportQuery>;

const monthStart = (day: number) => {
  const d = new Date(day);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};

/** The scope, period and SLO a query asks for, defaults filled in from `now`. */
export const reportRequestOf = (
  q: ReportQuery,
  now: Date,
  idOf: (raw: string) => string = (s) => s,
): { scope: ReportScope; from: Date; to: Date; slo: number } => {
  const last = q.to ?? (q.from !== undefined ? Math.max(q.from, dayOf(now)) : dayOf(now));
  const toDay =
    q.from !== undefined && q.to === undefined
      ? Math.min(last, q.from + (MAX_REPORT_DAYS - 1) * DAY_MS)
      : last;
  const fromDay = q.from ?? monthStart(toDay);
  const scope: ReportScope =
    q.monitor_id !== undefined
      ? { type: 'monitor', id: idOf(q.monitor_id) }
      : q.group_id !== undefined
        ? { type: 'group', id: idOf(q.group_id) }
        : q.tag !== undefined
          ? { type: 'tag', id: q.tag }
          : q.status_page_id !== undefined
            ? { type: 'status_page', id: idOf(q.status_page_id) }
            : { type: 'workspace', id: null };
  return { scope, from: new Date(fromDay), to: new Date(toDay + DAY_MS), slo: q.slo ?? DEFAULT_SLO_PERCENT };
};
