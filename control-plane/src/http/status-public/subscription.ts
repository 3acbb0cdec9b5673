import { AppError, type Clock, type SecretBox } from '@lookout/shared';
import { createRateLimiter } from '../../domain/access/rate-limiter.js';
import type { StatusPage } from '../../domain/status-pages/status-page-store.js';
import type { StatusSubscriberStore } from '../../domain/status-pages/subscriber-store.js';
import { confirmSubscription, subscribe, unsubscribe } from '../../domain/status-pages/subscribers.js';
import { crossSitePost } from '../cross-site.js';
import { type Ctx, message, readForm } from './answer.js';

export interface SubscriptionDeps {
  store: StatusSubscriberStore;
  box: SecretBox;
  clock: Clock;
  trustProxy: boolean;
  /** Whether the reader may see the page (holds a protected page's cookie). */
  admitted(ctx: Ctx, page: StatusPage): boolean;
}

/**
 * A page's mail subscription forms: `POST {page}/subscribe`, `{page}/subscribe/confirm` and
 * `{page}/unsubscribe` (RFC 8058 one-click too), one handler each.
 */
export const createSubscriptionForms = (deps: SubscriptionDeps) => {
  const { clock } = deps;
  // Subscribing: 5 per client address, then one a minute; 100 per page, then one every 30 s. With at
  // most one confirmation mail per address and page an hour and 5 per mailbox a day over the whole
  // service (subscribers.ts), nobody is mail-bombed.
  const subscribesByClient = createRateLimiter({ capacity: 5, perSecond: 1 / 60 });
  const subscribesByPage = createRateLimiter({ capacity: 100, perSecond: 1 / 30 });

  const subscribeForm = async (ctx: Ctx, page: StatusPage, base: string) => {
    const now = clock.now();
    if (ctx.method !== 'POST') throw new AppError('method_not_allowed', 'Subscribe with POST.');
    if (!deps.admitted(ctx, page))
      throw new AppError('unauthorized', 'This status page is protected by a password.');
    // Another site's form or script must not subscribe its visitors (or anyone) through their browser.
    if (crossSitePost(ctx.req.headers, deps.trustProxy, { sameSite: true }))
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
    await subscribe(deps.store, deps.box, page, Object.fromEntries(form), now);
    return message(
      ctx,
      page,
      base,
      200,
      'Check your inbox',
      'If the address can subscribe, a mail with a confirmation link is on its way. Follow it within 48 hours.',
    );
  };

  // The token is in the link's query, or in the button's form; a mail client's one-click POST
  // (RFC 8058) sends `List-Unsubscribe=One-Click` to the link, in whatever body type it likes.
  const tokenOf = async (ctx: Ctx) => {
    const fromForm =
      ctx.method === 'POST' && ctx.is('application/x-www-form-urlencoded')
        ? (await readForm(ctx)).get('token')
        : undefined;
    return typeof ctx.query.token === 'string' && ctx.query.token ? ctx.query.token : (fromForm ?? '');
  };

  /** A link shows a button; a POST (the button) confirms. */
  const confirmForm = async (ctx: Ctx, page: StatusPage, base: string) => {
    const now = clock.now();
    const token = await tokenOf(ctx);
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
  };

  /** A link shows a button; a POST (the button, or a mail client's one-click) acts. */
  const unsubscribeForm = async (ctx: Ctx, page: StatusPage, base: string) => {
    const token = await tokenOf(ctx);
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

  return { subscribeForm, confirmForm, unsubscribeForm };
};
