import { AppError } from '@lookout/shared';
import { createRateLimiter, type RateLimiter } from '../../domain/rate-limiter.js';
import {
  changePassword,
  changePasswordInput,
  csrfToken,
  signIn,
  signInInput,
} from '../../domain/sessions.js';
import type { User, Workspace } from '../../domain/types.js';
import { type AppDeps, route } from '../route.js';
import { sessionLifetimes, setSessionCookie } from '../session-cookie.js';

const userJson = (u: User) => ({ id: u.id, email: u.email, role: u.role });
const workspaceJson = (w: Workspace) => ({ id: w.id, subdomain: w.subdomain, name: w.name, plan: w.plan });

const limiter = (perWindow: number, windowSeconds: number): RateLimiter | null =>
  perWindow > 0 ? createRateLimiter({ capacity: perWindow, perSecond: perWindow / windowSeconds }) : null;

/** The web app's session: sign in, who am I (with the CSRF token), sign out, change password. */
export const sessionRoutes = ({ store, clock, config }: AppDeps) => {
  const life = sessionLifetimes(config);
  // Failed sign-ins, in this replica's memory: per client address, and per account from any address.
  const perAddress = limiter(config.sign_in_failures_per_minute, 60);
  const perAccount = limiter(config.sign_in_failures_per_account_per_hour, 3600);
  const refuse = (who: string, seconds: number) =>
    new AppError('rate_limited', `Too many failed sign-ins ${who}; try again in ${seconds} s.`, [], {
      retryAfterSeconds: seconds,
    });

  return [
    route({
      method: 'post',
      path: '/session',
      tag: 'Session',
      auth: 'none',
      summary:
        'Sign in to the web app with email and password: sets the HttpOnly session cookie and returns the user and the CSRF token every write with the session must send in X-CSRF-Token.',
      body: signInInput,
      status: 201,
      responses: {
        201: 'Signed in',
        401: 'Email or password is incorrect',
        404: 'No workspace at this address',
        429: 'Too many failed sign-ins from this address or for this account',
      },
      async handler({ ctx, body }) {
        const ws = ctx.state.workspace;
        if (!ws) throw new AppError('not_found', 'No workspace at this address.');
        const now = clock.now().getTime();
        const email =
          typeof (body as { email?: unknown })?.email === 'string' ? (body as { email: string }).email : '';
        const account = `${ws.id}:${email.trim().toLowerCase()}`;
        const waitAddress = perAddress?.retryAfter(ctx.ip, now) ?? 0;
        if (waitAddress > 0) throw refuse('from your address', waitAddress);
        const waitAccount = perAccount?.retryAfter(account, now) ?? 0;
        if (waitAccount > 0) throw refuse('for this account', waitAccount);
        try {
          const r = await signIn(store, ws, body, clock.now(), life);
          setSessionCookie(ctx, config, r.token, r.session.expires_at);
          ctx.state.auth = { user: r.user, session: r.session };
          return {
            user: userJson(r.user),
            workspace: workspaceJson(ws),
            csrf_token: r.csrfToken,
            expires_at: r.session.expires_at.toISOString(),
          };
        } catch (e) {
          if (e instanceof AppError && e.code === 'unauthorized') {
            perAddress?.take(ctx.ip, now);
            perAccount?.take(account, now);
          }
          throw e;
        }
      },
    }),
    route({
      method: 'get',
      path: '/session',
      tag: 'Session',
      auth: 'session',
      summary: 'The signed-in user and workspace, and a CSRF token for the session.',
      async handler({ auth }) {
        return {
          user: userJson(auth.user),
          workspace: workspaceJson(auth.workspace),
          csrf_token: csrfToken(auth.session!),
          expires_at: auth.session!.expires_at.toISOString(),
        };
      },
    }),
    route({
      method: 'delete',
      path: '/session',
      tag: 'Session',
      auth: 'session',
      summary: 'Sign out: ends this session and clears its cookie.',
      status: 204,
      async handler({ ctx, auth }) {
        await store.deleteSession(auth.session!.id);
        setSessionCookie(ctx, config, null);
        return undefined;
      },
    }),
    route({
      method: 'post',
      path: '/session/password',
      tag: 'Session',
      auth: 'session',
      summary:
        'Change your password (the current one is needed). Ends every session of yours, other browsers included; this browser gets a new session cookie and CSRF token.',
      body: changePasswordInput,
      responses: { 200: 'Changed; a new session', 422: 'Wrong current password, or a new one too short' },
      async handler({ ctx, auth, body }) {
        const r = await changePassword(store, auth.user, body, clock.now(), life);
        setSessionCookie(ctx, config, r.token, r.session.expires_at);
        return {
          user: userJson(auth.user),
          workspace: workspaceJson(auth.workspace),
          csrf_token: r.csrfToken,
          expires_at: r.session.expires_at.toISOString(),
        };
      },
    }),
  ];
};
