// A real OpenID provider (oidc-provider) in its own process, for Lookout's SSO tests: its own RSA
// key, one confidential client `lookout` (secret IDP_CLIENT_SECRET) whose redirect URI is
// IDP_REDIRECT_URI, and the accounts of IDP_ACCOUNTS (JSON: login -> {email, email_verified, groups}).
// Its login page is a plain form (a "Username" field and a "Sign in" button, any password); signing
// in grants what was asked (no consent step). Prints {"port": n} once listening; stops when its
// parent closes stdin.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const accounts = JSON.parse(process.env.IDP_ACCOUNTS ?? '{}');
const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();
const issuer = `http://127.0.0.1:${port}`;

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-idp', alg: 'RS256', use: 'sig' };

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'lookout',
      client_secret: process.env.IDP_CLIENT_SECRET,
      redirect_uris: [process.env.IDP_REDIRECT_URI],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  jwks: { keys: [jwk] },
  cookies: { keys: [randomBytes(32).toString('base64url')] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
  features: { devInteractions: { enabled: false } },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  pkce: { required: () => true },
  async findAccount(_ctx, id) {
    const a = accounts[id];
    if (!a) return undefined;
    return {
      accountId: id,
      claims: async () => ({
        sub: id,
        email: a.email,
        email_verified: a.email_verified,
        groups: a.groups ?? [],
        name: id,
      }),
    };
  },
});

const page = (uid, message = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Test IdP · Sign in</title></head><body><main><h1>Test identity provider</h1>
${message ? `<p role="alert">${esc(message)}</p>` : ''}
<form method="post" action="/interaction/${esc(uid)}/login">
<label>Username <input name="login" autocomplete="username"></label>
<label>Password <input name="password" type="password"></label>
<button type="submit">Sign in</button></form></main></body></html>`;

provider.use(async (ctx, next) => {
  const m = /^\/interaction\/([\w-]+)(\/login)?$/.exec(ctx.path);
  if (!m) return next();
  const details = await provider.interactionDetails(ctx.req, ctx.res);
  if (ctx.method === 'GET' && !m[2]) {
    ctx.type = 'html';
    ctx.body = page(details.uid);
    return;
  }
  const raw = await new Promise((resolve) => {
    let body = '';
    ctx.req.on('data', (c) => (body += c));
    ctx.req.on('end', () => resolve(body));
  });
  const login = new URLSearchParams(raw).get('login') ?? '';
  if (!accounts[login]) {
    ctx.type = 'html';
    ctx.body = page(details.uid, 'Unknown user.');
    return;
  }
  const grant = new provider.Grant({ accountId: login, clientId: details.params.client_id });
  grant.addOIDCScope(String(details.params.scope));
  const grantId = await grant.save();
  const to = await provider.interactionResult(
    ctx.req,
    ctx.res,
    { login: { accountId: login }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
  ctx.status = 303;
  ctx.redirect(to);
});

server.on('request', provider.callback());
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
