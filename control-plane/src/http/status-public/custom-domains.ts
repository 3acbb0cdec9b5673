import { AppError, type Clock } from '@lookout/shared';
import type Koa from 'koa';
import type { Config } from '../../config.js';
import { createRateLimiter } from '../../domain/access/rate-limiter.js';
import { domainVerified } from '../../domain/status-pages/custom-domain-proof.js';
import type { StatusPage, StatusPageStore } from '../../domain/status-pages/status-page-store.js';
import type { ViewCache } from '../../domain/status-pages/view-cache.js';
import type { Workspace } from '../../domain/types.js';
import type { ApiState } from '../route.js';
import { requestHost, subdomainOf } from '../workspace-host.js';
import type { createPublicStatus } from './serve.js';

type Ctx = Koa.ParameterizedContext<ApiState>;

/** Paths a custom domain leaves to the service (probes, the TLS question). */
const SERVICE_PATHS = new Set(['/healthz', '/readyz', '/metrics', '/_tls/ask']);

/** A host name as the store keeps custom domains: lower case, without port or trailing dot. */
export const hostName = (host: string | undefined) =>
  (host ?? '').trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

/**
 * Status pages on their own domains: a page with a verified `custom_domain` answers at `/` on that host (its JSON,
 * feeds and badges below it), and `GET /_tls/ask?domain=` tells Caddy's on-demand TLS which names to
 * get certificates for. Both read the page by its domain through the view cache (one indexed lookup
 * per name and 5 s, misses cached too), so an unknown host costs the store at most that.
 */
export const createCustomDomains = (deps: {
  store: Pick<StatusPageStore, 'getStatusPageByDomain'>;
  cache: ViewCache;
  clock: Clock;
  config: Pick<Config, 'service_domain' | 'public_url_scheme' | 'trust_proxy'>;
  publicStatus: ReturnType<typeof createPublicStatus>;
  workspaceOf(subdomain: string | null, nowMs: number): Promise<Workspace | null>;
}) => {
  const { config, cache, clock } = deps;
  const service = config.service_domain.toLowerCase();
  /** The page on this domain, only once the domain is proved (custom-domain-proof.ts). */
  const pageAt = async (domain: string): Promise<StatusPage | null> => {
    if (!DOMAIN.test(domain) || domain === service || domain.endsWith(`.${service}`)) return null;
    const page = await cache.page(`domain:${domain}`, () => deps.store.getStatusPageByDomain(domain));
    return page && domainVerified(page) ? page : null;
  };
  // Caddy asks once per new name; anyone can ask too. 60 questions per client address, then 5 a second.
  const questions = createRateLimiter({ capacity: 60, perSecond: 5 });

  /** Ahead of the app's own routes: a request to a custom domain is its page's. */
  const middleware: Koa.Middleware<ApiState> = async (ctx, next) => {
    if (ctx.state.workspace || SERVICE_PATHS.has(ctx.path)) return next();
    const host = hostName(requestHost(ctx.req.headers, config.trust_proxy));
    const page = await pageAt(host);
    if (!page) return next();
    await deps.publicStatus.servePublicPage(
      ctx as Ctx,
      page,
      '',
      `${config.public_url_scheme}://${host}`,
      ctx.path === '/' ? '' : ctx.path,
    );
  };

  /** `GET /_tls/ask?domain=NAME`: 200 for a page's verified custom domain or a workspace host, else 404. */
  const tlsAsk: Koa.Middleware<ApiState> = async (ctx) => {
    const taken = questions.take(ctx.ip, clock.now().getTime());
    if (!taken.ok)
      throw new AppError(
        'rate_limited',
        `Too many questions; try again in ${taken.retryAfterSeconds} s.`,
        [],
        {
          retryAfterSeconds: taken.retryAfterSeconds,
        },
      );
    const given = ctx.query.domain;
    if (typeof given !== 'string' || given === '')
      throw new AppError('validation_failed', 'Name the domain: /_tls/ask?domain=NAME.', [
        { field: 'domain', message: 'is required (once)' },
      ]);
    const domain = hostName(given);
    const ours =
      (await pageAt(domain)) !== null ||
      (await deps.workspaceOf(subdomainOf(domain, service), clock.now().getTime())) !== null;
    if (!ours) throw new AppError('not_found', 'Lookout serves no such domain.');
    ctx.body = { domain, status: 'ok' };
  };

  return { middleware, tlsAsk };
};
