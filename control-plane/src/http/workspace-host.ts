import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { AppError } from '@lookout/shared';
import type { TenancyStore } from '../domain/tenancy/tenancy-store.js';
import type { Workspace } from '../domain/types.js';

/** `acme.lookout.example.com:443` → `acme` when the service domain is lookout.example.com; else null. */
export const subdomainOf = (host: string | undefined, serviceDomain: string): string | null => {
  if (!host) return null;
  const name = host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  const suffix = `.${serviceDomain.toLowerCase()}`;
  if (!name.endsWith(suffix)) return null;
  const sub = name.slice(0, -suffix.length);
  return /^[a-z0-9-]{1,63}$/.test(sub) ? sub : null;
};

/**
 * Refuses a request with more than one Host header (400): node keeps only the first in `req.headers`,
 * while a proxy in front may have routed by another, so the workspace it names would be ambiguous.
 */
export const assertOneHost = (req: IncomingMessage) => {
  const raw = req.rawHeaders;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host' && ++seen > 1) {
      throw new AppError('bad_request', 'The request has more than one Host header; send exactly one.', [
        { field: 'Host', message: 'appears more than once' },
      ]);
    }
  }
};

export const requestHost = (headers: IncomingHttpHeaders, trustProxy: boolean): string | undefined => {
  const forwarded = trustProxy ? headers['x-forwarded-host'] : undefined;
  const h = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return h || headers.host;
};

/**
 * Workspace lookups by subdomain, cached briefly: the host of every API request names its workspace,
 * and workspaces change rarely. Bounded; misses are cached too, so unknown hosts cannot hammer the store.
 */
export const createWorkspaceResolver = (
  store: Pick<TenancyStore, 'getWorkspaceBySubdomain'>,
  ttlMs = 10_000,
  max = 10_000,
) => {
  const cache = new Map<string, { at: number; ws: Workspace | null }>();
  return async (subdomain: string | null, nowMs: number): Promise<Workspace | null> => {
    if (!subdomain) return null;
    const hit = cache.get(subdomain);
    if (hit && nowMs - hit.at < ttlMs) return hit.ws;
    const ws = await store.getWorkspaceBySubdomain(subdomain);
    if (cache.size >= max) cache.delete(cache.keys().next().value as string);
    cache.set(subdomain, { at: nowMs, ws });
    return ws;
  };
};

/**
 * The service's only workspace (null when it has several or none), cached briefly: a host that names
 * no workspace shows a link to it (no-workspace-page.ts), and anyone may open such a host.
 */
export const onlyWorkspace = (
  store: Pick<TenancyStore, 'getOnlyWorkspace'>,
  nowMs: () => number,
  ttlMs = 10_000,
) => {
  let cached: { at: number; ws: Promise<Workspace | null> } | undefined;
  return (): Promise<Workspace | null> => {
    const now = nowMs();
    if (!cached || now - cached.at >= ttlMs) {
      const ws = store.getOnlyWorkspace();
      cached = { at: now, ws };
      ws.catch(() => (cached = undefined));
    }
    return cached.ws;
  };
};
