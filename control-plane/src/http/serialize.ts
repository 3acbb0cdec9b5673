import { keyStatus } from '../domain/api-keys.js';
import type { Alert, ApiKey, CheckResultRecord, Heartbeat, Monitor, User } from '../domain/types.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Monitor as the API shows it: secrets of the checked endpoint are never echoed back. */
export const monitorJson = (m: Monitor) => {
  const { workspace_id: _w, auth, ...rest } = m;
  return {
    ...rest,
    auth: auth
      ? auth.type === 'basic'
        ? { type: 'basic', username: auth.username }
        : { type: 'bearer' }
      : null,
    created_at: iso(m.created_at),
    updated_at: iso(m.updated_at),
  };
};

export const heartbeatJson = (h: Heartbeat, pingUrl: string) => {
  const { workspace_id: _w, ...rest } = h;
  return {
    ...rest,
    ping_url: pingUrl,
    last_ping_at: iso(h.last_ping_at),
    created_at: iso(h.created_at),
    updated_at: iso(h.updated_at),
  };
};

export const alertJson = (a: Alert) => {
  const { workspace_id: _w, ...rest } = a;
  return {
    ...rest,
    created_at: iso(a.created_at),
    updated_at: iso(a.updated_at),
    acknowledged_at: iso(a.acknowledged_at),
    resolved_at: iso(a.resolved_at),
  };
};

/** Key as the list shows it: never the value or its hash; the last four characters only. */
export const apiKeyJson = (k: ApiKey, now: Date, owner?: User) => ({
  id: k.id,
  name: k.name,
  kind: k.kind,
  status: keyStatus(k, now),
  last_four: k.last_four,
  user_id: k.user_id,
  user_email: owner?.email ?? null,
  created_at: iso(k.created_at),
  expires_at: iso(k.expires_at),
  revoked_at: iso(k.revoked_at),
  last_used_at: iso(k.last_used_at),
  last_used_from: k.last_used_from,
});

export const resultJson = (r: CheckResultRecord) => {
  const { workspace_id: _w, ...rest } = r;
  return {
    ...rest,
    scheduled_at: r.scheduled_at.toISOString(),
    started_at: r.started_at.toISOString(),
    received_at: r.received_at.toISOString(),
    tls_valid_to: iso(r.tls_valid_to),
    domain_expires_at: iso(r.domain_expires_at),
  };
};
