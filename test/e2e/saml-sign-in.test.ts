/**
 * SAML sign-in end to end against a real IdP that signs its assertions (samlify, test/support/saml-idp.ts):
 * SP metadata, the AuthnRequest by redirect, the signed response POSTed to the ACS, a user created just
 * in time with the role their IdP group maps to. Then each attack fails closed, each on the defence
 * that stops it (the error code names it): a replayed response, another audience, an expired
 * assertion (by the injected clock), an unsigned assertion inside a signed response, no signature at
 * all, a tampered assertion, and a response to another browser's request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type Reply, startHarness } from '../support/harness.js';
import { startSamlIdp, type Tweaks } from '../support/saml-idp.js';

let h: Harness;
let idp: Awaited<ReturnType<typeof startSamlIdp>>;
let w: Awaited<ReturnType<Harness['workspace']>>;

const cookies = (r: Reply) => {
  const set = r.headers['set-cookie'];
  return (Array.isArray(set) ? set : set ? [set] : []).map((c) => c.split(';')[0]!);
};
const named = (r: Reply, name: string) => cookies(r).find((c) => c.startsWith(`${name}=`));

/** GET /auth/saml/start as a browser: the IdP URL it redirects to, and the pending cookie it set. */
const start = async () => {
  const r = await h.request('GET', '/auth/saml/start', { host: w.host });
  expect(r.status).toBe(302);
  const pending = named(r, 'lookout_saml_pending');
  expect(pending).toBeDefined();
  return { location: r.headers.location as string, cookie: pending!, setCookie: r.headers['set-cookie'] };
};

const post = (form: { SAMLResponse: string; RelayState: string }, cookie: string) =>
  h.request('POST', '/auth/saml/acs', {
    host: w.host,
    raw: new URLSearchParams(form).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
  });

/** A whole sign-in with `tweaks` made by the IdP: the ACS's answer. */
const signIn = async (email: string, tweaks: Tweaks = {}, groups: string[] = []) => {
  const s = await start();
  const r = await idp.respond(s.location, { email, groups }, tweaks);
  return { reply: await post(r, s.cookie), response: r, cookie: s.cookie };
};

const refusedWith = async (reply: Reply, code: string, email: string) => {
  expect(reply.status).toBe(303);
  expect(reply.headers.location).toBe(`/sign-in?error=${code}`);
  expect(named(reply, 'lookout_session')).toBeUndefined();
  expect(await h.store.getUserByEmail(w.workspace.id, email)).toBeNull();
};

const sessionOf = async (reply: Reply) => {
  const cookie = named(reply, 'lookout_session');
  expect(cookie).toBeDefined();
  return h.request('GET', '/api/v1/session', { host: w.host, headers: { cookie: cookie! } });
};

beforeAll(async () => {
  // The SSRF guard as deployed: user-given URLs may not reach private or loopback addresses.
  h = await startHarness({ notify_allow_private: false });
  // The IdP and the service share the injected clock: their times agree unless a test moves one.
  h.clock.set(Date.now());
  idp = await startSamlIdp({ now: () => h.clock.now().getTime() });
  w = await h.workspace('saml');
  const put = await w.api('PUT', '/sso', {
    json: {
      saml: {
        idp_metadata_xml: idp.metadata,
        default_role: 'viewer',
        group_roles: [{ group: 'oncall-admins', role: 'admin' }],
      },
    },
  });
  expect(put.status, put.text).toBe(200);
  expect(put.body.saml.group_roles).toEqual([{ group: 'oncall-admins', role: 'admin' }]);
});

afterAll(async () => {
  await idp?.close();
  await h?.close();
});

