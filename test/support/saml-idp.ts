import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import * as samlify from 'samlify';
import { selfSigned } from './certs.js';

/**
 * A real SAML 2.0 identity provider for tests (samlify), with its own signing key and certificate
 * made at start. It serves its metadata at `/metadata` and takes AuthnRequests at `/sso` (HTTP-Redirect
 * binding): the answer is a page that auto-posts the signed response to the SP's ACS, as IdPs do.
 * `respond` builds a response for a given AuthnRequest URL directly, with the changes an attacker
 * could make (another audience, other times, no signature on the assertion, a tampered body).
 */
// samlify asks for an XML schema validator for inbound messages; this IdP only reads AuthnRequests
// from the SP under test.
samlify.setSchemaValidator({ validate: async () => 'skipped' });

const EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

const TEMPLATE =
  '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="{ID}" Version="2.0" IssueInstant="{IssueInstant}" Destination="{Destination}" InResponseTo="{InResponseTo}"><saml:Issuer>{Issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status><saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="{AssertionID}" Version="2.0" IssueInstant="{IssueInstant}"><saml:Issuer>{Issuer}</saml:Issuer><saml:Subject><saml:NameID Format="{NameIDFormat}">{NameID}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="{NotOnOrAfter}" Recipient="{Recipient}" InResponseTo="{InResponseTo}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="{NotBefore}" NotOnOrAfter="{NotOnOrAfter}"><saml:AudienceRestriction><saml:Audience>{Audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="{IssueInstant}" SessionIndex="{AssertionID}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement>{Groups}</saml:AttributeStatement></saml:Assertion></samlp:Response>';

/** GET over loopback whatever the host name (`acme.localhost` need not resolve here), its Host kept. */
const getText = (url: string) =>
  new Promise<string>((resolve, reject) => {
    const u = new URL(url);
    httpRequest(
      { host: '127.0.0.1', port: u.port, path: u.pathname + u.search, headers: { host: u.host } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      },
    )
      .on('error', reject)
      .end();
  });

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export interface SamlUser {
  email: string;
  groups?: string[];
}

export interface Tweaks {
  audience?: string;
  /** The IdP's clock for this response (default: `now()` of the IdP). */
  issuedAt?: number;
  /** How long the assertion is valid (default 5 minutes). */
  validMs?: number;
  /** The SP asks for signed assertions; this IdP then signs only the response around it. */
  unsignedAssertion?: boolean;
  /** After signing, the NameID is changed to this address. */
  tamperEmail?: string;
  /** After signing, every signature is removed. */
  stripSignatures?: boolean;
}

