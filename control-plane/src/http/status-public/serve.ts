import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, type Clock, type SecretBox } from '@lookout/shared';
import type Koa from 'koa';
import type { Config } from '../../config.js';
import type { StatusPage, StatusPageStore } from '../../domain/status-pages/status-page-store.js';
import { SLUG_PATTERN } from '../../domain/status-pages/status-pages.js';
import type { StatusSubscriberStore } from '../../domain/status-pages/subscriber-store.js';
import type { ViewCache } from '../../domain/status-pages/view-cache.js';
import type { ApiState } from '../route.js';
import { requestHost } from '../workspace-host.js';
import { createPageAccess } from './access.js';
import { answerOf, type Ctx, notModified, PRIVATE_CACHE, PUBLIC_CACHE, send, TYPES } from './answer.js';
import { pageNotFoundHtml, passwordFormHtml } from './html.js';
import { createSubscriptionForms } from './subscription.js';
import { publicView } from './views.js';

export interface PublicStatusDeps {
  store: Pick<StatusPageStore, 'getStatusPageBySlug' | 'getStatusPageByDomain'> & StatusSubscriberStore;
  clock: Clock;
  config: Pick<Config, 'public_url_scheme' | 'trust_proxy' | 'service_domain'>;
  /** Opens subscribers' sealed addresses (process/wiring.ts). */
  box: SecretBox;
  cache: ViewCache;
  workspaceUrl(subdomain: string): string;
}

/**
 * The public side of status pages: `/status/{slug}` and what sits below it on a workspace host
 * (`servePublicPage` serves one page under any base, for custom domains too). Every answer comes from
 * the cache (view-cache.ts) with an ETag, a 304 for a matching If-None-Match, and Cache-Control; a
 * protected page asks for its password first (guesses limited per address and page).
 */
export const createPublicStatus = (deps: PublicStatusDeps) => {
  const { clock, cache } = deps;
  const https = deps.config.public_url_scheme === 'https';
  const { box } = deps;
  const { admitted, access } = createPageAccess({ clock, https });
  const forms = createSubscriptionForms({
    store: deps.store,
    box,
    clock,
    trustProxy: deps.config.trust_proxy,
    admitted,
  });

  /** The forms below a page, any method: path → handler. Every other path is a view (publicView). */
  const FORMS: Record<string, (ctx: Ctx, page: StatusPage, base: string) => Promise<void>> = {
    '/subscribe': forms.subscribeForm,
    '/subscribe/confirm': forms.confirmForm,
    '/unsubscribe': forms.unsubscribeForm,
    '/access': async (ctx, page, base) => {
      if (ctx.method !== 'POST') throw new AppError('method_not_allowed', 'Send the password with POST.');
      return access(ctx, page, base);
    },
  };

  /**
   * One page's public answers: `rest` is the path below `base` ('' for the page itself); `url` the
   * page's absolute address (feeds and JSON name it).
   */
  const servePublicPage = async (ctx: Ctx, page: StatusPage, base: string, url: string, rest: string) => {
    const form = Object.hasOwn(FORMS, rest) ? FORMS[rest] : undefined;
    if (form) return form(ctx, page, base);
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      throw new AppError('method_not_allowed', `${ctx.method} is not allowed here; use GET.`);
    }
    const { kind, render } = publicView({ page, base, url }, rest);
    if (!admitted(ctx, page)) {
      if (kind !== 'html') throw new AppError('unauthorized', 'This status page is protected by a password.');
      ctx.status = 401;
      ctx.set('Cache-Control', 'no-store');
      ctx.type = TYPES.html;
      ctx.body = passwordFormHtml(page.name, page.accent_color, base, null);
      return;
    }
    const r = await cache.rendered(page, kind, render);
    send(ctx, r, page.visibility === 'public' ? PUBLIC_CACHE : PRIVATE_CACHE);
    if (page.visibility === 'public') cache.remember(fastKey(ctx.req), page.id, kind);
  };

  /** The cache key of a request on the fast path: its host (as the workspace is found) and path. */
  const fastKey = (req: IncomingMessage) =>
    `${requestHost(req.headers, deps.config.trust_proxy)}|${(req.url ?? '').split('?')[0]}`;

  /**
   * The hot path, ahead of Koa like the ping endpoint: a GET or HEAD of a public page's form that a
   * reader got through Koa within the cache's life is answered from memory with no lookup at all, so
   * a crowd during an outage costs about what bare node:http would. Returns false for anything else
   * (which then goes to Koa: the first reader, a protected page, an expired entry).
   */
  const fastPath = (req: IncomingMessage, res: ServerResponse): boolean => {
    // Any host and path a public page was served at (a custom domain's `/` too), so not only /status/.
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !cache.hasFast()) return false;
    if ((req.headersDistinct.host?.length ?? 0) > 1) return false;
    const r = cache.fresh(fastKey(req));
    if (!r) return false;
    const a = answerOf(r, PUBLIC_CACHE, req.headers['accept-encoding']);
    if (notModified(req.headers['if-none-match'], r)) {
      res.writeHead(304, a.headers);
      res.end();
    } else {
      res.writeHead(200, { ...a.headers, 'Content-Type': r.type, 'Content-Length': String(a.body.length) });
      res.end(req.method === 'HEAD' ? undefined : a.body);
    }
    return true;
  };

  /** `/status/{slug}…` on a workspace host. */
  const middleware: Koa.Middleware<ApiState> = async (ctx, next) => {
    const m = /^\/status\/([^/]+)(\/.*)?$/.exec(ctx.path);
    const ws = ctx.state.workspace;
    if (!m || !ws) return next();
    const slug = m[1]!;
    const page = SLUG_PATTERN.test(slug)
      ? await cache.page(`${ws.id}/${slug}`, () => deps.store.getStatusPageBySlug(ws.id, slug))
      : null;
    if (!page) {
      // A browser gets a page to read; a program (Accept: application/json, or none) the API's error.
      if (ctx.accepts('json', 'html') !== 'html') throw new AppError('not_found', 'No such status page.');
      ctx.status = 404;
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Vary', 'Accept');
      ctx.type = TYPES.html;
      ctx.body = pageNotFoundHtml();
      return;
    }
    const base = `/status/${slug}`;
    await servePublicPage(ctx as Ctx, page, base, `${deps.workspaceUrl(ws.subdomain)}${base}`, m[2] ?? '');
  };

  return { middleware, servePublicPage, fastPath };
};
