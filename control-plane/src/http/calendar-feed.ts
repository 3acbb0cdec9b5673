import { AppError } from '@lookout/shared';
import type { Middleware } from 'koa';
import type { CredentialGuard } from '../domain/access/rate-limiter.js';
import { type CalendarFeedPorts, readCalendarFeed } from '../domain/oncall/calendar-feeds.js';
import type { ApiState, RouteDeps } from './route.js';

/**
 * The public calendar feed, `GET /calendars/<token>.ics` on the workspace's own host
 * (domain/oncall/calendar-feeds.ts): no cookie, no key, the token in the path is the credential. A
 * token that opens nothing here (unknown, revoked, another workspace's, malformed) is a 404 counted as
 * a failed credential of the client's address (the API keys' limit, so the token space cannot be
 * walked); past the limit, 429. The access log writes the path without the token (request-log.ts).
 */
const PATH = /^\/calendars\/([^/]*)$/;
export const CALENDAR_PATH_PREFIX = '/calendars/';

export const calendarFeed = (
  deps: Pick<RouteDeps<CalendarFeedPorts>, 'store' | 'clock' | 'workspaceUrl'> & {
    credentials: CredentialGuard;
  },
): Middleware<ApiState> => {
  const { store, clock, workspaceUrl, credentials } = deps;
  return async (ctx, next) => {
    const m = PATH.exec(ctx.path);
    if (!m) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      throw new AppError('method_not_allowed', `${ctx.method} is not allowed here; use GET.`);
    }
    const ws = ctx.state.workspace;
    const now = clock.now();
    const token = m[1]!.endsWith('.ics') ? m[1]!.slice(0, -4) : '';
    try {
      const text = await credentials.check(ctx.ip, now.getTime(), async () => {
        const found =
          ws && token
            ? await readCalendarFeed(store, {
                workspaceId: ws.id,
                host: new URL(workspaceUrl(ws.subdomain)).hostname,
                token,
                now,
              })
            : null;
        if (found === null) throw new AppError('unauthorized', 'No calendar at this URL.');
        return found;
      });
      ctx.status = 200;
      ctx.type = 'text/calendar; charset=utf-8';
      ctx.set('Cache-Control', 'private, max-age=300');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.body = text;
    } catch (e) {
      if (!(e instanceof AppError) || e.code !== 'unauthorized') throw e;
      // The same answer whatever made the token fail, and nothing of the path echoed back.
      throw new AppError(
        'not_found',
        'No calendar at this URL: it was revoked or replaced, or it is not this workspace’s. Ask for a new one in Lookout.',
      );
    }
  };
};
