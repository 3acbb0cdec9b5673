import { join } from 'node:path';
import { exited, ROOT, startProcess } from './processes.js';

export interface IdpAccount {
  email: string;
  email_verified: boolean;
  groups?: string[];
}

/**
 * A real OpenID provider (oidc-provider, test/support/oidc-idp-child.js) in its own process with its own
 * key, its client `lookout` registered with `redirectUri`, and these accounts (login → claims).
 */
export const startOidcIdp = async (opts: {
  redirectUri: string;
  accounts: Record<string, IdpAccount>;
  clientSecret?: string;
}) => {
  const clientSecret = opts.clientSecret ?? 'test-client-secret-0123456789';
  const { child, match } = await startProcess(
    join(ROOT, 'test', 'support', 'oidc-idp-child.js'),
    {
      IDP_REDIRECT_URI: opts.redirectUri,
      IDP_CLIENT_SECRET: clientSecret,
      IDP_ACCOUNTS: JSON.stringify(opts.accounts),
    },
    /\{"port":(\d+)\}/,
  );
  const issuer = `http://127.0.0.1:${match[1]}`;
  return {
    issuer,
    clientSecret,
    async stop() {
      child.stdin?.end();
      await exited(child);
    },
  };
};

const cookiePairs = (setCookies: string[], jar: Map<string, string>) => {
  for (const c of setCookies) {
    const [pair] = c.split(';');
    const i = pair!.indexOf('=');
    const name = pair!.slice(0, i).trim();
    const value = pair!.slice(i + 1).trim();
    if (!value || /expires=Thu, 01 Jan 1970/i.test(c)) jar.delete(name);
    else jar.set(name, value);
  }
};

export const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

/**
 * Walks a browser's way through the IdP: from its authorization URL, signing in as `login` on its
 * form, until it redirects to a URL starting with `stopAt` (Lookout's callback), returned whole.
 */
export const throughIdp = async (authorizeUrl: string, login: string, stopAt: string): Promise<string> => {
  const jar = new Map<string, string>();
  let url = authorizeUrl;
  let form: { action: string } | null = null;
  for (let hops = 0; hops < 20; hops++) {
    if (url.startsWith(stopAt)) return url;
    const res: Response = form
      ? await fetch(form.action, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: cookieHeader(jar), 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ login, password: 'any' }).toString(),
        })
      : await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader(jar) } });
    form = null;
    cookiePairs(res.headers.getSetCookie(), jar);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url).href;
      continue;
    }
    const html: string = await res.text();
    const action: string | undefined = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action) throw new Error(`IdP answered ${res.status}: ${html.slice(0, 500)}`);
    form = { action: new URL(action, url).href };
  }
  throw new Error('too many redirects at the IdP');
};
