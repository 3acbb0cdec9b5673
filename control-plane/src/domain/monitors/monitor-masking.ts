import { hasRole } from '../tenancy/roles.js';
import type { Monitor, Role } from '../types.js';

/** What a role that may not see a monitor's secrets sees in their place. */
export const SECRET_MASK = '********';

const maskQueryValues = (url: string): string => {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const end = hash < 0 ? url.length : hash;
  const query = url
    .slice(q + 1, end)
    .split('&')
    .map((pair) => {
      if (pair === '') return pair;
      const eq = pair.indexOf('=');
      return eq < 0 ? SECRET_MASK : `${pair.slice(0, eq)}=${SECRET_MASK}`;
    })
    .join('&');
  return url.slice(0, q + 1) + query + url.slice(end);
};

/**
 * The monitor as a user of `role` may see it: the one rule for monitor secrets, applied by the API
 * serializer to every response that carries a monitor.
 *
 * - What the check sends to its target can be secret: header values (Authorization, API keys),
 *   the request body, and the values of the URL's query (`?token=`). Members and admins edit
 *   monitors, so they see them; viewers see header names and query names with each value replaced
 *   by SECRET_MASK, and a non-empty body as SECRET_MASK.
 * - Endpoint auth secrets (basic password, bearer token) are never returned to anyone (the
 *   serializer drops them): nobody needs to read them back, and changing them means sending new ones.
 */
export const monitorAsSeenBy = (m: Monitor, role: Role): Monitor => {
  if (hasRole(role, 'member')) return m;
  const steps = m.settings.steps;
  return {
    ...m,
    url: maskQueryValues(m.url),
    request_headers: maskValues(m.request_headers),
    request_body: maskBody(m.request_body),
    // A multi-step check's requests, masked the same way step by step (a browser script is shown:
    // its secrets are `secrets.NAME`, never written into it).
    ...(Array.isArray(steps)
      ? { settings: { ...m.settings, steps: steps.map((st: Record<string, unknown>) => maskStep(st)) } }
      : {}),
  };
};

const maskValues = (headers: Record<string, string>) =>
  Object.fromEntries(Object.keys(headers).map((k) => [k, SECRET_MASK]));

const maskBody = <T extends string | null | undefined>(body: T): T | string =>
  body === null || body === undefined || body === '' ? body : SECRET_MASK;

const maskStep = (st: Record<string, unknown>) => ({
  ...st,
  url: typeof st.url === 'string' ? maskQueryValues(st.url) : st.url,
  ...(st.headers ? { headers: maskValues(st.headers as Record<string, string>) } : {}),
  ...(st.body !== undefined ? { body: maskBody(st.body as string) } : {}),
});
