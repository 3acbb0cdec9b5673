import { isAppError, newId } from '@lookout/shared';
import { hasRole } from '../tenancy/roles.js';
import type { Role, User, Workspace } from '../types.js';
import type { MemberStore } from './member-store.js';
import { csrfToken, mintSession, type SessionDeps, type SessionLifetimes } from './sessions.js';
import { DEVICES_KEPT, mintDevice } from './sign-in-guard.js';
import type { SignInStore } from './sign-in-store.js';

/**
 * Single sign-on (Settings → Single sign-on, admins): a workspace's OpenID Connect and SAML
 * configuration, and what every SSO sign-in ends with (`completeSsoSignIn`). The protocols live in
 * http/sso/ (OIDC with openid-client, SAML with @node-saml/node-saml); both hand this module an
 * identity the IdP vouched for, and it decides who that is here.
 */

/** One IdP group and the role its members get (the highest of a user's groups wins). */
export interface GroupRole {
  group: string;
  role: Role;
}

export interface OidcSettings {
  /** The issuer URL; discovery reads `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  client_id: string;
  /** The client secret as the secret box sealed it (`clientSecretContext`); null: a public client. */
  client_secret_sealed: string | null;
  /** Lower-case email domains allowed to sign in; empty: any (the IdP decides alone). */
  allowed_domains: string[];
  /** The role of a user created at their first sign-in (and of one in no mapped group). */
  default_role: Role;
  /** The ID token / userinfo claim holding the user's groups (a string array); null: none read. */
  group_claim: string | null;
  /** Empty: roles are set once, at creation, and managed in Lookout after that. */
  group_roles: GroupRole[];
}

export interface SamlSettings {
  /** Exactly one of these two is set: where to fetch the IdP's metadata, or the metadata itself. */
  idp_metadata_url: string | null;
  idp_metadata_xml: string | null;
  default_role: Role;
  /** As OidcSettings.allowed_domains; absent or empty: any. */
  allowed_domains?: string[];
  /** As OidcSettings.group_roles; absent or empty: roles set once, at creation. */
  group_roles?: GroupRole[];
}

/** A workspace's SSO settings, one record per workspace, replaced whole. */
export interface SsoSettings {
  workspace_id: string;
  oidc: OidcSettings | null;
  saml: SamlSettings | null;
  /** Passwords refused (403 sso_required) for everyone but `break_glass_user_ids`. */
  enforced: boolean;
  /** Admins of the workspace who may still sign in with their password while SSO is enforced. */
  break_glass_user_ids: string[];
  updated_at: Date;
  /** The admin who saved them last. */
  updated_by: string;
}

/**
 * Where SSO settings are kept. Adapters: store/sqlite/sso.ts, store/mongo/sso.ts; contract
 * test/contract/sso.test.ts.
 */
export interface SsoStore {
  getSsoSettings(workspaceId: string): Promise<SsoSettings | null>;
  /** Creates or replaces the workspace's settings (the last write wins). */
  putSsoSettings(settings: SsoSettings): Promise<void>;
}

/** The context the OIDC client secret is sealed in: it opens for that workspace only. */
export const clientSecretContext = (workspaceId: string) => `sso:${workspaceId}:oidc-client-secret`;

/** Who the IdP says signed in, after the protocol checked its signature, audience, expiry and replay. */
export interface SsoIdentity {
  email: string;
  email_verified: boolean;
  groups: string[];
  via: 'oidc' | 'saml';
  /** The IdP's stable id of the user (`sub`, SAML NameID). */
  subject: string;
}

/**
 * Why an SSO sign-in was refused: the code goes to `/sign-in?error=<code>` and the page shows
 * the message (the web app's sign-in page holds the same words).
 */
export const SSO_ERRORS = {
  sso_not_configured: 'Single sign-on is not set up for this workspace.',
  sso_failed: 'Single sign-on did not complete. Try again, or ask an admin of the workspace.',
  sso_state_mismatch:
    'This sign-in link was already used or has expired. Start again with “Sign in with SSO”.',
  sso_denied: 'The identity provider did not sign you in.',
  sso_email_missing: 'The identity provider did not give an email address for your account.',
  sso_email_unverified:
    'The identity provider has not verified your email address. Verify it there, then try again.',
  sso_domain_not_allowed: 'Your email domain is not allowed to sign in to this workspace.',
} as const;

export type SsoErrorCode = keyof typeof SSO_ERRORS;

/** A refused SSO sign-in, with the code the sign-in page shows a message for. */
export class SsoSignInError extends Error {
  readonly code: SsoErrorCode;
  constructor(code: SsoErrorCode, detail?: string) {
    super(detail ? `${SSO_ERRORS[code]} (${detail})` : SSO_ERRORS[code]);
    this.name = 'SsoSignInError';
    this.code = code;
  }
}

