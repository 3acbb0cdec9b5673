import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, type Clock, type SecretBox } from '@lookout/shared';
import Cookies from 'cookies';
import type Koa from 'koa';
import type { Config } from '../../config.js';
import { createRateLimiter } from '../../domain/access/rate-limiter.js';
import type { StatusPage, StatusPageStore } from '../../domain/status-pages/status-page-store.js';
import { SLUG_PATTERN } from '../../domain/status-pages/status-pages.js';
import type { StatusSubscriberStore } from '../../domain/status-pages/subscriber-store.js';
import { confirmSubscription, subscribe, unsubscribe } from '../../domain/status-pages/subscribers.js';
import type { Rendered, ViewCache } from '../../domain/status-pages/view-cache.js';
import { verifyPassword } from '../../domain/tenancy/passwords.js';
import { crossSitePost } from '../cross-site.js';
import type { ApiState } from '../route.js';
import { requestHost } from '../workspace-host.js';
import { messageHtml, pageNotFoundHtml, passwordFormHtml, statusPageHtml } from './html.js';
import { atomFeed, componentBadge, pageBadge, rssFeed, statusJson, summaryJson } from './machine.js';

type Ctx = Koa.ParameterizedContext<ApiState>;

const ACCESS_DAYS = 30;
const FORM_MAX_BYTES = 4096;
const PUBLIC_CACHE = 'public, max-age=5';
const PRIVATE_CACHE = 'private, no-cache';

const TYPES = {
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  rss: 'application/rss+xml; charset=utf-8',
  svg: 'image/svg+xml',
};

/** Gzip when the reader takes it (every browser and most tools do). */
const takesGzip = (acceptEncoding: string | undefined) =>
  acceptEncoding !== undefined && /\bgzip\b(?!\s*;\s*q=0(?:\.0*)?\s*(?:,|$))/i.test(acceptEncoding);

/** The body, tag and headers of a public answer (a 200 or a 304) in the encoding the reader takes. */
const answerOf = (r: Rendered, cacheControl: string, acceptEncoding: string | undefined) => {
  const gz = takesGzip(acceptEncoding);
  return {
    body: gz ? r.gzip : r.body,
    etag: gz ? r.gzipEtag : r.etag,
    headers: {
      ETag: gz ? r.gzipEtag : r.etag,
      'Cache-Control': cacheControl,
      Vary: 'Accept-Encoding',
      'X-Content-Type-Options': 'nosniff',
      // The page loads nothing from anywhere: no script at all, styles inline, links out only.
      'Content-Security-Policy':
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      ...(gz ? { 'Content-Encoding': 'gzip' } : {}),
    } as Record<string, string>,
  };
};

/** A validator matches either encoding's tag (both stand for the same page). */
const notModified = (ifNoneMatch: string | undefined, r: Rendered) =>
  ifNoneMatch?.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === r.etag || tag === r.gzipEtag;
  }) ?? false;

/** A reader's way in to a protected page: an HttpOnly cookie per page, signed with the page's key. */
const cookieName = (page: StatusPage) => `lookout_page_${page.id.replaceAll('-', '')}`;

