import { z } from 'zod';
import { nextReport } from '../../domain/reports/report-schedule.js';
import type { ReportSchedule } from '../../domain/reports/report-schedule-store.js';
import { DEFAULT_SLO_PERCENT } from '../../domain/reports/sla-report.js';
import { iso, responseSchemas, time, uuidString } from '../responses.js';

export const reportScheduleResponse = z
  .strictObject({
    enabled: z.boolean(),
    recipient_user_ids: z.array(uuidString),
    scope: z.strictObject({
      type: z.enum(['workspace', 'group', 'tag', 'status_page', 'monitor']),
      id: z.string().nullable(),
    }),
    slo: z.number(),
    next_report_month: z
      .string()
      .nullable()
      .describe('The month (`YYYY-MM`, UTC) whose report is mailed next; null while off.'),
    next_report_at: time
      .nullable()
      .describe(
        'From when it is mailed: 06:00 UTC on the 1st of the month after it (past: on the next pass).',
      ),
    updated_at: time.nullable(),
  })
  .register(responseSchemas, { id: 'ReportSchedule' });

/** The schedule as admins see it; a workspace that never saved one sees it off, over the whole workspace. */
export const reportScheduleJson = (s: ReportSchedule | null): z.output<typeof reportScheduleResponse> => {
  const next = nextReport(s);
  return {
    enabled: s?.enabled ?? false,
    recipient_user_ids: s?.recipient_user_ids ?? [],
    scope: s?.scope ?? { type: 'workspace', id: null },
    slo: s?.slo ?? DEFAULT_SLO_PERCENT,
    next_report_month: next?.month ?? null,
    next_report_at: next ? iso(next.at) : null,
    updated_at: s ? iso(s.updated_at) : null,
  };
};

export const sendNowResponse = z
  .strictObject({
    month: z.string().describe('The month reported (`YYYY-MM`, UTC): the previous one.'),
    recipients: z.array(
      z.strictObject({
        user_id: uuidString,
        email: z.string(),
        ok: z.boolean(),
        error: z.string().nullable(),
      }),
    ),
  })
  .register(responseSchemas, { id: 'ReportSendOutcome' });
