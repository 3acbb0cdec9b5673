/**
 * The web app's calls for SLA reports: the report of a scope and period (`GET /reports/sla`), the address
 * of the same report as CSV (a file download; the session's cookie rides along), and the monthly mail's
 * settings (admins: `GET/PUT /reports/schedule`, `POST /reports/schedule/send-now`).
 */
import { type Body, ok, type Schemas } from '../../src/api-client/client.js';
import type { SlaReport } from '../../src/domain/reports/sla-report.js';
import { client } from './api.js';

/** A value as JSON carries it: dates become ISO strings. */
type Json<T> = T extends Date
  ? string
  : T extends (infer U)[]
    ? Json<U>[]
    : T extends object
      ? { [K in keyof T]: Json<T[K]> }
      : T;

/** The report as the API answers it (`days[].day` is `YYYY-MM-DD`). */
export type Report = Json<SlaReport>;
export type ReportMonitor = Report['monitors'][number];
export type ReportIncident = Report['incidents'][number];
export type ReportDay = Report['days'][number];

/** The monthly mail's settings as `GET /reports/schedule` gives them (with the month it mails next). */
export type ReportSchedule = Schemas['ReportSchedule'];
/** What `PUT /reports/schedule` takes: the settings alone. */
export type ReportScheduleBody = Body<'/reports/schedule', 'put'>;
export type SendOutcome = Schemas['ReportSendOutcome'];

type Answer = Promise<{ data?: unknown; error?: unknown; response: Response }>;
/** The typed client, for the routes its generated types may not name yet. */
const loose = client as unknown as { GET(path: string, init: unknown): Answer };

/** Where Download CSV points: the same report as CSV. */
export const csvUrl = (query: Record<string, string>) =>
  `/api/v1/reports/sla?${new URLSearchParams({ ...query, format: 'csv' })}`;

export const reportsApi = {
  report: (query: Record<string, string>) =>
    ok(loose.GET('/reports/sla', { params: { query } })) as Promise<Report>,
  schedule: () => ok(client.GET('/reports/schedule')),
  saveSchedule: (body: ReportScheduleBody) => ok(client.PUT('/reports/schedule', { body })),
  sendNow: () => ok(client.POST('/reports/schedule/send-now')),
};
