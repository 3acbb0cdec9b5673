import type { FieldProblem, SecretBox } from '@lookout/shared';
import * as client from 'openid-client';
import { clientSecretContext, type OidcSettings } from '../../domain/access/sso.js';
import { guardedFetch } from './guarded-fetch.js';

/**
 * The OpenID Connect relying party's configuration per workspace (openid-client v6): discovery from
 * the issuer, then the client id and sealed secret. Kept in a bounded cache (oldest out first) for
 * an hour, keyed by workspace and by what the configuration was built from, so a saved change takes
 * effect at the next sign-in; a failed discovery is remembered for 30 s so that a storm of starts
 * does not become a storm of requests to the IdP. Every request goes through the SSRF guard
 * (guarded-fetch.ts) unless the operator allows private destinations (`notify_allow_private`).
 */
const CACHE_MAX = 500;
const FRESH_MS = 3_600_000;
const FAILED_MS = 30_000;
/** Seconds every request to the IdP may take (discovery, token, userinfo). */
const TIMEOUT_S = 10;

type Entry = { key: string; at: number } & (
  | { config: client.Configuration; error?: undefined }
  | { config?: undefined; error: Error }
);

const isLoopback = (u: URL) => u.protocol === 'http:';

/** Discovery from the issuer, and the client (its secret opened from the box), every time. */
export const discoverOidc = async (
  box: SecretBox,
  workspaceId: string,
  s: OidcSettings,
  blockPrivate: boolean,
) => {
  const issuer = new URL(s.issuer);
  const secret = s.client_secret_sealed
    ? box.open(s.client_secret_sealed, clientSecretContext(workspaceId))
    : undefined;
  return client.discovery(
    issuer,
    s.client_id,
    undefined,
    secret === undefined ? client.None() : client.ClientSecretBasic(secret),
    {
      timeout: TIMEOUT_S,
      [client.customFetch]: guardedFetch(blockPrivate),
      // http is accepted only for a loopback issuer (sso-settings.ts refuses any other).
      ...(isLoopback(issuer) ? { execute: [client.allowInsecureRequests] } : {}),
    },
  );
};

/** Problems of settings about to be enforced: the issuer must answer discovery (fresh, not cached). */
export const checkOidc = async (
  box: SecretBox,
  workspaceId: string,
  s: OidcSettings | null,
  blockPrivate: boolean,
): Promise<FieldProblem[]> => {
  if (!s) return [];
  try {
    await discoverOidc(box, workspaceId, s, blockPrivate);
    return [];
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return [
      {
        field: 'oidc.issuer',
        message: `discovery failed (${why.slice(0, 200)}): SSO cannot be enforced until the IdP answers`,
      },
    ];
  }
};

export const createOidcClients = (deps: { box: SecretBox; now: () => number; blockPrivate: boolean }) => {
  const cache = new Map<string, Entry>();
  const discover = (workspaceId: string, s: OidcSettings) =>
    discoverOidc(deps.box, workspaceId, s, deps.blockPrivate);

  /** The configuration for the workspace's OIDC settings, discovered once per hour at most. */
  const configFor = async (workspaceId: string, s: OidcSettings): Promise<client.Configuration> => {
    const key = JSON.stringify([s.issuer, s.client_id, s.client_secret_sealed]);
    const now = deps.now();
    const hit = cache.get(workspaceId);
    if (hit && hit.key === key && now - hit.at < (hit.config ? FRESH_MS : FAILED_MS)) {
      if (hit.config) return hit.config;
      throw hit.error;
    }
    cache.delete(workspaceId);
    let entry: Entry;
    try {
      entry = { key, at: now, config: await discover(workspaceId, s) };
    } catch (e) {
      entry = { key, at: now, error: e instanceof Error ? e : new Error(String(e)) };
    }
    cache.set(workspaceId, entry);
    while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value as string);
    if (entry.config) return entry.config;
    throw entry.error;
  };

  return { configFor, size: () => cache.size };
};

export type OidcClients = ReturnType<typeof createOidcClients>;
