import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { send } from '@koa/send';
import { AppError } from '@lookout/shared';
import type { Middleware, ParameterizedContext } from 'koa';
import { sendNoWorkspacePage } from './no-workspace-page.js';
import type { ApiState } from './route.js';
import { requestHost } from './workspace-host.js';

/** Where `npm run build` (vite) puts the web app: control-plane/web/dist, from src/ or dist/ alike. */
export const WEB_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/**
 * The app's pages (those `pageFor` in web/src/main.tsx shows): each gets index.html, and the app
 * routes on the client. Any other path that nothing else answers is a 404: the app with its not-found
 * page for a browser opening it (see `wantsPage`), the API's JSON error for everyone else.
 */
const PAGE_PATHS = [
  /^\/$/,
  /^\/(sign-in|accept-invite)$/,
  /^\/(monitors|heartbeats|alerts)(\/[\w-]{1,100})?$/,
  /^\/monitors\/[\w-]{1,100}\/edit$/,
  /^\/status-pages(\/[\w-]{1,100}(\/edit)?)?$/,
  /^\/settings(\/(api-keys|password|users|connected-apps|mail|notifications))?$/,
  /^\/routing\/(escalation-policies|channels|integrations|maintenance)$/,
];
const ROOT_FILES = new Set(['/favicon.svg']);
/** Vite names every asset by its content hash, so a URL never changes meaning: cache it for a year. */
const ASSET = /^\/assets\/[\w.-]{1,200}$/;
const YEAR_MS = 365 * 86_400_000;

/** What the page may do: only this origin's scripts, styles, images and API; never framed. */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * A readable cookie that says only "this browser holds a session cookie" (never which, never whether
 * it is still valid): the app asks `GET /session` only when it is there, so a signed-out visit makes
 * no request that must fail. Set or cleared on every page load, from the HttpOnly cookie's presence.
 */
export const SIGNED_IN_HINT = 'lookout_signed_in';

/**
 * A browser opening a page (a navigation asks for HTML), not an API call or a script: it gets the app
 * for a path nothing answered, and the app shows its not-found page.
 */
const wantsPage = (ctx: ParameterizedContext<ApiState>) =>
  ctx.path !== '/api' &&
  !ctx.path.startsWith('/api/') &&
  !ctx.get('x-api-key') &&
  ctx.get('accept').includes('text/html');

/**
 * Serves the built web app with @koa/send (path resolution that refuses to leave the root, and the
 * brotli/gzip files the build wrote next to each asset, chosen by Accept-Encoding). A request with
 * X-API-Key is an API call, never a page: it gets JSON.
 */
export const serveWebApp = (opts: {
  /** The session cookie's name (session-cookie.ts), whose presence the signed-in hint mirrors. */
  sessionCookie: string;
  /** Cookies are Secure (the service is served over https). */
  secure: boolean;
  /** What a host that names no workspace gets instead of the app (no-workspace-page.ts). */
  noWorkspace: Omit<Parameters<typeof sendNoWorkspacePage>[1], 'host'> & { trustProxy: boolean };
  dir?: string;
}): Middleware<ApiState> => {
  const dir = opts.dir ?? WEB_DIR;
  const built = () => existsSync(`${dir}index.html`);
  const sendPage = async (ctx: ParameterizedContext<ApiState>) => {
    if (!ctx.state.workspace)
      return sendNoWorkspacePage(ctx, {
        ...opts.noWorkspace,
        host: requestHost(ctx.req.headers, opts.noWorkspace.trustProxy),
      });
    ctx.set('Content-Security-Policy', CSP);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Cache-Control', 'no-cache');
    const session = ctx.cookies.get(opts.sessionCookie) !== undefined;
    if (session !== (ctx.cookies.get(SIGNED_IN_HINT) !== undefined)) {
      if (opts.secure) ctx.cookies.secure = true;
      ctx.cookies.set(SIGNED_IN_HINT, session ? '1' : null, {
        httpOnly: false,
        sameSite: 'lax',
        secure: opts.secure,
        path: '/',
        overwrite: true,
        ...(session ? {} : { expires: new Date(0) }),
      });
    }
    await send(ctx, 'index.html', { root: dir });
  };
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const page = PAGE_PATHS.some((p) => p.test(ctx.path));
    const asset = ASSET.test(ctx.path) || ROOT_FILES.has(ctx.path);
    if (!page && !asset) {
      await next();
      if (ctx.status !== 404 || ctx.body !== undefined) return;
      ctx.vary('Accept');
      if (wantsPage(ctx) && built()) {
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Referrer-Policy', 'same-origin');
        await sendPage(ctx);
        if (ctx.state.workspace) ctx.status = 404;
      }
      return;
    }
    if (ctx.get('x-api-key'))
      throw new AppError('not_found', `${ctx.path} is a page of the web app; the API is under /api/v1.`);
    if (!built()) throw new AppError('unavailable', 'The web app is not built; run npm run build.');
    ctx.vary('Accept-Encoding');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'same-origin');
    try {
      if (page) {
        await sendPage(ctx);
      } else {
        await send(ctx, ctx.path, {
          root: dir,
          index: false,
          hidden: false,
          ...(ctx.path.startsWith('/assets/') ? { maxage: YEAR_MS, immutable: true } : { maxage: 3_600_000 }),
        });
      }
    } catch (e) {
      const status = (e as { status?: number }).status;
      if (status && status >= 400 && status < 500) throw new AppError('not_found', `No file ${ctx.path}.`);
      throw e;
    }
    if (ctx.body === undefined) throw new AppError('not_found', `No file ${ctx.path}.`);
  };
};
