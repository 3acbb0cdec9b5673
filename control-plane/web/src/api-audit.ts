/**
 * The web app's calls for the audit log (admins): a page of entries, newest first, by the filters of
 * the audit log page, and the address of the same entries as an NDJSON download.
 */
import { ok } from '../../src/api-client/client.js';
import { client } from './api.js';

/** The page's filters as typed, empty strings for none; `from` and `to` as a datetime-local value. */
export interface AuditFilter {
  actor: string;
  resource_type: string;
  action: string;
  from: string;
  to: string;
}

export const NO_FILTER: AuditFilter = { actor: '', resource_type: '', action: '', from: '', to: '' };

/** A datetime-local value (the browser's zone) as the API's ISO instant; '' stays ''. */
const instant = (local: string) => {
  if (!local) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? local : d.toISOString();
};

/** The API's query of a filter: only what is set. */
export const auditQuery = (f: AuditFilter) => {
  const q: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...f, from: instant(f.from), to: instant(f.to) }))
    if (v.trim()) q[k] = k === 'resource_type' || k === 'action' ? v.trim().toLowerCase() : v.trim();
  return q;
};

/** Where the Export button points: every entry the filters keep, as NDJSON (the session's cookie rides along). */
export const exportUrl = (f: AuditFilter) => {
  const q = new URLSearchParams(auditQuery(f));
  return q.size ? `/api/v1/audit-log/export?${q}` : '/api/v1/audit-log/export';
};

export const auditApi = {
  listAuditLog: (f: AuditFilter, cursor?: string) =>
    ok(client.GET('/audit-log', { params: { query: { ...auditQuery(f), limit: 50, cursor } } })),
};

/** One entry as `GET /audit-log` gives it; `changes` maps a field to [before, after]. */
export type AuditEntry = Awaited<ReturnType<typeof auditApi.listAuditLog>>['data'][number];
export type AuditActorType = AuditEntry['actor']['type'];
