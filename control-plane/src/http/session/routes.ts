import { AppError } from '@lookout/shared';
import type { SessionStore } from '../../domain/access/sessions.js';
import {
  changePassword,
  changePasswordInput,
  csrfToken,
  signIn,
  signInInput,
} from '../../domain/access/sessions.js';
import { createSignInGuard } from '../../domain/access/sign-in-guard.js';
import type { SignInStore } from '../../domain/access/sign-in-store.js';
import { passwordRefused, type SsoStore } from '../../domain/access/sso.js';
import type { TenancyStore } from '../../domain/tenancy/tenancy-store.js';
import { parseOrThrow } from '../../domain/validation.js';
import { type RouteDeps, route } from '../route.js';
import { deviceCookieName, sessionLifetimes, setDeviceCookie, setSessionCookie } from '../session-cookie.js';
import { sessionResponse, userJson, workspaceJson } from './responses.js';

const SSO_REQUIRED_MESSAGE =
  'This workspace requires single sign-on: use “Sign in with SSO”. Only its break-glass admins may sign in with a password.';

/** The web app's session: sign in, who am I (with the CSRF token), sign out, change password. */
export const sessionRoutes = ({
  store,
  clock,
  config,
}: RouteDeps<SessionStore & SignInStore & TenancyStore & SsoStore>) => {
  const life = sessionLifetimes(config);
  // Failed sign-ins: per browser known to the account, or per address, (account, address) and account.
  const guard = createSignInGuard({
    perAddressPerMinute: config.sign_in_failures_per_minute,
    perAccountPerHour: config.sign_in_failures_per_account_per_hour,
    perDevicePerHour: config.sign_in_failures_per_device_per_hour,
    backoffAfter: config.sign_in_backoff_after_failures,
  });

  /**
   * While the workspace enforces SSO a password works only for its break-glass admins: anyone else
   * (an unknown email too) gets 403 sso_required before the password is even checked, so the answer
   * never tells a right password from a wrong one.
   */
  const refuseWhenSsoEnforced = async (workspaceId: string, body: unknown) => {
    const sso = await store.getSsoSettings(workspaceId);
    if (!sso?.enforced) return;
    const { email } = parseOrThrow(signInInput, body);
    const user = await store.getUserByEmail(workspaceId, email.toLowerCase());
    if (!user || passwordRefused(sso, user.id)) throw new AppError('sso_required', SSO_REQUIRED_MESSAGE);
  };

  return [
    route({
      method: 'post',
      path: '/session',
      audit: { signIn: 'password' },
      tag: 'Session',
      response: sessionResponse,
      auth: 'none',
      summary:
        'Sign in to the web app with email and password: sets the HttpOnly session cookie and returns the user and the CSRF token every write with the session must send in X-CSRF-Token. Also sets the device cookie: a browser that has signed in to an account before is held only to its own failed sign-ins for it, never locked out by guesses from elsewhere.',
      body: signInInput,
      status: 201,
      responses: {
        201: 'Signed in',
        401: 'Email or password is incorrect',
        403: 'The workspace requires single sign-on (code sso_required): only its break-glass admins may use a password',
        404: 'No workspace at this address',
        429: 'Too many failed sign-ins: from this browser (one that signed in to the account before), or, for other browsers, from this address, to this account from this address, or to this account',
      },
      async handler({ ctx, body }) {
        const ws = ctx.state.workspace;
        if (!ws) throw new AppError('not_found', 'No workspace at this address.');
        await refuseWhenSsoEnforced(ws.id, body);
        const r = await signIn(store, ws, body, clock.now(), life, {
          address: ctx.ip,
          deviceToken: ctx.cookies.get(deviceCookieName(config)),
          guard,
          onError: (err) => ctx.state.log.warn({ err }, 'could not record a failed sign-in'),
        });
        setSessionCookie(ctx, config, r.token, r.session.expires_at);
        setDeviceCookie(ctx, config, r.device.token, r.device.device.expires_at);
        ctx.state.auth = { user: r.user, session: r.session };
        return {
          user: userJson(r.user),
          workspace: workspaceJson(ws),
          csrf_token: r.csrfToken,
          expires_at: r.session.expires_at.toISOString(),
        };
      },
    }),
    route({
      method: 'get',
      path: '/session',
      tag: 'Session',
      response: sessionResponse,
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
      audit: { action: 'session.sign_out', self: true },
      tag: 'Session',
      response: null,
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
      audit: { action: 'user.password_change', resource_type: 'user', self: true },
      tag: 'Session',
      response: sessionResponse,
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
