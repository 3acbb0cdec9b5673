import { AppError } from '@lookout/shared';
import { z } from 'zod';
import type { SsoSettings, SsoStore } from '../../domain/access/sso.js';
import { saveSsoSettings, ssoSettingsBody } from '../../domain/access/sso-settings.js';
import type { TenancyStore } from '../../domain/tenancy/tenancy-store.js';
import { ROLES } from '../../domain/types.js';
import { responseSchemas, time } from '../responses.js';
import { type RouteDeps, route } from '../route.js';
import { checkOidc } from './oidc-client.js';
import { OIDC_CALLBACK, OIDC_START } from './oidc-flow.js';
import { samlMetadataProblem } from './saml-endpoints.js';

const TAG = 'Single sign-on';
const SAML_START = '/auth/saml/start';

const role = z.enum(ROLES);

/** The workspace's SSO settings as admins see them: the client secret never, only whether one is set. */
const ssoSettingsResponse = z
  .strictObject({
    oidc: z
      .strictObject({
        issuer: z.string(),
        client_id: z.string(),
        client_secret_set: z.boolean(),
        allowed_domains: z.array(z.string()),
        default_role: role,
        group_claim: z.string().nullable(),
        group_roles: z.array(z.strictObject({ group: z.string(), role })),
      })
      .nullable(),
    saml: z
      .strictObject({
        idp_metadata_url: z.string().nullable(),
        idp_metadata_xml: z.string().nullable(),
        default_role: role,
        allowed_domains: z.array(z.string()),
        group_roles: z.array(z.strictObject({ group: z.string(), role })),
      })
      .nullable(),
    enforced: z.boolean(),
    break_glass_user_ids: z.array(z.string()),
    service_provider: z.strictObject({
      oidc_redirect_uri: z.string(),
      saml_metadata_url: z.string(),
      saml_acs_url: z.string(),
    }),
    updated_at: time.nullable(),
  })
  .register(responseSchemas, { id: 'SsoSettings' });

const sessionOptionsResponse = z
  .strictObject({
    sso: z.strictObject({ label: z.string(), start_url: z.string() }).nullable(),
    password: z.boolean(),
    passkey: z.boolean(),
  })
  .register(responseSchemas, { id: 'SessionOptions' });

/** How the sign-in page may sign in: SSO's button (OIDC first), and whether passwords still work. */
export const sessionOptions = (s: SsoSettings | null) => ({
  sso: s?.oidc
    ? { label: 'Sign in with SSO', start_url: OIDC_START }
    : s?.saml
      ? { label: 'Sign in with SSO', start_url: SAML_START }
      : null,
  // Enforced: only break-glass admins may use a password, and the page keeps it one click away.
  password: !s?.enforced,
  passkey: !s?.enforced,
});

/**
 * Settings → Single sign-on (admins): OpenID Connect and SAML, enforcement and break-glass admins;
 * and the sign-in page's options (no sign-in needed).
 */
export const ssoRoutes = ({
  store,
  clock,
  box,
  config,
  workspaceUrl,
}: RouteDeps<SsoStore & TenancyStore>) => {
  const view = (workspace: { id: string; subdomain: string }, s: SsoSettings | null) => {
    const base = workspaceUrl(workspace.subdomain);
    return {
      oidc: s?.oidc
        ? {
            issuer: s.oidc.issuer,
            client_id: s.oidc.client_id,
            client_secret_set: s.oidc.client_secret_sealed !== null,
            allowed_domains: s.oidc.allowed_domains,
            default_role: s.oidc.default_role,
            group_claim: s.oidc.group_claim,
            group_roles: s.oidc.group_roles,
          }
        : null,
      saml: s?.saml
        ? {
            idp_metadata_url: s.saml.idp_metadata_url,
            idp_metadata_xml: s.saml.idp_metadata_xml,
            default_role: s.saml.default_role,
            allowed_domains: s.saml.allowed_domains ?? [],
            group_roles: s.saml.group_roles ?? [],
          }
        : null,
      enforced: s?.enforced ?? false,
      break_glass_user_ids: s?.break_glass_user_ids ?? [],
      service_provider: {
        oidc_redirect_uri: `${base}${OIDC_CALLBACK}`,
        saml_metadata_url: `${base}/auth/saml/metadata`,
        saml_acs_url: `${base}/auth/saml/acs`,
      },
      updated_at: s ? s.updated_at.toISOString() : null,
    };
  };
  return [
    route({
      method: 'get',
      path: '/sso',
      tag: TAG,
      response: ssoSettingsResponse,
      role: 'admin',
      summary:
        'The workspace’s single sign-on: OpenID Connect (`oidc`) and SAML (`saml`) settings, whether SSO is `enforced`, the break-glass admins, and the addresses to register at the IdP (`service_provider`). The client secret is never returned: `client_secret_set` says whether one is stored.',
      async handler({ auth }) {
        return view(auth.workspace, await store.getSsoSettings(auth.workspace.id));
      },
    }),
    route({
      method: 'put',
      path: '/sso',
      tag: TAG,
      response: ssoSettingsResponse,
      role: 'admin',
      body: ssoSettingsBody,
      summary:
        'Set the workspace’s single sign-on, whole. `oidc`: `issuer` (https; http only on localhost), `client_id`, `client_secret` (write-only: omitted keeps the stored one for the same issuer and client id, null removes it), `allowed_domains`, `default_role` of users created at their first sign-in, `group_claim` and `group_roles` (group → role, the highest wins, applied at every sign-in). `saml`: `idp_metadata_url` (https, a public address) or `idp_metadata_xml` (it must parse and name a signing certificate and an HTTP-Redirect SSO URL), `default_role`, `allowed_domains`, `group_roles` (from the assertion’s `groups` attribute). `enforced`: passwords refused (403 `sso_required`) except for `break_glass_user_ids` (admins of the workspace); needs a configuration whose IdP answers.',
      responses: { 200: 'Saved', 422: 'Invalid fields, every one named' },
      async handler({ auth, body }) {
        const saved = await saveSsoSettings(
          {
            store,
            box,
            check: (s) => checkOidc(box, auth.workspace.id, s.oidc, !config.notify_allow_private),
            samlMetadata: samlMetadataProblem(config),
          },
          auth.workspace.id,
          auth.user.id,
          body,
          clock.now(),
        );
        return view(auth.workspace, saved);
      },
    }),
    route({
      method: 'get',
      path: '/session/options',
      tag: 'Session',
      response: sessionOptionsResponse,
      auth: 'none',
      summary:
        'How to sign in to this workspace: `sso` (the button’s label and where it starts) when single sign-on is set up, and whether passwords and passkeys are offered (not while SSO is enforced; break-glass admins still use their password).',
      responses: { 404: 'No workspace at this address' },
      async handler({ ctx }) {
        const ws = ctx.state.workspace;
        if (!ws) throw new AppError('not_found', 'No workspace at this address.');
        return sessionOptions(await store.getSsoSettings(ws.id));
      },
    }),
  ];
};