const readForm = async (ctx: Ctx): Promise<URLSearchParams> => {
  if (!ctx.is('application/x-www-form-urlencoded'))
    throw new AppError('unsupported_media_type', 'Send the form as application/x-www-form-urlencoded.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of ctx.req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > FORM_MAX_BYTES) throw new AppError('payload_too_large', 'The form is too large.');
    chunks.push(c);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
};

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
  // 10 guesses, then one every 30 s, per client address and page; and 20 wrong ones, then one every
  // 15 s, per page from all addresses together (a reader with the cookie is never asked again).
  const guesses = createRateLimiter({ capacity: 10, perSecond: 1 / 30 });
  const wrongGuessesByPage = createRateLimiter({ capacity: 20, perSecond: 1 / 15 });
  // Subscribing: 5 per client address, then one a minute; 100 per page, then one every 30 s. With at
  // most one confirmation mail per address and page an hour and 5 per mailbox a day over the whole
  // service (subscribers.ts), nobody is mail-bombed.
  const subscribesByClient = createRateLimiter({ capacity: 5, perSecond: 1 / 60 });
  const subscribesByPage = createRateLimiter({ capacity: 100, perSecond: 1 / 30 });
  const { box } = deps;

  const cookies = (ctx: Ctx, page: StatusPage) =>
    new Cookies(ctx.req, ctx.res, { keys: [page.cookie_secret], secure: https });

  const admitted = (ctx: Ctx, page: StatusPage) => {
    if (page.visibility === 'public') return true;
    const value = cookies(ctx, page).get(cookieName(page), { signed: true });
    return value !== undefined && /^\d+$/.test(value) && Number(value) > clock.now().getTime();
  };

  const send = (ctx: Ctx, r: Rendered, cacheControl: string) => {
    const a = answerOf(r, cacheControl, ctx.get('accept-encoding') || undefined);
    for (const [k, v] of Object.entries(a.headers)) ctx.set(k, v);
    if (notModified(ctx.get('if-none-match'), r)) {
      ctx.status = 304;
      return;
    }
    ctx.status = 200;
    ctx.type = r.type;
    ctx.body = a.body;
  };

  const access = async (ctx: Ctx, page: StatusPage, base: string) => {
    const key = `${ctx.ip}|${page.id}`;
    const now = clock.now();
    const form = await readForm(ctx);
    // Both are taken before the password is checked (a right guess must not tell itself apart once
    // limited); the page's token is given back when the guess was right, so only wrong ones spend it.
    let taken = guesses.take(key, now.getTime());
    if (taken.ok) taken = wrongGuessesByPage.take(page.id, now.getTime());
    ctx.set('Cache-Control', 'no-store');
    if (!taken.ok) {
      ctx.status = 429;
      ctx.set('Retry-After', String(taken.retryAfterSeconds));
      ctx.type = TYPES.html;
      ctx.body = passwordFormHtml(
        page.name,
        page.accent_color,
        base,
        `Too many attempts; try again in ${taken.retryAfterSeconds} s.`,
      );
      return;
    }
    const given = form.get('password') ?? '';
    if (
      page.visibility === 'public' ||
      !page.password_hash ||
      !(await verifyPassword(given, page.password_hash))
    ) {
      ctx.status = page.visibility === 'public' ? 303 : 401;
      if (page.visibility === 'public') ctx.redirect(base || '/');
      else {
        ctx.type = TYPES.html;
        ctx.body = passwordFormHtml(page.name, page.accent_color, base, 'That password is not right.');
      }
      return;
    }
    wrongGuessesByPage.give(page.id, now.getTime());
    const expires = new Date(now.getTime() + ACCESS_DAYS * 86_400_000);
    cookies(ctx, page).set(cookieName(page), String(expires.getTime()), {
      signed: true,
      httpOnly: true,
      sameSite: 'lax',
      secure: https,
      path: base || '/',
      expires,
      overwrite: true,
    });
    ctx.status = 303;
    ctx.redirect(base || '/');
  };

  const message = (
    ctx: Ctx,
    page: StatusPage,
    base: string,
    status: number,
    heading: string,
    text: string,
    action?: Parameters<typeof messageHtml>[5],
  ) => {
    ctx.status = status;
    ctx.set('Cache-Control', 'no-store');
    ctx.type = TYPES.html;
    ctx.body = messageHtml(page.name, page.accent_color, base, heading, text, action);
  };

  /** `POST {page}/subscribe`, `{page}/subscribe/confirm` and `{page}/unsubscribe` (RFC 8058 one-click too). */
  const subscription = async (ctx: Ctx, page: StatusPage, base: string, rest: string) => {
    const now = clock.now();
    if (rest === '/subscribe') {
      if (ctx.method !== 'POST') throw new AppError('method_not_allowed', 'Subscribe with POST.');
      if (!admitted(ctx, page))
        throw new AppError('unauthorized', 'This status page is protected by a password.');
      // Another site's form or script must not subscribe its visitors (or anyone) through their browser.
      if (crossSitePost(ctx.req.headers, deps.config.trust_proxy, { sameSite: true }))
        return message(
          ctx,
          page,
          base,
          403,
          'Subscribe on the status page',
          'This form was sent from another site. Open the status page and subscribe there.',
        );
      for (const [limiter, key] of [
        [subscribesByClient, `${ctx.ip}|${page.id}`],
        [subscribesByPage, page.id],
      ] as const) {
        const taken = limiter.take(key, now.getTime());
        if (!taken.ok) {
          ctx.set('Retry-After', String(taken.retryAfterSeconds));
          return message(
            ctx,
            page,
            base,
            429,
            'Too many requests',
            `Try again in ${taken.retryAfterSeconds} s.`,
          );
        }
      }
      const form = await readForm(ctx);
      await subscribe(deps.store, box, page, Object.fromEntries(form), now);
      return message(
        ctx,
        page,
        base,
        200,
        'Check your inbox',
        'If the address can subscribe, a mail with a confirmation link is on its way. Follow it within 48 hours.',
      );
    }
    // The token is in the link's query, or in the button's form; a mail client's one-click POST
    // (RFC 8058) sends `List-Unsubscribe=One-Click` to the link, in whatever body type it likes.
    const fromForm =
      ctx.method === 'POST' && ctx.is('application/x-www-form-urlencoded')
        ? (await readForm(ctx)).get('token')
        : undefined;
    const token = typeof ctx.query.token === 'string' && ctx.query.token ? ctx.query.token : (fromForm ?? '');
    if (rest === '/subscribe/confirm') {
      if (ctx.method !== 'POST')
        return message(
          ctx,
          page,
          base,
          200,
          'Confirm your subscription',
          `Get ${page.name}'s incident updates by mail.`,
          {
            path: '/subscribe/confirm',
            token,
            label: 'Confirm subscription',
          },
        );
      const s = await confirmSubscription(deps.store, page, token, now);
      if (!s)
        return message(
          ctx,
          page,
          base,
          404,
          'This link does not work',
          'It was used already, or it expired. Subscribe again.',
        );
      return message(
        ctx,
        page,
        base,
        200,
        'Subscribed',
        'You will get a mail whenever an incident is reported, updated or resolved.',
      );
    }
    // Unsubscribe: a link shows a button; a POST (the button, or a mail client's one-click) acts.
    if (ctx.method !== 'POST')
      return message(
        ctx,
        page,
        base,
        200,
        'Unsubscribe',
        `Stop getting ${page.name}'s incident updates by mail.`,
        {
          path: '/unsubscribe',
          token,
          label: 'Unsubscribe',
        },
      );
    await unsubscribe(deps.store, token);
    return message(ctx, page, base, 200, 'Unsubscribed', 'You will get no more mail from this status page.');
  };

  /**
   * One page's public answers: `rest` is the path below `base` ('' for the page itself); `url` the
   * page's absolute address (feeds and JSON name it).
   */
  const servePublicPage = async (ctx: Ctx, page: StatusPage, base: string, url: string, rest: string) => {
    if (rest === '/subscribe' || rest === '/subscribe/confirm' || rest === '/unsubscribe')
      return subscription(ctx, page, base, rest);
    if (rest === '/access') {
      if (ctx.method !== 'POST') throw new AppError('method_not_allowed', 'Send the password with POST.');
      return access(ctx, page, base);
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      throw new AppError('method_not_allowed', `${ctx.method} is not allowed here; use GET.`);
    }
    let kind: string;
    let render: Parameters<ViewCache['rendered']>[2];
    const badge = /^\/components\/([0-9a-f-]{36})\/badge\.svg$/.exec(rest);
    if (rest === '' || rest === '/') {
      kind = 'html';
      render = (v) => ({ body: statusPageHtml(v, base), type: TYPES.html });
    } else if (rest === '/api/v2/summary.json') {
      kind = 'summary';
      render = (v) => ({ body: summaryJson(v, url), type: TYPES.json });
    } else if (rest === '/api/v2/status.json') {
      kind = 'status';
      render = (v) => ({ body: statusJson(v, url), type: TYPES.json });
    } else if (rest === '/feed.atom') {
      kind = 'atom';
      render = (v) => ({ body: atomFeed(v, url), type: TYPES.atom });
    } else if (rest === '/feed.rss') {
      kind = 'rss';
      render = (v) => ({ body: rssFeed(v, url), type: TYPES.rss });
    } else if (rest === '/badge.svg') {
      kind = 'badge';
      render = (v) => ({ body: pageBadge(v), type: TYPES.svg });
    } else if (badge) {
      const id = badge[1]!;
      if (!page.components.some((c) => c.id === id))
        throw new AppError('not_found', 'No such component on this page.');
      kind = `badge:${id}`;
      render = (v) => ({ body: componentBadge(v, id) ?? '', type: TYPES.svg });
    } else throw new AppError('not_found', 'Nothing here.');

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
