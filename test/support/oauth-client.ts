import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Agent } from 'undici';

/**
 * Node's resolver does not know `<workspace>.localhost` (RFC 6761 loopback); browsers do. This fetch
 * connects every *.localhost name to 127.0.0.1 and keeps the name in the URL (so Host picks the
 * workspace), for the MCP SDK's client, which takes a fetch function.
 */
const agent = new Agent({
  connect: {
    lookup: (hostname, options, callback) => {
      if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
        if ((options as { all?: boolean }).all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
        else (callback as unknown as (e: null, a: string, f: number) => void)(null, '127.0.0.1', 4);
        return;
      }
      callback(new Error(`not resolving ${hostname} in tests`), '', 4);
    },
  },
});

/** Node's own fetch (the SDK checks `instanceof Response`), through that agent. */
export const localhostFetch: FetchLike = (url, init) =>
  fetch(url, { ...init, dispatcher: agent } as RequestInit);

/**
 * The MCP SDK's OAuthClientProvider as a test (or an assistant) implements it: it keeps what the SDK
 * gives it in memory, and `redirectToAuthorization` records the URL a browser would open.
 */
export class MemoryOAuthProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  constructor(
    readonly redirect: string,
    readonly metadata: Partial<OAuthClientMetadata> = {},
  ) {}
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test Assistant',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...this.metadata,
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** A tiny cookie jar for driving the authorization pages over plain HTTP (no browser). */
export const cookieJar = () => {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    take(res: Response) {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const eq = pair!.indexOf('=');
        const name = pair!.slice(0, eq).trim();
        const value = pair!.slice(eq + 1).trim();
        if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) cookies.delete(name);
        else cookies.set(name, value);
      }
    },
  };
};
