import { AppError } from '@lookout/shared';
import type Koa from 'koa';
import type { StatusPage } from '../../domain/status-pages/status-page-store.js';
import type { Rendered } from '../../domain/status-pages/view-cache.js';
import type { ApiState } from '../route.js';
import { messageHtml } from './html.js';

/** How the public side of status pages answers: content types, caching, gzip, forms and short messages. */
export type Ctx = Koa.ParameterizedContext<ApiState>;

const FORM_MAX_BYTES = 4096;
export const PUBLIC_CACHE = 'public, max-age=5';
export const PRIVATE_CACHE = 'private, no-cache';

export const TYPES = {
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
export const answerOf = (r: Rendered, cacheControl: string, acceptEncoding: string | undefined) => {
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
export const notModified = (ifNoneMatch: string | undefined, r: Rendered) =>
  ifNoneMatch?.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === r.etag || tag === r.gzipEtag;
  }) ?? false;

/** A rendered view through Koa: its headers, then a 304 for a matching If-None-Match or the body. */
export const send = (ctx: Ctx, r: Rendered, cacheControl: string) => {
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

export const readForm = async (ctx: Ctx): Promise<URLSearchParams> => {
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

/** A short page in the status page's colours: a heading, a line and at most one button. */
export const message = (
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
