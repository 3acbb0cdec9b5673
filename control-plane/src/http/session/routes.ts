import { AppError } from '@lookout/shared';
import { z } from 'zod';
import type { PasskeyStore } from '../../domain/access/passkey-store.js';
import { passkeyRelyingParty } from '../../domain/access/passkeys.js';
import { completeSecondFactor, secondFactorInput } from '../../domain/access/second-factor.js';
import type { SecondFactorStore } from '../../domain/access/second-factor-store.js';
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
import { type ApiContext, type RouteDeps, route } from '../route.js';
import {
  deviceCookieName,
  sessionLifetimes,
  setSessionCookie,
  startBrowserSession,
} from '../session-cookie.js';
import { secondFactorRequiredResponse, sessionBody, sessionResponse } from './responses.js';

type Ports = SessionStore & SignInStore & TenancyStore & SecondFactorStore & PasskeyStore;

const SSO_REQUIRED_MESSAGE =
  'This workspace requires single sign-on: use “Sign in with SSO”. Only its break-glass admins may sign in with a password.';

/** The web app's session: sign in, who am I (with the CSRF token), sign out, change password. */
const VIAS = ['totp', 'recovery_code', 'passkey'] as const;
const secondFactorVia = (body: unknown) => {
  const method = (body as { method?: unknown } | null)?.method;
  return VIAS.find((v) => v === method) ?? 'totp';
};

export const sessionRoutes = ({ store, clock, config, box, workspaceUrl }: RouteDeps<Ports & SsoStore>) => {
  const life = sessionLifetimes(config);
  // Failed sign-ins: per browser known to the account, or per address, (account, address) and account.
  const guard = createSignInGuard({
    perAddressPerMinute: config.sign_in_failures_per_minute,
    perAccountPerHour: config.sign_in_failures_per_account_per_hour,
    perDevicePerHour: config.sign_in_failures_per_device_per_hour,
    backoffAfter: config.sign_in_backoff_after_failures,
  });
  // Wrong second-factor codes, per user (account `<workspace>:2fa:<user>`), with the same device rule.
  const secondFactorGuard = createSignInGuard({
    perAddressPerMinute: config.sign_in_failures_per_minute,
    perAccountPerHour: config.sign_in_failures_per_account_per_hour,
    perDevicePerHour: config.sign_in_failures_per_device_per_hour,
    backoffAfter: config.sign_in_backoff_after_failures,
  });
  const clientOf = (ctx: ApiContext, g: typeof guard) => ({
    address: ctx.ip,
    deviceToken: ctx.cookies.get(deviceCookieName(config)),
    guard: g,
    onError: (err: unknown) => ctx.state.log.warn({ err }, 'could not record a failed sign-in'),
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
      response: z.union([sessionResponse, secondFactorRequiredResponse]),
      auth: 'none',
      summary:
        'Sign in to the web app with email and password: sets the HttpOnly session cookie and returns the user and the CSRF token every write with the session must send in X-CSRF-Token. Also sets the device cookie: a browser that has signed in to an account before is held only to its own failed sign-ins for it, never locked out by guesses from elsewhere. A user with a second factor gets 200 `{second_factor_required, methods, challenge}` and no session: finish with POST /session/second-factor within 5 minutes.',
      body: signInInput,
      status: 201,
      responses: {
        200: 'Password correct; a second factor is required (no session yet)',
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
        const r = await signIn(store, ws, body, clock.now(), life, clientOf(ctx, guard));
        if (r.kind === 'second_factor') {
          ctx.state.status = 200;
          return { second_factor_required: true, methods: r.methods, challenge: r.challenge };
        }
        startBrowserSession(ctx, config, r);
        return sessionBody(store, ws, r.user, r.session, r.csrfToken);
      },
    }),
    route({
      method: 'post',
      path: '/session/second-factor',
      // The sign-in is recorded by the factor that finished it.
      audit: { signIn: (body) => secondFactorVia(body) },
      tag: 'Session',
      response: sessionResponse,
      auth: 'none',
      summary:
        'Finish a password sign-in with its second factor: the `challenge` POST /session returned and a TOTP `code`, a recovery `code` (each works once) or a passkey `credential`. A challenge allows 5 tries and 5 minutes; wrong codes are also limited per user (a browser that signed in to the account before only by its own failures). Sets the session and device cookies like POST /session.',
      body: secondFactorInput,
      status: 201,
      responses: {
        201: 'Signed in',
        401: 'The challenge is unknown, expired, used, or out of tries: sign in again with the password',
        404: 'No workspace at this address',
        422: 'The code (or passkey) is not correct; the challenge stays usable until its tries run out',
        429: 'Too many wrong second-factor codes for this user from this browser or address',
      },
      async handler({ ctx, body }) {
        const ws = ctx.state.workspace;
        if (!ws) throw new AppError('not_found', 'No workspace at this address.');
        // The relying party of passkeys: this workspace's own origin (domain/access/passkeys.ts).
        const rp = passkeyRelyingParty(workspaceUrl(ws.subdomain), ws.name);
        const client = clientOf(ctx, secondFactorGuard);
        const r = await completeSecondFactor(store, box, ws, body, clock.now(), life, rp, client);
        startBrowserSession(ctx, config, r);
        return sessionBody(store, ws, r.user, r.session, r.csrfToken);
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
        return sessionBody(store, auth.workspace, auth.user, auth.session!, csrfToken(auth.session!));
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
        const setup = auth.session!.two_factor_setup === true;
        const r = await changePassword(store, auth.user, body, clock.now(), life, setup);
        setSessionCookie(ctx, config, r.token, r.session.expires_at);
        return sessionBody(store, auth.workspace, auth.user, r.session, r.csrfToken);
      },
    }),
  ];
};
