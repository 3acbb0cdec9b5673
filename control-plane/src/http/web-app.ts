import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { send } from '@koa/send';
import { AppError } from '@lookout/shared';
import type { Middleware } from 'koa';
import type { ApiState } from './route.js';

/** Where `npm run build` (vite) puts the web app: control-plane/web/dist, from src/ or dist/ alike. */
export const WEB_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/**
 * The app's pages (DESIGN.md "Web app"): each gets index.html, and the app routes on the client.
 * Only these: any other path stays the API's JSON 404.
 */
const PAGE_PATHS = [
  /^\/$/,
  /^\/(sign-in|accept-invite)$/,
  /^\/(monitors|heartbeats|alerts)(\/[\w-]{1,100})?$/,
  /^\/monitors\/[\w-]{1,100}\/edit$/,
  /^\/settings(\/(api-keys|password|users|connected-apps|mail))?$/,
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
 * Serves the built web app with @koa/send (path resolution that refuses to leave the root, and the
 * brotli/gzip files the build wrote next to each asset, chosen by Accept-Encoding). A request with
 * X-API-Key is an API call, never a page: it gets JSON.
 */
export const serveWebApp = (dir = WEB_DIR): Middleware<ApiState> => {
  const built = () => existsSync(`${dir}index.html`);
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const page = PAGE_PATHS.some((p) => p.test(ctx.path));
    const asset = ASSET.test(ctx.path) || ROOT_FILES.has(ctx.path);
    if (!page && !asset) return next();
    if (ctx.get('x-api-key'))
      throw new AppError('not_found', `${ctx.path} is a page of the web app; the API is under /api/v1.`);
    if (!built()) throw new AppError('unavailable', 'The web app is not built; run npm run build.');
    ctx.vary('Accept-Encoding');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'same-origin');
    try {
      if (page) {
        ctx.set('Content-Security-Policy', CSP);
        ctx.set('X-Frame-Options', 'DENY');
        ctx.set('Cache-Control', 'no-cache');
        await send(ctx, 'index.html', { root: dir });
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
