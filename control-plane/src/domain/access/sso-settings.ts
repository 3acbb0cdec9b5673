import { isIP } from 'node:net';
import type { FieldProblem, SecretBox } from '@lookout/shared';
import { z } from 'zod';
import { ROLES, type User } from '../types.js';
import { nameText, problemsIn, throwIfProblems } from '../validation.js';
import { clientSecretContext, type SsoSettings, type SsoStore } from './sso.js';

/**
 * Saving a workspace's SSO settings (PUT /api/v1/sso): every bad field in one 422, nothing half
 * written. The OIDC client secret is write-only and sealed by the deployment's secret box; omitted it
 * is kept, but only for the issuer and client id it was entered for (a stored secret is never sent to
 * another IdP). Enforcing needs a complete protocol: an OIDC issuer and client id, or SAML metadata.
 */

/** Break-glass admins a workspace may name. */
export const MAX_BREAK_GLASS = 20;
export const MAX_DOMAINS = 50;
export const MAX_GROUP_ROLES = 100;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An issuer: https, or http on a loopback host only (an IdP on the same machine, in development and
 * tests); no query, fragment or credentials (OpenID Connect Discovery 1.0 §3).
 */
export const issuerProblem = (s: string): string | null => {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return 'must be a URL such as https://idp.example.com';
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && LOOPBACK.has(u.hostname)))
    return 'must be an https URL (http only on localhost)';
  if (u.search || u.hash || u.username || u.password)
    return 'must not have a query, a fragment or credentials';
  return null;
};

const DOMAIN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** One line of visible text (validation.ts's nameText: no control or bidirectional characters). */
const oneLine = (max: number) => nameText(max);

export const oidcBody = z.strictObject({
  issuer: z
    .string()
    .trim()
    .min(1)
    .max(2048)
    .superRefine((s, ctx) => {
      const p = issuerProblem(s);
      if (p) ctx.addIssue({ code: 'custom', message: p });
    }),
  client_id: oneLine(255),
  client_secret: z
    .string()
    .min(1)
    .max(1024)
    .nullable()
    .optional()
    .describe(
      'Write-only. Omitted: the stored one is kept (same issuer and client id only); null: none (a public client).',
    ),
  allowed_domains: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .refine((d) => DOMAIN.test(d) && isIP(d) === 0, 'must be a domain name such as example.com'),
    )
    .max(MAX_DOMAINS)
    .default([])
    .describe('Email domains allowed to sign in; empty: any the IdP signs in.'),
  default_role: z.enum(ROLES),
  group_claim: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_.:/-]+$/, 'must be a claim name such as groups')
    .nullable()
    .optional(),
  group_roles: z
    .array(z.strictObject({ group: oneLine(256), role: z.enum(ROLES) }))
    .max(MAX_GROUP_ROLES)
    .default([])
    .describe('IdP group → role; the highest of a user’s groups wins, applied at every sign-in.'),
});

export const samlBody = z.strictObject({
  idp_metadata_url: z
    .url({ protocol: /^https$/ })
    .max(2048)
    .nullable()
    .optional(),
  idp_metadata_xml: z.string().min(1).max(200_000).nullable().optional(),
  default_role: z.enum(ROLES),
  allowed_domains: oidcBody.shape.allowed_domains,
  group_roles: oidcBody.shape.group_roles.describe(
    'IdP group (the assertion’s `groups` attribute) → role; the highest wins, applied at every sign-in.',
  ),
});

export const ssoSettingsBody = z.strictObject({
  oidc: oidcBody.nullable().default(null),
  saml: samlBody.nullable().default(null),
  enforced: z.boolean().default(false),
  break_glass_user_ids: z
    .array(z.string().min(1).max(64))
    .max(MAX_BREAK_GLASS)
    .default([])
    .describe('Admins who may still sign in with a password while SSO is enforced.'),
});

export type SsoSettingsBody = z.output<typeof ssoSettingsBody>;

type SaveDeps = {
  store: SsoStore & { getUser(workspaceId: string, id: string): Promise<User | null> };
  box: SecretBox;
};

/** The problems only the stored state can tell: who the break-glass ids are, and the kept secret. */
const storedProblems = async (
  deps: SaveDeps,
  workspaceId: string,
  raw: Record<string, unknown>,
  old: SsoSettings | null,
): Promise<FieldProblem[]> => {
  const problems: FieldProblem[] = [];
  const ids = Array.isArray(raw.break_glass_user_ids)
    ? raw.break_glass_user_ids.slice(0, MAX_BREAK_GLASS)
    : [];
  const users = await Promise.all(
    ids.map((id) => (typeof id === 'string' && id.length <= 64 ? deps.store.getUser(workspaceId, id) : null)),
  );
  users.forEach((u, i) => {
    if (typeof ids[i] !== 'string') return;
    if (!u)
      problems.push({
        field: `break_glass_user_ids[${i}]`,
        message: 'no user with this id in the workspace',
      });
    else if (u.role !== 'admin')
      problems.push({ field: `break_glass_user_ids[${i}]`, message: `${u.email} is not an admin` });
  });
  const oidc = raw.oidc as Record<string, unknown> | null | undefined;
  if (oidc && typeof oidc === 'object' && oidc.client_secret === undefined && old?.oidc?.client_secret_sealed)
    if (
      old.oidc.issuer !== String(oidc.issuer).trim() ||
      old.oidc.client_id !== String(oidc.client_id).trim()
    )
      problems.push({
        field: 'oidc.client_secret',
        message:
          'enter the client secret again: the issuer or client id changed, and a stored secret is only sent to the IdP it was entered for',
      });
  return problems;
};

