import { AppError } from '@lookout/shared';
import type { PasskeyStore } from '../../domain/access/passkey-store.js';
import {
  addPasskey,
  addPasskeyInput,
  PASSKEYS_PER_USER,
  passkeyJson,
  passkeyRegistrationOptions,
  passkeySignInInput,
  passkeySignInOptions,
  signInWithPasskey,
  workspaceRelyingParty,
} from '../../domain/access/passkeys.js';
import { createRateLimiter } from '../../domain/access/rate-limiter.js';
import type { SecondFactorStore } from '../../domain/access/second-factor-store.js';
import type { SessionStore } from '../../domain/access/sessions.js';
import type { SignInStore } from '../../domain/access/sign-in-store.js';
import type { SsoStore } from '../../domain/access/sso.js';
import type { TenancyStore } from '../../domain/tenancy/tenancy-store.js';
import type { Workspace } from '../../domain/types.js';
import { idOf } from '../query.js';
import { type RouteDeps, route } from '../route.js';
import { sessionBody, sessionResponse } from '../session/responses.js';
import { deviceCookieName, sessionLifetimes, startBrowserSession } from '../session-cookie.js';
import {
  creationOptionsResponse,
  passkeyListResponse,
  passkeyResponse,
  requestOptionsResponse,
} from './responses.js';

const tooMany = (seconds: number) =>
  new AppError(
    'rate_limited',
    `Too many passkey sign-ins from your address; try again in ${seconds} s.`,
    [],
    {
      retryAfterSeconds: seconds,
    },
  );

/**
 * Your passkeys (session only: a key cannot add a way to sign in), and the passwordless sign-in. The
 * relying party is the workspace's host and URL from configuration (passkeyRelyingParty).
 */