/** What a sign-in through `via` is held to. */
const policyOf = (settings: SsoSettings, via: SsoIdentity['via']) => {
  if (via === 'oidc' && settings.oidc)
    return {
      allowed_domains: settings.oidc.allowed_domains,
      default_role: settings.oidc.default_role,
      group_roles: settings.oidc.group_roles,
    };
  if (via === 'saml' && settings.saml)
    return {
      allowed_domains: settings.saml.allowed_domains ?? [],
      default_role: settings.saml.default_role,
      group_roles: settings.saml.group_roles ?? [],
    };
  throw new SsoSignInError('sso_not_configured');
};

/** The highest role any of `groups` maps to; null when none is mapped. */
export const mappedRole = (groupRoles: GroupRole[], groups: string[]): Role | null => {
  const mine = new Set(groups);
  let best: Role | null = null;
  for (const { group, role } of groupRoles)
    if (mine.has(group) && (best === null || hasRole(role, best))) best = role;
  return best;
};

/** The email's domain, lower-case; null when it is not `local@domain`. */
const domainOf = (email: string) => {
  const at = email.lastIndexOf('@');
  return at > 0 && at < email.length - 1 ? email.slice(at + 1).toLowerCase() : null;
};

export type SsoSignInDeps = SessionDeps &
  Pick<MemberStore, 'changeUserRole'> &
  Pick<SignInStore, 'recordSignIn'> & {
    getSsoSettings(workspaceId: string): Promise<SsoSettings | null>;
    createUser(user: User): Promise<void>;
  };

/**
 * An identity the IdP vouched for → a new Lookout session. Refused (SsoSignInError): SSO not set up
 * for `via`, no email, an email the IdP has not verified, a domain outside `allowed_domains`. The user
 * is found by email, or created just in time with the default role (no password: they sign in through
 * the IdP). With `group_roles` set, the role follows the IdP at every sign-in: the highest mapped role,
 * or the default role when no group maps (a demotion included), except that break-glass users keep
 * theirs and a change that would leave the workspace without an active admin is not made
 * (MemberStore.changeUserRole refuses it). No second factor is asked: the IdP owns MFA.
 */
export const completeSsoSignIn = async (
  store: SsoSignInDeps,
  workspace: Workspace,
  identity: SsoIdentity,
  now: Date,
  life: SessionLifetimes,
) => {
  const settings = await store.getSsoSettings(workspace.id);
  if (!settings) throw new SsoSignInError('sso_not_configured');
  const policy = policyOf(settings, identity.via);
  const email = identity.email.trim().toLowerCase();
  const domain = domainOf(email);
  if (!email || !domain || email.length > 320) throw new SsoSignInError('sso_email_missing');
  if (!identity.email_verified) throw new SsoSignInError('sso_email_unverified');
  if (policy.allowed_domains.length > 0 && !policy.allowed_domains.includes(domain))
    throw new SsoSignInError('sso_domain_not_allowed', domain);
  const mapped = policy.group_roles.length > 0 ? mappedRole(policy.group_roles, identity.groups) : null;
  const wanted = policy.group_roles.length > 0 ? (mapped ?? policy.default_role) : null;
  let user = await store.getUserByEmail(workspace.id, email);
  if (!user) {
    const created: User = {
      id: newId(),
      workspace_id: workspace.id,
      email,
      role: wanted ?? policy.default_role,
      password_hash: null,
      created_at: now,
    };
    try {
      await store.createUser(created);
      user = created;
    } catch (e) {
      // Two first sign-ins of the same person at once: the other one created them.
      user = await store.getUserByEmail(workspace.id, email);
      if (!user) throw e;
    }
  } else if (wanted && wanted !== user.role && !settings.break_glass_user_ids.includes(user.id)) {
    const r = await store.changeUserRole(workspace.id, user.id, wanted).catch((e: unknown) => {
      if (isAppError(e)) return 'not_found' as const;
      throw e;
    });
    if (r === 'changed') user = { ...user, role: wanted };
  }
  const minted = mintSession(workspace.id, user.id, now, life);
  await store.insertSession(minted.session);
  // As a password sign-in: the user's last sign-in moves, and this browser is a known device.
  const device = mintDevice(workspace.id, user.id, now);
  await store.recordSignIn({
    workspace_id: workspace.id,
    user_id: user.id,
    at: now,
    device: device.device,
    replaces: null,
    keep: DEVICES_KEPT,
  });
  return { ...minted, user, csrfToken: csrfToken(minted.session), device };
};

/** True when the password sign-in of `userId` is refused because the workspace enforces SSO. */
export const passwordRefused = (settings: SsoSettings | null, userId: string) =>
  !!settings?.enforced && !settings.break_glass_user_ids.includes(userId);