/** What only the body as a whole can tell. */
const wholeProblems = (b: SsoSettingsBody): FieldProblem[] => {
  const problems: FieldProblem[] = [];
  if (b.saml && !b.saml.idp_metadata_url === !b.saml.idp_metadata_xml)
    problems.push({ field: 'saml', message: 'needs exactly one of idp_metadata_url and idp_metadata_xml' });
  if (b.enforced && !b.oidc && !b.saml)
    problems.push({
      field: 'enforced',
      message: 'needs a working sign-in to enforce: set up OpenID Connect or SAML first',
    });
  if (new Set(b.break_glass_user_ids).size !== b.break_glass_user_ids.length)
    problems.push({ field: 'break_glass_user_ids', message: 'must not name a user twice' });
  const samlGroups = b.saml?.group_roles.map((g) => g.group) ?? [];
  if (new Set(samlGroups).size !== samlGroups.length)
    problems.push({ field: 'saml.group_roles', message: 'must not map a group twice' });
  const groups = b.oidc?.group_roles.map((g) => g.group) ?? [];
  if (new Set(groups).size !== groups.length)
    problems.push({ field: 'oidc.group_roles', message: 'must not map a group twice' });
  if (b.oidc?.group_roles.length && !b.oidc.group_claim)
    problems.push({
      field: 'oidc.group_claim',
      message: 'is required to map groups to roles (such as groups)',
    });
  return problems;
};

/**
 * Validates and stores a workspace's SSO settings, whole. `check` (when given) is asked last, for the
 * settings about to be enforced: it proves the IdP answers (OIDC discovery) and returns problems.
 */
export const saveSsoSettings = async (
  deps: SaveDeps & {
    check?: (s: SsoSettings) => Promise<FieldProblem[]>;
    /** Reads SAML IdP metadata (XML, or fetched from its URL): null when usable, else what is wrong. */
    samlMetadata?: (
      source: { idp_metadata_url: string } | { idp_metadata_xml: string },
    ) => Promise<string | null>;
  },
  workspaceId: string,
  by: string,
  input: unknown,
  now: Date,
): Promise<SsoSettings> => {
  const raw = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const old = await deps.store.getSsoSettings(workspaceId);
  const parsed = problemsIn(ssoSettingsBody, input);
  const problems = [...parsed.problems, ...(parsed.data ? wholeProblems(parsed.data) : [])];
  const named = new Set(problems.map((p) => p.field));
  // A secret to enter again is news only once the issuer and client id it goes with are valid.
  if (named.has('oidc.issuer') || named.has('oidc.client_id')) named.add('oidc.client_secret');
  for (const p of await storedProblems(deps, workspaceId, raw, old))
    if (!named.has(p.field)) problems.push(p);
  // SAML metadata must parse and name a signing certificate and an SSO URL (fetched when by URL),
  // told in the same 422 as every other bad field, once the saml part is well-formed itself.
  const saml = raw.saml as Record<string, unknown> | null | undefined;
  if (
    saml &&
    typeof saml === 'object' &&
    deps.samlMetadata &&
    ![...named].some((f) => f.startsWith('saml'))
  ) {
    const xml = typeof saml.idp_metadata_xml === 'string' ? saml.idp_metadata_xml : null;
    const url = typeof saml.idp_metadata_url === 'string' ? saml.idp_metadata_url : null;
    const problem = xml
      ? await deps.samlMetadata({ idp_metadata_xml: xml })
      : url
        ? await deps.samlMetadata({ idp_metadata_url: url })
        : null;
    if (problem)
      problems.push({
        field: xml ? 'saml.idp_metadata_xml' : 'saml.idp_metadata_url',
        message: `the IdP metadata ${problem}`,
      });
  }
  throwIfProblems(problems);
  const b = parsed.data!;
  const o = b.oidc;
  const settings: SsoSettings = {
    workspace_id: workspaceId,
    oidc: o && {
      issuer: o.issuer,
      client_id: o.client_id,
      client_secret_sealed:
        typeof o.client_secret === 'string'
          ? deps.box.seal(o.client_secret, clientSecretContext(workspaceId))
          : o.client_secret === null
            ? null
            : (old?.oidc?.client_secret_sealed ?? null),
      allowed_domains: [...new Set(o.allowed_domains)],
      default_role: o.default_role,
      group_claim: o.group_claim ?? null,
      group_roles: o.group_roles,
    },
    saml: b.saml && {
      idp_metadata_url: b.saml.idp_metadata_url ?? null,
      idp_metadata_xml: b.saml.idp_metadata_xml ?? null,
      default_role: b.saml.default_role,
      allowed_domains: [...new Set(b.saml.allowed_domains)],
      group_roles: b.saml.group_roles,
    },
    enforced: b.enforced,
    break_glass_user_ids: b.break_glass_user_ids,
    updated_at: now,
    updated_by: by,
  };
  if (settings.enforced && deps.check) throwIfProblems(await deps.check(settings));
  await deps.store.putSsoSettings(settings);
  return settings;
};
