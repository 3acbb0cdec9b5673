import { X509Certificate } from 'node:crypto';
import { createRequire } from 'node:module';

/** The few DOM parts read here (xmldom's own types would pull the browser's DOM into the build). */
interface XmlElement {
  localName: string;
  namespaceURI: string | null;
  textContent: string | null;
  getAttribute(name: string): string | null;
  getElementsByTagNameNS(ns: string, name: string): { length: number; [i: number]: XmlElement };
}
interface XmlDocument {
  documentElement: XmlElement | null;
  getElementsByTagNameNS(ns: string, name: string): { length: number; [i: number]: XmlElement };
}
type ErrorHandler = { warning(m: string): void; error(m: string): void; fatalError(m: string): void };
const { DOMParser } = createRequire(import.meta.url)('@xmldom/xmldom') as {
  DOMParser: new (opts: {
    errorHandler: ErrorHandler;
  }) => { parseFromString(xml: string, type: string): XmlDocument };
};

/**
 * What Lookout takes from a SAML IdP's metadata (SAML 2.0 metadata, `md:EntityDescriptor`): its entity
 * id (the `Issuer` its assertions must carry), the URL its `SingleSignOnService` takes AuthnRequests at
 * by the HTTP-Redirect binding, and the certificates of its signing keys (`KeyDescriptor` with
 * `use="signing"` or no `use`). Parsed by xmldom, which resolves no external entity (no XXE), at most
 * METADATA_MAX_BYTES.
 */
export interface IdpMetadata {
  entity_id: string;
  sso_url: string;
  /** PEM certificates. */
  certs: string[];
}

export const METADATA_MAX_BYTES = 256 * 1024;
const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const MAX_CERTS = 10;

const pem = (b64: string) => {
  const body = b64.replace(/\s+/g, '');
  const lines = body.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
};

/** The IdP's metadata, or the sentence saying what is wrong with it. */
export const parseIdpMetadata = (xml: string): IdpMetadata | { error: string } => {
  if (Buffer.byteLength(xml) > METADATA_MAX_BYTES)
    return { error: `is larger than ${METADATA_MAX_BYTES / 1024} KiB` };
  // A DOCTYPE can declare entities (billion laughs): metadata never needs one.
  if (/<!DOCTYPE/i.test(xml)) return { error: 'must not contain a DOCTYPE' };
  let failed: string | undefined;
  const doc = new DOMParser({
    errorHandler: {
      warning: () => {},
      error: (m: string) => {
        failed ??= m;
      },
      fatalError: (m: string) => {
        failed ??= m;
      },
    },
  }).parseFromString(xml, 'text/xml');
  if (failed || !doc?.documentElement) return { error: 'is not well-formed XML' };
  const root = doc.documentElement;
  const entity =
    root.localName === 'EntityDescriptor' && root.namespaceURI === MD
      ? root
      : doc.getElementsByTagNameNS(MD, 'EntityDescriptor')[0];
  if (!entity) return { error: 'is not SAML 2.0 metadata (no md:EntityDescriptor)' };
  const entityId = entity.getAttribute('entityID') ?? '';
  const idp = entity.getElementsByTagNameNS(MD, 'IDPSSODescriptor')[0];
  if (!idp) return { error: 'describes no identity provider (no md:IDPSSODescriptor)' };
  if (!entityId) return { error: 'has no entityID' };

  let ssoUrl = '';
  const services = idp.getElementsByTagNameNS(MD, 'SingleSignOnService');
  for (let i = 0; i < services.length; i++) {
    const s = services[i]!;
    if (s.getAttribute('Binding') === REDIRECT) {
      ssoUrl = s.getAttribute('Location') ?? '';
      break;
    }
  }
  if (!ssoUrl) return { error: 'has no SingleSignOnService with the HTTP-Redirect binding' };
  try {
    const u = new URL(ssoUrl);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('scheme');
  } catch {
    return { error: 'has a SingleSignOnService Location that is not an http(s) URL' };
  }

  const certs: string[] = [];
  const keys = idp.getElementsByTagNameNS(MD, 'KeyDescriptor');
  for (let i = 0; i < keys.length && certs.length < MAX_CERTS; i++) {
    const k = keys[i]!;
    const use = k.getAttribute('use');
    if (use && use !== 'signing') continue;
    const x509 = k.getElementsByTagNameNS(DS, 'X509Certificate');
    for (let j = 0; j < x509.length && certs.length < MAX_CERTS; j++) {
      const text = pem(x509[j]!.textContent ?? '');
      try {
        new X509Certificate(text);
      } catch {
        return { error: 'has a signing certificate that is not a valid X.509 certificate' };
      }
      certs.push(text);
    }
  }
  if (certs.length === 0)
    return { error: 'has no signing certificate (md:KeyDescriptor with ds:X509Certificate)' };
  return { entity_id: entityId, sso_url: ssoUrl, certs };
};

/** Where a workspace's IdP metadata comes from (its SSO settings' `saml` part). */
export type MetadataSource = { idp_metadata_url: string } | { idp_metadata_xml: string };

export interface MetadataCacheOptions {
  /** Fetches the metadata at a URL (with the deployment's limits and SSRF guard); throws on failure. */
  fetchXml(url: string): Promise<string>;
  now(): number;
  /** How long fetched metadata is used before it is fetched again. */
  ttlMs?: number;
  /** How long a failed fetch is answered from the cache (so a sign-in storm does not hammer the IdP). */
  failureTtlMs?: number;
  /** Entries kept, the oldest dropped first. */
  max?: number;
}

/**
 * IdP metadata by XML (parsed each time: small and quick) or by URL, fetched and parsed at most once
 * per `ttlMs` per URL, in a cache of at most `max` URLs (one per replica: nothing another replica
 * needs). Answers the metadata or `{ error }` naming what failed.
 */
export const createMetadataCache = (opts: MetadataCacheOptions) => {
  const ttl = opts.ttlMs ?? 10 * 60_000;
  const failureTtl = opts.failureTtlMs ?? 30_000;
  const max = opts.max ?? 500;
  const cache = new Map<string, { until: number; value: IdpMetadata | { error: string } }>();
  const load = async (source: MetadataSource): Promise<IdpMetadata | { error: string }> => {
    if ('idp_metadata_xml' in source) return parseIdpMetadata(source.idp_metadata_xml);
    const url = source.idp_metadata_url;
    const hit = cache.get(url);
    if (hit && hit.until > opts.now()) return hit.value;
    let value: IdpMetadata | { error: string };
    try {
      value = parseIdpMetadata(await opts.fetchXml(url));
    } catch (e) {
      value = { error: `could not be fetched (${(e as Error).message})` };
    }
    cache.delete(url);
    while (cache.size >= max) cache.delete(cache.keys().next().value as string);
    cache.set(url, { until: opts.now() + ('error' in value ? failureTtl : ttl), value });
    return value;
  };
  /** Forgets a URL (the admin saved the settings: the next sign-in fetches it again). */
  const forget = (url: string) => cache.delete(url);
  return { load, forget, size: () => cache.size };
};
export type MetadataCache = ReturnType<typeof createMetadataCache>;