export const startSamlIdp = async (opts: { now: () => number }) => {
  const pem = selfSigned(['idp.test']);
  const server: Server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const idp = samlify.IdentityProvider({
    entityID: `${base}/metadata`,
    signingCert: pem.cert,
    privateKey: pem.key,
    nameIDFormat: [EMAIL],
    singleSignOnService: [
      { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: `${base}/sso` },
    ],
    requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  });
  const metadata = idp.getMetadata();
  /** The user the next sign-in at `/sso` is for (the IdP's own login is not part of the test). */
  let user: SamlUser = { email: 'someone@example.com' };
  /** The SPs' metadata by entity id, fetched from the SP when first seen. */
  const sps = new Map<string, string>();

  const spFor = async (entityId: string, tweaks: Tweaks) => {
    let xml = sps.get(entityId);
    if (!xml) {
      xml = await getText(entityId);
      sps.set(entityId, xml);
    }
    if (tweaks.unsignedAssertion)
      return samlify.ServiceProvider({
        metadata: xml.replace(/WantAssertionsSigned="true"/, 'WantAssertionsSigned="false"'),
        wantMessageSigned: true,
      });
    return samlify.ServiceProvider({ metadata: xml });
  };

  /** A response to the AuthnRequest in `authnUrl` (the SP's redirect), for `who`, with `tweaks`. */
  const respond = async (authnUrl: string, who: SamlUser, tweaks: Tweaks = {}) => {
    const u = new URL(authnUrl);
    const query = Object.fromEntries(u.searchParams);
    // The SP's entity id is in the request; its metadata is at that URL.
    const inflated = inflateRawSync(Buffer.from(query.SAMLRequest ?? '', 'base64')).toString('utf8');
    const issuer = /<saml:Issuer[^>]*>([^<]+)</.exec(inflated)?.[1] ?? '';
    const sp = await spFor(issuer, tweaks);
    const parsed = await idp.parseLoginRequest(sp, 'redirect', { query, octetString: '' });
    const requestId = (parsed.extract as { request: { id: string } }).request.id;
    if (!requestId) throw new Error(`no request id in ${JSON.stringify(parsed.extract)}`);
    const issued = tweaks.issuedAt ?? opts.now();
    // The ACS the SP's metadata names for the HTTP-POST binding.
    const acs =
      /Binding="urn:oasis:names:tc:SAML:2\.0:bindings:HTTP-POST" Location="([^"]+)"/.exec(
        sps.get(issuer) ?? '',
      )?.[1] ?? '';
    const groups = (who.groups ?? [])
      .map((g) => `<saml:AttributeValue xsi:type="xs:string">${esc(g)}</saml:AttributeValue>`)
      .join('');
    const values = {
      ID: `_${randomUUID()}`,
      AssertionID: `_${randomUUID()}`,
      IssueInstant: new Date(issued).toISOString(),
      NotBefore: new Date(issued).toISOString(),
      NotOnOrAfter: new Date(issued + (tweaks.validMs ?? 5 * 60_000)).toISOString(),
      Destination: acs,
      Recipient: acs,
      InResponseTo: requestId,
      Issuer: `${base}/metadata`,
      Audience: tweaks.audience ?? issuer,
      NameIDFormat: EMAIL,
      NameID: who.email,
    };
    for (const [k, v] of Object.entries(values)) if (typeof v !== 'string') throw new Error(`IdP: no ${k}`);
    const ctx = (await idp.createLoginResponse(
      sp,
      parsed as unknown as Parameters<typeof idp.createLoginResponse>[1],
      'post',
      { email: who.email },
      {
        customTagReplacement: () => {
          let xml = TEMPLATE.replace(
            '{Groups}',
            groups ? `<saml:Attribute Name="groups">${groups}</saml:Attribute>` : '',
          );
          for (const [k, v] of Object.entries(values)) xml = xml.replaceAll(`{${k}}`, esc(v));
          return { id: values.ID, context: xml };
        },
      },
    )) as { context: string; entityEndpoint: string };
    let xml = Buffer.from(ctx.context, 'base64').toString('utf8');
    if (tweaks.tamperEmail) xml = xml.replaceAll(`>${esc(who.email)}<`, `>${esc(tweaks.tamperEmail)}<`);
    if (tweaks.stripSignatures) xml = xml.replace(/<(ds:)?Signature[\s\S]*?<\/(ds:)?Signature>/g, '');
    return {
      SAMLResponse: Buffer.from(xml).toString('base64'),
      RelayState: query.RelayState ?? '',
      acs,
      xml,
      requestId,
      assertionId: values.AssertionID,
    };
  };

  server.on('request', async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', base);
      if (url.pathname === '/metadata') {
        res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' });
        return res.end(metadata);
      }
      if (url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(
          '<!doctype html><html><head><title>Test IdP</title></head><body><p>Test IdP</p></body></html>',
        );
      }
      if (url.pathname === '/sso') {
        const r = await respond(url.toString(), user);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(`<!doctype html><html><head><title>Test IdP</title></head><body>
<p>Test IdP: signing in ${esc(user.email)}…</p>
<form id="f" method="post" action="${esc(r.acs)}">
<input type="hidden" name="SAMLResponse" value="${esc(r.SAMLResponse)}">
<input type="hidden" name="RelayState" value="${esc(r.RelayState)}">
<noscript><button>Continue</button></noscript></form>
<script>document.getElementById('f').submit()</script></body></html>`);
      }
      res.writeHead(404).end();
    } catch (e) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String((e as Error).stack));
    }
  });

  return {
    base,
    metadataUrl: `${base}/metadata`,
    metadata,
    cert: pem.cert,
    respond,
    signInAs(next: SamlUser) {
      user = next;
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
};
