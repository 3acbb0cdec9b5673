import { AppError } from '@lookout/shared';
import { createRateLimiter } from '../../domain/access/rate-limiter.js';
import { sendReportNow } from '../../domain/reports/monthly-report.js';
import { slaReportBuilder } from '../../domain/reports/report-builder.js';
import { previousMonth } from '../../domain/reports/report-months.js';
import {
  parseReportSchedule,
  type ReportScheduleLookups,
  reportScheduleBody,
  saveReportSchedule,
} from '../../domain/reports/report-schedule.js';
import type { ReportScheduleStore } from '../../domain/reports/report-schedule-store.js';
import type { ReportStore } from '../../domain/reports/sla.js';
import { accountMailer } from '../../notify/account-mailer.js';
import { type RouteDeps, route } from '../route.js';
import { reportScheduleJson, reportScheduleResponse, sendNowResponse } from './responses.js';

const TAG = 'Reports';
/** Sends by hand per workspace: a burst of a few, then one every 10 minutes (each goes to up to 50 people). */
const SEND_NOW_BURST = 3;

/**
 * The monthly SLA report by mail (admins): the schedule, and a send of the previous month's report now
 * to try it. The job that mails it on the 1st is domain/reports/monthly-report.ts.
 */
export const reportScheduleRoutes = (
  deps: RouteDeps<
    Pick<ReportScheduleStore, 'getReportSchedule' | 'putReportSchedule'> & ReportScheduleLookups & ReportStore
  >,
) => {
  const { store, clock, mail, workspaceUrl } = deps;
  const build = slaReportBuilder(store);
  const send = accountMailer(mail);
  const sends = createRateLimiter({ capacity: SEND_NOW_BURST, perSecond: 1 / 600, maxKeys: 10_000 });
  return [
    route({
      method: 'get',
      path: '/reports/schedule',
      tag: TAG,
      role: 'admin',
      response: reportScheduleResponse,
      summary:
        'The monthly SLA report by mail: whether it is on, who gets it (`recipient_user_ids`), what it covers (`scope`), the SLO, and which month it mails next and from when.',
      async handler({ auth }) {
        return reportScheduleJson(await store.getReportSchedule(auth.workspace.id));
      },
    }),
    route({
      method: 'put',
      path: '/reports/schedule',
      tag: TAG,
      role: 'admin',
      audit: { action: 'report_schedule.update', resource_type: 'report_schedule' },
      body: reportScheduleBody,
      response: reportScheduleResponse,
      summary:
        'Set the monthly SLA report by mail, whole: `enabled`, `recipient_user_ids` (users of this workspace, at most 50), `scope` (`{"type": "workspace"|"group"|"tag"|"status_page"|"monitor", "id"}`, default the workspace) and `slo` (default 99.9). On the 1st of each month (UTC) after 06:00 the previous month’s report is mailed once, through the workspace’s mail settings or the deployment’s SMTP server. Turned on in a month, its first mail is that month’s report.',
      async handler({ auth, body }) {
        const input = await parseReportSchedule(store, auth.workspace.id, body);
        return reportScheduleJson(
          await saveReportSchedule(store, auth.workspace.id, auth.user.id, input, clock.now()),
        );
      },
    }),
    route({
      method: 'post',
      path: '/reports/schedule/send-now',
      tag: TAG,
      role: 'admin',
      audit: { action: 'report_schedule.send_now', resource_type: 'report_schedule', noRecord: true },
      response: sendNowResponse,
      summary:
        'Mail the previous month’s report now to the schedule’s recipients (on or off), to try it: answers with each recipient’s outcome. Changes nothing: the 1st’s mail still goes. At most 3 in a row per workspace, then one every 10 minutes (429).',
      responses: {
        404: 'The schedule’s scope names a monitor, group or status page no longer in the workspace',
        409: 'No schedule saved yet, or it has no recipients',
        422: 'The scope takes in more monitors than a report may',
      },
      async handler({ auth }) {
        const schedule = await store.getReportSchedule(auth.workspace.id);
        if (!schedule || schedule.recipient_user_ids.length === 0)
          throw new AppError(
            'conflict',
            'Save the monthly report with at least one recipient first (PUT /reports/schedule).',
          );
        const now = clock.now();
        const taken = sends.take(auth.workspace.id, now.getTime());
        if (!taken.ok)
          throw new AppError(
            'rate_limited',
            `Too many reports sent by hand; try again in ${taken.retryAfterSeconds} s.`,
            [],
            { retryAfterSeconds: taken.retryAfterSeconds },
          );
        const recipients = await sendReportNow(
          { store, build, send, workspaceUrl },
          auth.workspace,
          schedule,
          now,
        );
        return { month: previousMonth(now), recipients };
      },
    }),
  ];
};
