import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AckLinkStore } from '../domain/alerts/ack-link-store.js';
import { type AckLinkState, checkAckLink, useAckLink } from '../domain/alerts/ack-links.js';
import type { AlertStore } from '../domain/alerts/alert-store.js';
import type { TenancyStore } from '../domain/tenancy/tenancy-store.js';
import type { Actor } from '../domain/types.js';
import { readRaw } from './body.js';
import { crossSitePost } from './cross-site.js';
import { esc, STYLE } from './oauth/consent-page.js';
import type { ApiContext, ApiState, RouteDeps } from './route.js';

/**
 * The one-click acknowledge page, `/ack/{alert id}` on the workspace's host (domain/alerts/ack-links.ts).
 * GET (the link in a notification, `?token=…`) only shows the alert and an **Acknowledge** button:
 * mail scanners and link previews follow links, so opening one changes nothing. The button POSTs the
 * token back in the form body; no cookie is read, so there is nothing for another site to ride on, and
 * a browser's cross-site POST (its `Origin` or `Sec-Fetch-Site` says so) is refused besides. Rendered on
 * the server, no script. The token is in the query and the body, never the path: the access log
 * records paths only.
 */
const PATH = /^\/ack\/([0-9a-fA-F-]{36})$/;

const page = (ctx: ApiContext, status: number, title: string, body: string) => {
  const nonce = randomBytes(16).toString('base64');
  ctx.status = status;
  ctx.type = 'html';
  ctx.set(
    'Content-Security-Policy',
    [
      "default-src 'none'",
      `style-src 'nonce-${nonce}'`,
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
  );
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cache-Control', 'no-store');
  // The page's own URL holds the token: no other site gets it as a referrer. Same-origin (not
  // no-referrer) so that the button's POST carries a real Origin to check.
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(title)} · Lookout</title><style nonce="${nonce}">${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
};

/** `2026-06-01 12:00 UTC`: readable, and the same for every reader wherever they are. */
const when = (d: Date | null) => (d ? `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '');

const by = (a: Actor | null) => {
  if (!a) return '';
  if (a.type === 'link') return ` by ${esc(a.recipient)} (from the link sent by ${esc(a.via)})`;
  if (a.type === 'user') return ' by a team member';
  if (a.type === 'integration') return ' by its integration';
  return ' by Lookout';
};

const answer = (
  ctx: ApiContext,
  r: AckLinkState & { done?: boolean; acknowledged?: number },
  alertId: string,
  token: string,
) => {
  if (r.state === 'invalid')
    return page(
      ctx,
      404,
      'Link not valid',
      '<h1>This link does not work</h1><p role="alert">It is not a valid acknowledge link for this alert, or it has expired. Open the alert in Lookout instead.</p>',
    );
  if (r.state === 'not_allowed')
    return page(
      ctx,
      403,
      'Not allowed',
      '<h1>You can no longer acknowledge alerts</h1><p role="alert">This link was sent to you, but your role in this workspace no longer allows acknowledging alerts. Ask a member or an admin.</p>',
    );
  const a = r.alert;
  // A grouped message's link stands for every alert it named.
  const many = r.link.alert_ids && r.link.alert_ids.length > 1 ? r.link.alert_ids.length : 0;
  const named = many ? `${esc(a.title)} and ${many - 1} more alert${many > 2 ? 's' : ''}` : esc(a.title);
  const about = `<p><strong>${named}</strong></p><p class="muted">${esc(a.severity)} · raised ${when(a.created_at)} · sent to ${esc(r.link.recipient)} by ${esc(r.link.via)}</p>`;
  if (r.state === 'resolved')
    return page(
      ctx,
      410,
      'Alert resolved',
      `<h1>This alert is resolved</h1>${about}<p role="alert">It was resolved${by(a.resolved_by)} at ${when(a.resolved_at)}; this link no longer works.</p>`,
    );
  if (r.state === 'acknowledged')
    return page(
      ctx,
      200,
      r.done ? 'Acknowledged' : 'Already acknowledged',
      `<h1>${r.done ? 'Acknowledged' : 'Already acknowledged'}</h1>${about}<p role="status">${
        r.done
          ? many
            ? `You acknowledged ${r.acknowledged ?? 0} of the ${many} alerts (the others were acknowledged or resolved already): their escalation has stopped.`
            : 'You acknowledged it: its escalation has stopped.'
          : `It was acknowledged${by(a.acknowledged_by)} at ${when(a.acknowledged_at)}.`
      }</p>`,
    );
  return page(
    ctx,
    200,
    'Acknowledge alert',
    `<h1>${many ? `Acknowledge these ${many} alerts?` : 'Acknowledge this alert?'}</h1>${about}<p>Acknowledging stops ${many ? 'their' : 'its'} escalation: nobody else is notified. It does not resolve ${many ? 'them' : 'it'}.</p>
<div class="actions"><form method="post" action="/ack/${esc(alertId)}"><input type="hidden" name="token" value="${esc(token)}"><button type="submit" class="primary">Acknowledge</button></form></div>`,
  );
};

export const ackPage = (
  deps: Pick<RouteDeps<AckLinkStore & AlertStore & TenancyStore>, 'store' | 'clock' | 'config'>,
): Middleware<ApiState> => {
  const { store, clock, config } = deps;
  return async (ctx, next) => {
    const m = PATH.exec(ctx.path);
    if (!m || (ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.method !== 'POST')) return next();
    const ws = ctx.state.workspace;
    const alertId = m[1]!.toLowerCase();
    if (ctx.method !== 'POST') {
      const token = typeof ctx.query.token === 'string' ? ctx.query.token : undefined;
      const r = ws
        ? await checkAckLink(store, ws.id, alertId, token, clock.now())
        : { state: 'invalid' as const };
      return answer(ctx, r, alertId, token ?? '');
    }
    if (crossSitePost(ctx.req.headers, config.trust_proxy))
      return page(
        ctx,
        403,
        'Refused',
        '<h1>Refused</h1><p role="alert">This form was sent from another site. Open the link from your notification and press Acknowledge there.</p>',
      );
    const type = (ctx.get('content-type') || '').split(';')[0]!.trim().toLowerCase();
    const form =
      type === 'application/x-www-form-urlencoded'
        ? new URLSearchParams((await readRaw(ctx.req, 4096)).toString('utf8'))
        : new URLSearchParams();
    const token = form.get('token') ?? undefined;
    const r = ws
      ? await useAckLink(store, ws.id, alertId, token, clock.now())
      : { state: 'invalid' as const };
    return answer(ctx, r, alertId, '');
  };
};
