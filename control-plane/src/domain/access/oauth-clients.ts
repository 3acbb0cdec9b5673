/**
 * What an OAuth client (an AI assistant using the hosted MCP connector) may register at
 * `POST /oauth/register`, which anyone may call (RFC 7591, as the MCP authorization spec asks), and how
 * long a registration lives. Registration costs a row in the store, so it is bounded:
 * - the metadata (the JSON the client sends) is at most 16 KB;
 * - at most 10 redirect URIs, each at most 2,000 characters;
 * - a redirect URI is `https:`, `http:` on a loopback host only (OAuth 2.1 §2.3.1, RFC 8252 §7.3, the
 *   MCP spec: codes never travel in clear over a network), or an app's own private-use scheme in
 *   reverse-DNS form (RFC 8252 §7.1: `com.example.app:/cb`), or one of the few older app schemes of
 *   known MCP clients (APP_SCHEMES); every other scheme (`view-source:`, `ftp:`, `ws:`, `javascript:`,
 *   `data:`, `file:` …) is refused: an allow-list, not a list of what a browser might do with it;
 * - `client_name` is at most 100 characters (it is shown on the consent page and in Connected apps);
 * - a client that has not got a token within a day of registering is deleted (UNUSED_CLIENT_SECONDS);
 *   one that has is kept.
 * The number of registrations per client address is limited by the HTTP layer (config
 * `oauth_registrations_per_hour`), and so is the number of live clients per workspace and in all
 * (`oauth_clients_per_workspace`, `oauth_clients_total`; `clientCapProblem` below).
 */

export const MAX_CLIENT_METADATA_BYTES = 16 * 1024;
export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_LENGTH = 2000;
export const MAX_CLIENT_NAME_LENGTH = 100;
/** A registered client that never got a token is deleted this long after registering. */
export const UNUSED_CLIENT_SECONDS = 86_400;

/** The hosts `http:` redirect URIs may name (the loopback interface; oidc-provider's own list). */
export const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Older app schemes without a dot, of MCP clients people use (Cursor's `cursor://anysphere.…`). */
const APP_SCHEMES = new Set(['cursor:']);
/** A private-use scheme in reverse-DNS form (RFC 8252 §7.1): at least two labels, e.g. `com.example.app:`. */
const REVERSE_DNS_SCHEME = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+:$/;

/** Which of RFC 7591's errors a problem is: a bad redirect URI, or other bad metadata. */
export interface RegistrationProblem {
  error: 'invalid_redirect_uri' | 'invalid_client_metadata';
  description: string;
}

const redirect = (description: string): RegistrationProblem => ({
  error: 'invalid_redirect_uri',
  description: `redirect_uris ${description}`,
});

/** The scheme of a redirect URI that is neither https: nor http: (an app's own), or null. */
const ownScheme = (uri: string) => {
  const protocol = URL.parse(uri)?.protocol;
  return protocol && protocol !== 'https:' && protocol !== 'http:' ? protocol : null;
};

/** True when some redirect URI uses an app's own scheme (the client is then a native app). */
export const hasOwnSchemeRedirect = (uris: unknown) =>
  Array.isArray(uris) && uris.some((u) => typeof u === 'string' && ownScheme(u) !== null);

const redirectUriProblem = (uri: unknown, i: number): RegistrationProblem | null => {
  if (typeof uri !== 'string') return null; // the library refuses non-strings with its own words
  if (uri.length > MAX_REDIRECT_URI_LENGTH)
    return redirect(`[${i}] is longer than ${MAX_REDIRECT_URI_LENGTH} characters`);
  const url = URL.parse(uri);
  if (!url) return null; // likewise: "must only contain valid uris"
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))
    return redirect(
      `[${i}] uses http: on ${url.hostname}; use https:, or http: only on localhost, 127.0.0.1 or [::1]`,
    );
  if (url.protocol === 'https:' || url.protocol === 'http:') return null;
  if (!REVERSE_DNS_SCHEME.test(url.protocol) && !APP_SCHEMES.has(url.protocol))
    return redirect(
      `[${i}] must not use the ${url.protocol.slice(0, -1)} scheme; use https:, http: on a loopback host, or an app's own scheme in reverse-DNS form (com.example.app:/callback)`,
    );
  return null;
};

/**
 * The first reason these registration `metadata` (the parsed request body) are refused, or null.
 * Types and syntax are left to the authorization server's own checks; this adds the bounds and the
 * redirect URI policy above.
 */
export const registrationProblem = (metadata: unknown): RegistrationProblem | null => {
  const bytes = Buffer.byteLength(JSON.stringify(metadata) ?? '');
  if (bytes > MAX_CLIENT_METADATA_BYTES)
    return {
      error: 'invalid_client_metadata',
      description: `client metadata must be at most ${MAX_CLIENT_METADATA_BYTES / 1024} KB of JSON (got ${Math.ceil(bytes / 1024)} KB)`,
    };
  const name = (metadata as { client_name?: unknown } | null)?.client_name;
  if (typeof name === 'string' && [...name].length > MAX_CLIENT_NAME_LENGTH)
    return {
      error: 'invalid_client_metadata',
      description: `client_name must be at most ${MAX_CLIENT_NAME_LENGTH} characters (got ${[...name].length})`,
    };
  const uris = (metadata as { redirect_uris?: unknown } | null)?.redirect_uris;
  if (!Array.isArray(uris)) return null;
  if (uris.length > MAX_REDIRECT_URIS)
    return redirect(`must have at most ${MAX_REDIRECT_URIS} members (got ${uris.length})`);
  for (const [i, uri] of uris.entries()) {
    const problem = redirectUriProblem(uri, i);
    if (problem) return problem;
  }
  return null;
};

/** How many live registered clients there are, in one scope (a workspace, or the whole service). */
export interface ClientCount {
  count: number;
  /** When the first of them expires (a place frees up then at the latest), or null. */
  next_expiry: Date | null;
}

/**
 * Why one more client may not register, or null: a cap of 0 is no cap. The per-workspace cap is
 * checked first (its message is the one a workspace can act on). `retryAfterSeconds` is until the
 * first unused client of that scope expires, or an hour when none will.
 */
export const clientCapProblem = (
  caps: { perWorkspace: number; total: number },
  counts: { workspace: ClientCount; total: ClientCount },
  now: Date,
): { description: string; retryAfterSeconds: number } | null => {
  const full = (cap: number, c: ClientCount) => cap > 0 && c.count >= cap;
  const retry = (c: ClientCount) =>
    c.next_expiry ? Math.max(1, Math.ceil((c.next_expiry.getTime() - now.getTime()) / 1000)) : 3600;
  if (full(caps.perWorkspace, counts.workspace))
    return {
      description: `This workspace has ${counts.workspace.count} registered OAuth clients, its limit; unused ones are deleted a day after registering, so try again later.`,
      retryAfterSeconds: retry(counts.workspace),
    };
  if (full(caps.total, counts.total))
    return {
      description: 'The service has reached its limit of registered OAuth clients; try again later.',
      retryAfterSeconds: retry(counts.total),
    };
  return null;
};
