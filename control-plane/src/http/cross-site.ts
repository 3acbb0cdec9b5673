import type { IncomingHttpHeaders } from 'node:http';
import { requestHost } from './workspace-host.js';

/**
 * Whether a browser sent this POST from another site (a form or script on someone else's page):
 * `Sec-Fetch-Site` (Fetch Metadata; a browser sets it and no page can) says so, or, from a browser too
 * old to send it, an `Origin` naming another host than the request's. `sameSite` also lets through
 * what the browser calls same-site (a sibling host of the same registrable domain). A client that sends
 * neither header (curl, a script) is no browser riding on a visitor, and passes.
 */
export const crossSitePost = (
  headers: IncomingHttpHeaders,
  trustProxy: boolean,
  opts: { sameSite?: boolean } = {},
): boolean => {
  const site = headers['sec-fetch-site'];
  if (site) return !(site === 'same-origin' || site === 'none' || (opts.sameSite && site === 'same-site'));
  const origin = headers.origin;
  if (!origin) return false;
  try {
    return new URL(origin).host !== requestHost(headers, trustProxy);
  } catch {
    return true; // `Origin: null` (a sandboxed frame, a redirect from elsewhere) or garbage
  }
};
