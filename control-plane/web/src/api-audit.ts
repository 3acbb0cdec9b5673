/**
 * The web app's calls for the audit log (admins): a page of entries, newest first, by the filters of
 * the audit log page, and the address of the same entries as an NDJSON download.
 */
import { ApiError } from './api.js';

export type AuditActorType = 'user' | 'api_key' | 'oauth_client' | 'cli' | 'system';

export interface AuditEntry {
  id: string;
  at: string;
  actor: { type: AuditActorType; id: string | null; name: string };
  ip: string | null;
  user_agent: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  /** Field → [before, after]; secrets come as "[redacted]". */
  changes: Record<string, [unknown, unknown]> | null;
}

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
export const auditQuery = (f: AuditFilter, cursor?: string) => {
  const q = new URLSearchParams();
  const set = (k: string, v: string) => {
    if (v.trim()) q.set(k, v.trim());
  };
  set('actor', f.actor);
  set('resource_type', f.resource_type);
  set('action', f.action);
  set('from', instant(f.from));
  set('to', instant(f.to));
  if (cursor) q.set('cursor', cursor);
  return q;
};

const withQuery = (path: string, q: URLSearchParams) => (q.size ? `${path}?${q}` : path);

/** Where the Export button points: every entry the filters keep, as NDJSON (the session's cookie rides along). */
export const exportUrl = (f: AuditFilter) => withQuery('/api/v1/audit-log/export', auditQuery(f));

export const auditApi = {
  listAuditLog: async (f: AuditFilter, cursor?: string) => {
    const r = await fetch(withQuery('/api/v1/audit-log', auditQuery(f, cursor)), {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    const body = await r.json().catch(() => null);
    if (!r.ok) {
      const e = body?.error ?? { code: 'error', message: `HTTP ${r.status}` };
      throw new ApiError(r.status, e.code, e.message, e.details ?? []);
    }
    return body as { data: AuditEntry[]; next_cursor: string | null };
  },
};