export const passkeyRoutes = ({
  store,
  clock,
  config,
  workspaceUrl,
}: RouteDeps<PasskeyStore & SessionStore & SignInStore & TenancyStore & SecondFactorStore & SsoStore>) => {
  const life = sessionLifetimes(config);
  const rpOf = (ws: Workspace) => workspaceRelyingParty(workspaceUrl, ws);
  // Per client address, in this replica's memory (bounded): challenges asked for without signing in,
  // and failed passwordless sign-ins (the same allowance as failed passwords). A valid passkey from an
  // address with failures left always works; nobody elsewhere can use up another address's allowance.
  const perMinute = config.sign_in_failures_per_minute;
  const failures =
    perMinute > 0 ? createRateLimiter({ capacity: perMinute, perSecond: perMinute / 60 }) : null;
  const asks = createRateLimiter({ capacity: 30, perSecond: 0.5 });
  const workspaceOf = (ws: Workspace | null) => {
    if (!ws) throw new AppError('not_found', 'No workspace at this address.');
    return ws;
  };

  /**
   * A passkey is a Lookout credential like a password: while the workspace enforces SSO, passwordless
   * sign-in is off for everyone (break-glass admins sign in with their password).
   */
  const refuseWhenSsoEnforced = async (ws: Workspace) => {
    if ((await store.getSsoSettings(ws.id))?.enforced)
      throw new AppError(
        'sso_required',
        'This workspace requires single sign-on: use “Sign in with SSO”. Only its break-glass admins may sign in with a password.',
      );
  };

  return [
    route({
      method: 'post',
      path: '/me/passkeys/options',
      audit: {
        none: 'Only mints a single-use challenge: no configuration or access changes; adding the passkey (POST /me/passkeys) is the entry',
      },
      tag: 'Session',
      auth: 'session',
      response: creationOptionsResponse,
      summary: `WebAuthn creation options to add a passkey (pass them to navigator.credentials.create, or @simplewebauthn/browser's startRegistration). The challenge is good for 5 minutes, once. At most ${PASSKEYS_PER_USER} passkeys each.`,
      async handler({ auth }) {
        return passkeyRegistrationOptions(store, auth.user, rpOf(auth.workspace), clock.now());
      },
    }),
    route({
      method: 'post',
      path: '/me/passkeys',
      tag: 'Session',
      auth: 'session',
      response: passkeyResponse,
      body: addPasskeyInput,
      status: 201,
      summary:
        'Add a passkey: `credential` is what navigator.credentials.create answered to the options of `POST /me/passkeys/options`. It then signs you in without a password (`POST /session/passkey`) and counts as your second factor.',
      responses: { 201: 'Added', 422: 'A bad name, or a credential not made for the current options here' },
      async handler({ auth, body }) {
        return passkeyJson(await addPasskey(store, auth.user, body, rpOf(auth.workspace), clock.now()));
      },
    }),
    route({
      method: 'get',
      path: '/me/passkeys',
      tag: 'Session',
      auth: 'session',
      response: passkeyListResponse,
      summary: 'Your passkeys, oldest first.',
      async handler({ auth }) {
        return { data: (await store.listPasskeys(auth.workspace.id, auth.user.id)).map(passkeyJson) };
      },
    }),
    route({
      method: 'delete',
      path: '/me/passkeys/{id}',
      tag: 'Session',
      auth: 'session',
      response: null,
      status: 204,
      summary:
        'Remove one of your passkeys: it no longer signs you in. Refused while the workspace requires two-factor and it is your only factor (no authenticator app, no other passkey).',
      responses: {
        404: 'You have no passkey with this id',
        409: 'The workspace requires two-factor and this is your only factor',
      },
      async handler({ auth, params }) {
        const { workspace, user } = auth;
        const id = idOf(params.id);
        const mine = await store.listPasskeys(workspace.id, user.id);
        if (!mine.some((p) => p.id === id))
          throw new AppError('not_found', 'No passkey of yours with this id.');
        if (mine.length === 1) {
          const factors = await store.getSecondFactors(workspace.id, user.id);
          if (!factors.totp?.confirmed_at && (await store.getWorkspaceSecurity(workspace.id)).require_2fa)
            throw new AppError(
              'conflict',
              'The workspace requires two-factor and this passkey is your only second factor: add another passkey or an authenticator app first.',
            );
        }
        if (!(await store.deletePasskey(workspace.id, user.id, id)))
          throw new AppError('not_found', 'No passkey of yours with this id.');
        return undefined;
      },
    }),
    route({
      method: 'post',
      path: '/session/passkey/options',
      audit: {
        none: 'Only mints a single-use challenge, for anyone: no configuration or access changes; the sign-in it serves is the entry',
      },
      tag: 'Session',
      auth: 'none',
      response: requestOptionsResponse,
      summary:
        'WebAuthn request options for signing in with a passkey (navigator.credentials.get, or @simplewebauthn/browser startAuthentication): passwordless with `POST /session/passkey`, or as the second factor with `POST /session/second-factor`. `challenge` is good for 5 minutes, once.',
      responses: {
        403: 'The workspace requires single sign-on (code sso_required): passkey sign-in is off',
        404: 'No workspace at this address',
        429: 'Too many requests from this address',
      },
      async handler({ ctx }) {
        const ws = workspaceOf(ctx.state.workspace);
        const now = clock.now();
        const taken = asks.take(ctx.ip, now.getTime());
        if (!taken.ok) throw tooMany(taken.retryAfterSeconds);
        await refuseWhenSsoEnforced(ws);
        return passkeySignInOptions(store, ws, rpOf(ws), now);
      },
    }),
    route({
      method: 'post',
      path: '/session/passkey',
      audit: { signIn: 'passkey' },
      tag: 'Session',
      auth: 'none',
      response: sessionResponse,
      body: passkeySignInInput,
      status: 201,
      summary:
        'Sign in with a passkey, no password: `challenge` from `POST /session/passkey/options`, `credential` what navigator.credentials.get answered. Sets the session and device cookies as `POST /session` does, and answers the same.',
      responses: {
        201: 'Signed in',
        401: 'The passkey was not accepted (unknown, another workspace, replayed, or not verified)',
        404: 'No workspace at this address',
        403: 'The workspace requires single sign-on (code sso_required): passkey sign-in is off',
        429: 'Too many failed passkey sign-ins from this address',
      },
      async handler({ ctx, body }) {
        const ws = workspaceOf(ctx.state.workspace);
        const now = clock.now();
        const wait = failures?.retryAfter(ctx.ip, now.getTime()) ?? 0;
        if (wait > 0) throw tooMany(wait);
        await refuseWhenSsoEnforced(ws);
        let r: Awaited<ReturnType<typeof signInWithPasskey>>;
        try {
          r = await signInWithPasskey(
            store,
            ws,
            body,
            rpOf(ws),
            now,
            life,
            ctx.cookies.get(deviceCookieName(config)),
          );
        } catch (e) {
          if (e instanceof AppError && e.code === 'unauthorized') failures?.take(ctx.ip, now.getTime());
          throw e;
        }
        startBrowserSession(ctx, config, r);
        return sessionBody(store, ws, r.user, r.session, r.csrfToken);
      },
    }),
  ];
};