describe('SAML sign-in', () => {
  it('serves the SP metadata: entity id, ACS (HTTP-POST) on the workspace URL, signed assertions wanted', async () => {
    const r = await h.request('GET', '/auth/saml/metadata', { host: w.host });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    const base = `http://saml.localhost:${h.cp.port}`;
    expect(r.text).toContain(`entityID="${base}/auth/saml/metadata"`);
    expect(r.text).toMatch(/WantAssertionsSigned="true"/);
    expect(r.text).toContain(
      `Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${base}/auth/saml/acs"`,
    );
  });

  it('start: an AuthnRequest by redirect to the IdP; RelayState bound to a short-lived HttpOnly cookie', async () => {
    const s = await start();
    const u = new URL(s.location);
    expect(`${u.origin}${u.pathname}`).toBe(`${idp.base}/sso`);
    expect(u.searchParams.get('SAMLRequest')).toBeTruthy();
    const relay = u.searchParams.get('RelayState')!;
    expect(s.cookie.startsWith(`lookout_saml_pending=${relay}.`)).toBe(true);
    const attrs = String(s.setCookie).toLowerCase();
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('path=/auth/saml');
    expect(attrs).toContain('samesite=none');
    expect(attrs).toContain('secure');
  });

  it('a signed response signs in: the user is created just in time, with the role their group maps to', async () => {
    const { reply } = await signIn('Grace@Example.com', {}, ['oncall-admins', 'staff']);
    expect(reply.status).toBe(303);
    expect(reply.headers.location).toBe('/');
    const me = await sessionOf(reply);
    expect(me.status).toBe(200);
    // As a password sign-in: this browser becomes a known device of the account.
    expect(named(reply, 'lookout_device')).toBeDefined();
    const user = await h.store.getUserByEmail(w.workspace.id, 'grace@example.com');
    expect(user).toMatchObject({ email: 'grace@example.com', role: 'admin', password_hash: null });
    // No group mapped: the default role.
    const other = await signIn('ada@example.com', {}, ['staff']);
    expect(other.reply.headers.location).toBe('/');
    expect(await h.store.getUserByEmail(w.workspace.id, 'ada@example.com')).toMatchObject({ role: 'viewer' });
  });

  it('a replayed response is refused, even with the cookie that came with it', async () => {
    const first = await signIn('replay@example.com');
    expect(first.reply.headers.location).toBe('/');
    const again = await post(first.response, first.cookie);
    expect(again.status).toBe(303);
    expect(again.headers.location).toBe('/sign-in?error=saml_replayed');
    expect(named(again, 'lookout_session')).toBeUndefined();
  });

  it('an assertion for another audience is refused', async () => {
    const { reply } = await signIn('audience@example.com', { audience: 'https://other.example/sp' });
    await refusedWith(reply, 'saml_wrong_audience', 'audience@example.com');
  });

  it('an expired assertion is refused (the service’s clock, past NotOnOrAfter and the skew)', async () => {
    const s = await start();
    const r = await idp.respond(s.location, { email: 'late@example.com' }, { validMs: 5 * 60_000 });
    const now = h.clock.now().getTime();
    h.clock.set(now + 6 * 60_000 + 1);
    try {
      await refusedWith(await post(r, s.cookie), 'saml_expired', 'late@example.com');
    } finally {
      h.clock.set(now);
    }
  });

  it('an assertion not valid yet (issued in the future beyond the skew) is refused', async () => {
    const { reply } = await signIn('early@example.com', { issuedAt: h.clock.now().getTime() + 5 * 60_000 });
    await refusedWith(reply, 'saml_not_yet_valid', 'early@example.com');
  });

  it('an unsigned assertion inside a signed response is refused', async () => {
    const { reply, response } = await signIn('unsigned@example.com', { unsignedAssertion: true });
    // The response itself carries the IdP's valid signature; only the assertion is unsigned.
    expect(response.xml.indexOf('Signature')).toBeLessThan(response.xml.indexOf('<saml:Assertion'));
    await refusedWith(reply, 'saml_bad_signature', 'unsigned@example.com');
  });

  it('a response with no signature at all is refused', async () => {
    const { reply, response } = await signIn('nosig@example.com', { stripSignatures: true });
    expect(response.xml).not.toContain('Signature');
    await refusedWith(reply, 'saml_bad_signature', 'nosig@example.com');
  });

  it('a tampered assertion (the signed email changed) is refused', async () => {
    const { reply } = await signIn('victim@example.com', { tamperEmail: 'attacker@example.com' });
    await refusedWith(reply, 'saml_bad_signature', 'attacker@example.com');
  });

  it('a response without this browser’s pending sign-in, or to another browser’s request, is refused', async () => {
    const mine = await start();
    const theirs = await start();
    const r = await idp.respond(theirs.location, { email: 'csrf@example.com' });
    // No cookie: nothing was started here.
    await refusedWith(await post(r, ''), 'saml_no_pending_sign_in', 'csrf@example.com');
    // My cookie with their RelayState: not mine.
    await refusedWith(await post(r, mine.cookie), 'saml_no_pending_sign_in', 'csrf@example.com');
    // My cookie and my RelayState, but the response answers their request.
    const relay = new URL(mine.location).searchParams.get('RelayState')!;
    await refusedWith(
      await post({ ...r, RelayState: relay }, mine.cookie),
      'saml_unsolicited',
      'csrf@example.com',
    );
  });

  it('sign-ins are in the audit log (via saml), made and refused by the workspace’s rules', async () => {
    const ok = await signIn('audited@example.com');
    expect(ok.reply.headers.location).toBe('/');
    const settings = {
      idp_metadata_xml: idp.metadata,
      default_role: 'viewer',
      group_roles: [{ group: 'oncall-admins', role: 'admin' }],
    };
    expect(
      (await w.api('PUT', '/sso', { json: { saml: { ...settings, allowed_domains: ['example.org'] } } }))
        .status,
    ).toBe(200);
    try {
      const { reply } = await signIn('outsider@example.com');
      await refusedWith(reply, 'sso_domain_not_allowed', 'outsider@example.com');
    } finally {
      expect((await w.api('PUT', '/sso', { json: { saml: settings } })).status).toBe(200);
    }
    const made = await w.api('GET', '/audit-log?action=session.sign_in');
    expect(made.body.data).toContainEqual(
      expect.objectContaining({
        actor: expect.objectContaining({ name: 'audited@example.com' }),
        changes: { via: [null, 'saml'] },
      }),
    );
    const refused = await w.api('GET', '/audit-log?action=session.sign_in_failed');
    expect(refused.body.data).toContainEqual(
      expect.objectContaining({
        actor: expect.objectContaining({ name: 'outsider@example.com' }),
        changes: { via: [null, 'saml'] },
      }),
    );
  });

  it('the sign-in page offers SSO through SAML when only SAML is set up', async () => {
    const r = await h.request('GET', '/api/v1/session/options', { host: w.host });
    expect(r.body.sso).toEqual({ label: 'Sign in with SSO', start_url: '/auth/saml/start' });
  });

  it('PUT /sso refuses SAML metadata that does not parse or lacks a signing certificate or an SSO URL: one 422', async () => {
    const bad = async (saml: Record<string, unknown>, more: Record<string, unknown> = {}) => {
      const r = await w.api('PUT', '/sso', { json: { saml: { default_role: 'viewer', ...saml }, ...more } });
      expect(r.status).toBe(422);
      return r.body.error.details as { field: string; message: string }[];
    };
    expect(await bad({ idp_metadata_xml: '<not xml' })).toEqual([
      { field: 'saml.idp_metadata_xml', message: expect.stringMatching(/well-formed/) },
    ]);
    const noCert = idp.metadata.replace(/<(md:)?KeyDescriptor[\s\S]*?<\/(md:)?KeyDescriptor>/g, '');
    expect(await bad({ idp_metadata_xml: noCert })).toEqual([
      { field: 'saml.idp_metadata_xml', message: expect.stringMatching(/signing certificate/) },
    ]);
    const noSso = idp.metadata.replace(
      /<(md:)?SingleSignOnService[^>]*>(<\/(md:)?SingleSignOnService>)?/g,
      '',
    );
    expect(await bad({ idp_metadata_xml: noSso })).toEqual([
      { field: 'saml.idp_metadata_xml', message: expect.stringMatching(/SingleSignOnService/) },
    ]);
    const entities = `<!DOCTYPE x [<!ENTITY a "aaaa">]>${idp.metadata}`;
    expect(await bad({ idp_metadata_xml: entities })).toEqual([
      { field: 'saml.idp_metadata_xml', message: expect.stringMatching(/DOCTYPE/) },
    ]);
    // A URL at a private or loopback address is refused (SSRF), as every user-given URL is.
    expect(await bad({ idp_metadata_url: 'https://127.0.0.1:9/metadata' })).toEqual([
      { field: 'saml.idp_metadata_url', message: expect.stringMatching(/not (an )?allowed/) },
    ]);
    expect(await bad({ idp_metadata_url: 'https://10.1.2.3/metadata' })).toEqual([
      { field: 'saml.idp_metadata_url', message: expect.stringMatching(/not (an )?allowed/) },
    ]);
    // A name that resolves to loopback: refused at the address DNS gave.
    expect(await bad({ idp_metadata_url: 'https://localhost:9/metadata' })).toEqual([
      { field: 'saml.idp_metadata_url', message: expect.stringMatching(/not (an )?allowed/) },
    ]);
    expect((await bad({ idp_metadata_url: `${idp.base}/metadata` }))[0]!.field).toBe('saml.idp_metadata_url');
    // Every bad field in the one answer, nothing written.
    const both = await bad({ idp_metadata_xml: '<not xml' }, { break_glass_user_ids: ['nobody'] });
    expect(both.map((d) => d.field).sort()).toEqual(['break_glass_user_ids[0]', 'saml.idp_metadata_xml']);
    const now = await w.api('GET', '/sso');
    expect(now.body.saml.idp_metadata_xml).toBe(idp.metadata);
  });

  it('without SAML settings, start and ACS land on the sign-in page with sso_not_configured', async () => {
    const other = await h.workspace('saml-none');
    const r = await h.request('GET', '/auth/saml/start', { host: other.host });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/sign-in?error=sso_not_configured');
  });
});
