import { describe, expect, it } from 'vitest';
import { selfSigned } from '../../../../test/support/certs.js';
import { createMetadataCache, METADATA_MAX_BYTES, parseIdpMetadata } from './saml-metadata.js';

const cert = selfSigned(['idp.test']).cert;
const body = cert.replace(/-----[A-Z ]+-----|\s/g, '');
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

const metadata = (o: { key?: string; sso?: string; use?: string } = {}) =>
  `<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="https://idp.example/meta">
<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
${o.key ?? `<md:KeyDescriptor${o.use ? ` use="${o.use}"` : ''}><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${body}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`}
${o.sso ?? `<md:SingleSignOnService Binding="${REDIRECT}" Location="https://idp.example/sso"/>`}
</md:IDPSSODescriptor></md:EntityDescriptor>`;

describe('IdP metadata', () => {
  it('gives the entity id, the HTTP-Redirect SSO URL and the signing certificates as PEM', () => {
    const m = parseIdpMetadata(metadata());
    expect(m).toEqual({
      entity_id: 'https://idp.example/meta',
      sso_url: 'https://idp.example/sso',
      certs: [expect.any(String)],
    });
    if ('error' in m) throw new Error(m.error);
    expect(m.certs[0]!.replace(/-----[A-Z ]+-----|\s/g, '')).toBe(body);
    expect(parseIdpMetadata(metadata({ use: 'signing' }))).not.toHaveProperty('error');
  });

  it('names what is wrong: not XML, a DOCTYPE, no IdP, no signing certificate, no redirect SSO URL, too large', () => {
    expect(parseIdpMetadata('<a')).toEqual({ error: 'is not well-formed XML' });
    expect(parseIdpMetadata(`<!DOCTYPE x [<!ENTITY a "b">]>${metadata()}`)).toEqual({
      error: 'must not contain a DOCTYPE',
    });
    expect(parseIdpMetadata('<x/>')).toEqual({ error: 'is not SAML 2.0 metadata (no md:EntityDescriptor)' });
    expect(parseIdpMetadata(metadata({ key: '' }))).toEqual({
      error: 'has no signing certificate (md:KeyDescriptor with ds:X509Certificate)',
    });
    // An encryption key is not a signing key.
    expect(parseIdpMetadata(metadata({ use: 'encryption' }))).toHaveProperty('error');
    expect(
      parseIdpMetadata(
        metadata({
          key: '<md:KeyDescriptor><ds:KeyInfo><ds:X509Data><ds:X509Certificate>bm90IGEgY2VydA==</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>',
        }),
      ),
    ).toEqual({ error: 'has a signing certificate that is not a valid X.509 certificate' });
    expect(
      parseIdpMetadata(
        metadata({
          sso: '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://x/sso"/>',
        }),
      ),
    ).toEqual({ error: 'has no SingleSignOnService with the HTTP-Redirect binding' });
    expect(
      parseIdpMetadata(
        metadata({ sso: `<md:SingleSignOnService Binding="${REDIRECT}" Location="javascript:alert(1)"/>` }),
      ),
    ).toHaveProperty('error');
    expect(parseIdpMetadata(`${metadata()}${' '.repeat(METADATA_MAX_BYTES)}`)).toHaveProperty('error');
  });
});

describe('metadata cache', () => {
  it('fetches a URL once per ttl, failures for a shorter time, and keeps at most `max` URLs', async () => {
    let now = 0;
    const fetched: string[] = [];
    const cache = createMetadataCache({
      now: () => now,
      ttlMs: 1000,
      failureTtlMs: 100,
      max: 2,
      fetchXml: async (url) => {
        fetched.push(url);
        if (url.includes('down')) throw new Error('the server answered 503');
        return metadata();
      },
    });
    expect(await cache.load({ idp_metadata_url: 'https://a' })).not.toHaveProperty('error');
    await cache.load({ idp_metadata_url: 'https://a' });
    expect(fetched).toEqual(['https://a']);
    expect(await cache.load({ idp_metadata_url: 'https://down' })).toEqual({
      error: 'could not be fetched (the server answered 503)',
    });
    await cache.load({ idp_metadata_url: 'https://down' });
    now = 101;
    await cache.load({ idp_metadata_url: 'https://down' });
    expect(fetched.filter((u) => u === 'https://down')).toHaveLength(2);
    await cache.load({ idp_metadata_url: 'https://c' });
    expect(cache.size()).toBe(2);
    now = 1001;
    await cache.load({ idp_metadata_url: 'https://c' });
    expect(fetched.filter((u) => u === 'https://c')).toHaveLength(1);
    // Pasted XML is parsed, never fetched.
    expect(await cache.load({ idp_metadata_xml: metadata() })).not.toHaveProperty('error');
    expect(fetched).toHaveLength(4);
  });
});
