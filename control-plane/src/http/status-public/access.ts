import type { Clock } from '@lookout/shared';
import Cookies from 'cookies';
import { createRateLimiter } from '../../domain/access/rate-limiter.js';
import type { StatusPage } from '../../domain/status-pages/status-page-store.js';
import { verifyPassword } from '../../domain/tenancy/passwords.js';
import { type Ctx, readForm, TYPES } from './answer.js';
import { passwordFormHtml } from './html.js';

const ACCESS_DAYS = 30;

/** A reader's way in to a protected page: an HttpOnly cookie per page, signed with the page's key. */
const cookieName = (page: StatusPage) => `lookout_page_${page.id.replaceAll('-', '')}`;

/**
 * A protected page's password: `admitted` tells whether a reader holds the page's cookie, `access`
 * answers `POST {page}/access` (checks the password, sets the cookie).
 */
export const createPageAccess = ({ clock, https }: { clock: Clock; https: boolean }) => {
  // 10 guesses, then one every 30 s, per client address and page; and 20 wrong ones, then one every
  // 15 s, per page from all addresses together (a reader with the cookie is never asked again).
  const guesses = createRateLimiter({ capacity: 10, perSecond: 1 / 30 });
  const wrongGuessesByPage = createRateLimiter({ capacity: 20, perSecond: 1 / 15 });

  const cookies = (ctx: Ctx, page: StatusPage) =>
    new Cookies(ctx.req, ctx.res, { keys: [page.cookie_secret], secure: https });

  const admitted = (ctx: Ctx, page: StatusPage) => {
    if (page.visibility === 'public') return true;
    const value = cookies(ctx, page).get(cookieName(page), { signed: true });
    return value !== undefined && /^\d+$/.test(value) && Number(value) > clock.now().getTime();
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

  return { admitted, access };
};
