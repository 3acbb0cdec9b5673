/**
 * The web app's calls for SLA reports: the report of a scope and period (`GET /reports/sla`), the address
 * of the same report as CSV (a file download; the session's cookie rides along), and the monthly mail's
 * settings (admins: `GET/PUT /reports/schedule`, `POST /reports/schedule/send-now`).
 */
import { type Body, ok, type paths, type Schemas } from '../../src/api-client/client.js';
import { client } from './api.js';

/** The report as the API answers it (`domain/reports/sla-report.ts`, dates as ISO strings, `days[].day` as `YYYY-MM-DD`). */
export type Report = Schemas['SlaReport'];
export type ReportMonitor = Report['monitors'][number];
export type ReportIncident = Report['incidents'][number];
export type ReportDay = Report['days'][number];

/** The monthly mail's settings as `GET /reports/schedule` gives them (with the month it mails next). */
export type ReportSchedule = Schemas['ReportSchedule'];
/** What `PUT /reports/schedule` takes: the settings alone. */
export type ReportScheduleBody = Body<'/reports/schedule', 'put'>;
export type SendOutcome = Schemas['ReportSendOutcome'];

/** The report's query as the page builds it: the API's names, values as typed (the API judges them). */
type ReportQuery = NonNullable<paths['/reports/sla']['get']['parameters']['query']>;

/** Where Download CSV points: the same report as CSV. */
export const csvUrl = (query: Record<string, string>) =>
  `/api/v1/reports/sla?${new URLSearchParams({ ...query, format: 'csv' })}`;

export const reportsApi = {
  /** JSON (the client asks for it; the route's CSV answer is the download link's). */
  report: (query: Record<string, string>) =>
    ok(client.GET('/reports/sla', { params: { query: query as ReportQuery } })) as Promise<Report>,
  schedule: () => ok(client.GET('/reports/schedule')),
  saveSchedule: (body: ReportScheduleBody) => ok(client.PUT('/reports/schedule', { body })),
  sendNow: () => ok(client.POST('/reports/schedule/send-now')),
};
