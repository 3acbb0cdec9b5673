import type { Config } from '../config.js';
import type { Session, SessionLifetimes } from '../domain/access/sessions.js';
import type { User } from '../domain/types.js';
import type { ApiContext } from './route.js';

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site writes),
 * Path=/ and no Domain attribute, so it is host-only: acme.<domain>'s cookie is never sent to another
 * workspace's subdomain. Over https it is Secure and named with the `__Host-` prefix, which browsers
 * accept only for Secure, host-only, Path=/ cookies.
 */
export const sessionCookieName = (config: Pick<Config, 'public_url_scheme'>) =>
  config.public_url_scheme === 'https' ? '__Host-lookout_session' : 'lookout_session';

export const sessionLifetimes = (
  config: Pick<Config, 'session_idle_minutes' | 'session_max_hours'>,
): SessionLifetimes => ({
  idleMs: config.session_idle_minutes * 60_000,
  absoluteMs: config.session_max_hours * 3_600_000,
});

const attributes = (config: Pick<Config, 'public_url_scheme'>, expires: Date) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: config.public_url_scheme === 'https',
  path: '/',
  expires,
  overwrite: true,
});

/** Sets (token) or clears (null) the session cookie. */
export const setSessionCookie = (
  ctx: ApiContext,
  config: Pick<Config, 'public_url_scheme'>,
  token: string | null,
  expires: Date = new Date(0),
) => {
  // Behind a TLS-terminating proxy the hop to us is plain http; the cookie is still for an https origin.
  if (config.public_url_scheme === 'https') ctx.cookies.secure = true;
  ctx.cookies.set(sessionCookieName(config), token, attributes(config, expires));
};

/**
 * The device cookie (domain/access/sign-in-guard.ts): set at every successful sign-in and kept at sign-out,
 * with the session cookie's attributes (HttpOnly, SameSite=Lax, host-only, Path=/, Secure and `__Host-`
 * over https), valid as long as its device record. It only gives this browser its own allowance of
 * failed sign-ins for the account.
 */
export const deviceCookieName = (config: Pick<Config, 'public_url_scheme'>) =>
  config.public_url_scheme === 'https' ? '__Host-lookout_device' : 'lookout_device';

export const setDeviceCookie = (
  ctx: ApiContext,
  config: Pick<Config, 'public_url_scheme'>,
  token: string,
  expires: Date,
) => {
  if (config.public_url_scheme === 'https') ctx.cookies.secure = true;
  ctx.cookies.set(deviceCookieName(config), token, attributes(config, expires));
};

/**
 * Hands the browser a sign-in, however it was made (password, second factor, passkey, OIDC, SAML): its
 * session cookie, its new device cookie, and the request's signed-in user (for the audit entry).
 */
export const startBrowserSession = (
  ctx: ApiContext,
  config: Pick<Config, 'public_url_scheme'>,
  r: { token: string; session: Session; user: User; device: { token: string; device: { expires_at: Date } } },
) => {
  setSessionCookie(ctx, config, r.token, r.session.expires_at);
  setDeviceCookie(ctx, config, r.device.token, r.device.device.expires_at);
  ctx.state.auth = { user: r.user, session: r.session };
};
