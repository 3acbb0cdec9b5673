import { randomBytes } from 'node:crypto';
import { generateServiceProviderMetadata, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import type { IdpMetadata } from './saml-metadata.js';
import type { SamlReplayStore } from './saml-replay-store.js';

/**
 * Lookout as a SAML 2.0 service provider, one per workspace (library: @node-saml/node-saml, which
 * checks the XML signatures, the audience and the issuer). Its entity id is the workspace URL +
 * `/auth/saml/metadata` and its assertion consumer service the workspace URL + `/auth/saml/acs`
 * (HTTP-POST binding); AuthnRequests go out by the HTTP-Redirect binding.
 *
 * What this module adds to the library's checks, each with a test in test/e2e/saml-sign-in.test.ts:
 * - every assertion must be signed by a certificate of the IdP's metadata (`wantAssertionsSigned`; a
 *   signed response around an unsigned assertion is not enough);
 * - time is the injected clock's (the library reads the system clock, so its own timing checks are
 *   off): `NotBefore`/`NotOnOrAfter` of the conditions and of the bearer subject confirmation, and
 *   `IssueInstant` no older than MAX_ASSERTION_AGE_MS, each with SKEW_MS of tolerance;
 * - `InResponseTo` (on the response and in the signed subject confirmation) must be the id of the
 *   AuthnRequest this browser was sent with (kept in its short-lived cookie, http/sso/saml-endpoints.ts);
 * - the assertion id is recorded (SamlReplayStore, insert-if-absent) until the assertion's own expiry:
 *   a second use of it, on any replica, is refused.
 */
export const SKEW_MS = 60_000;
export const MAX_ASSERTION_AGE_MS = 10 * 60_000;
/** How long a started sign-in may take at the IdP. */
export const PENDING_MS = 10 * 60_000;
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const MAX_GROUPS = 200;

export interface ServiceProvider {
  entity_id: string;
  acs_url: string;
}

export const serviceProviderFor = (workspaceUrl: string): ServiceProvider => ({
  entity_id: `${workspaceUrl}/auth/saml/metadata`,
  acs_url: `${workspaceUrl}/auth/saml/acs`,
});

/**
 * Why a SAML sign-in was refused: the code in `/sign-in?error=…` and the words the page shows
 * (web/src/pages/saml-errors.ts holds the same words).
 */
export const SAML_ERRORS = {
  saml_invalid_response:
    'The identity provider’s answer could not be read. Try again, or ask an admin of the workspace.',
  saml_bad_signature:
    'The identity provider’s answer is not signed by the identity provider set up for this workspace.',
  saml_wrong_audience: 'The identity provider’s answer is meant for another service.',
  saml_expired: 'The identity provider’s answer has expired. Sign in again.',
  saml_not_yet_valid:
    'The identity provider’s answer is not valid yet: a clock is wrong. Try again in a minute.',
  saml_unsolicited:
    'This answer does not belong to the sign-in started in this browser. Start again with “Sign in with SSO”.',
  saml_no_pending_sign_in:
    'No sign-in was started in this browser, or it took too long. Start again with “Sign in with SSO”.',
  saml_replayed: 'This answer was used already. Start again with “Sign in with SSO”.',
  saml_no_email: 'The identity provider did not give an email address for your account.',
  saml_idp_error: 'The identity provider did not sign you in.',
  saml_metadata_unavailable:
    'The identity provider’s metadata could not be read. Ask an admin of the workspace.',
} as const;

export type SamlFailure = keyof typeof SAML_ERRORS;

export class SamlError extends Error {
  constructor(
    readonly code: SamlFailure,
    detail?: string,
  ) {
    super(detail ? `${SAML_ERRORS[code]} (${detail})` : SAML_ERRORS[code]);
  }
}

const samlFor = (sp: ServiceProvider, idp: IdpMetadata, requestId = '') =>
  new SAML({
    issuer: sp.entity_id,
    callbackUrl: sp.acs_url,
    entryPoint: idp.sso_url,
    idpCert: idp.certs,
    idpIssuer: idp.entity_id,
    audience: sp.entity_id,
    wantAssertionsSigned: true,
    // The assertion's own signature is required above; many IdPs do not sign the response around it.
    wantAuthnResponseSigned: false,
    // Timing and InResponseTo are checked below, with the injected clock and this browser's request.
    acceptedClockSkewMs: -1,
    validateInResponseTo: ValidateInResponseTo.never,
    identifierFormat: EMAIL_FORMAT,
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
    generateUniqueId: () => requestId,
  });

/** The SP metadata XML an admin gives their IdP. */
export const serviceProviderMetadata = (sp: ServiceProvider) =>
  generateServiceProviderMetadata({
    issuer: sp.entity_id,
    callbackUrl: sp.acs_url,
    identifierFormat: EMAIL_FORMAT,
    wantAssertionsSigned: true,
  });

/** A new AuthnRequest: the URL to send the browser to, and what its cookie must hold to finish. */
export const startSamlSignIn = async (sp: ServiceProvider, idp: IdpMetadata) => {
  const requestId = `_${randomBytes(20).toString('hex')}`;
  const relayState = randomBytes(20).toString('base64url');
  const url = await samlFor(sp, idp, requestId).getAuthorizeUrlAsync(relayState, undefined, {});
  return { url, requestId, relayState };
};

type Xml = { $?: Record<string, string>; _?: string } & Record<string, unknown>;
const first = (x: unknown): Xml | undefined => (Array.isArray(x) ? (x[0] as Xml) : undefined);
const time = (v: string | undefined, what: string) => {
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw new SamlError('saml_invalid_response', `The assertion's ${what} is not a time.`);
  return t;
};

const classify = (e: Error): SamlError => {
  if (e instanceof SamlError) return e;
  const m = e.message;
  if (/audience/i.test(m)) return new SamlError('saml_wrong_audience', m);
  if (/signature|issuer/i.test(m)) return new SamlError('saml_bad_signature', m);
  if (/status/i.test(m) || e.name === 'SamlStatusError') return new SamlError('saml_idp_error', m);
  return new SamlError('saml_invalid_response', m);
};

const attribute = (attrs: Record<string, unknown>, names: string[]): string[] => {
  for (const n of names) {
    const v = attrs[n];
    if (v === undefined) continue;
    const list = Array.isArray(v) ? v : [v];
    return list.filter((x): x is string => typeof x === 'string');
  }
  return [];
};

export interface SamlIdentity {
  email: string;
  email_verified: boolean;
  groups: string[];
  via: 'saml';
  subject: string;
}

/**
 * Checks a POSTed `SAMLResponse` (base64) for the sign-in this browser started (`requestId`), at `now`,
 * and records its assertion as used. The identity, or a SamlError naming what failed.
 */
export const finishSamlSignIn = async (
  store: SamlReplayStore,
  input: {
    workspaceId: string;
    sp: ServiceProvider;
    idp: IdpMetadata;
    samlResponse: string;
    requestId: string;
    now: Date;
  },
): Promise<SamlIdentity> => {
  const { sp, idp, now } = input;
  let profile: Awaited<ReturnType<SAML['validatePostResponseAsync']>>['profile'];
  try {
    ({ profile } = await samlFor(sp, idp).validatePostResponseAsync({ SAMLResponse: input.samlResponse }));
  } catch (e) {
    throw classify(e as Error);
  }
  if (!profile) throw new SamlError('saml_invalid_response', 'The response holds no assertion.');
  const assertion = (profile.getAssertion?.() as { Assertion?: Xml } | undefined)?.Assertion;
  const id = assertion?.$?.ID;
  if (!assertion || !id) throw new SamlError('saml_invalid_response', 'The assertion has no ID.');

  // Timing, by the injected clock.
  const t = now.getTime();
  const conditions = first(assertion.Conditions)?.$ ?? {};
  const confirmation = (assertion.Subject as Xml[] | undefined)?.[0]?.SubjectConfirmation as
    | Xml[]
    | undefined;
  const bearer = confirmation?.find((c) => c.$?.Method === 'urn:oasis:names:tc:SAML:2.0:cm:bearer');
  const data = first(bearer?.SubjectConfirmationData)?.$;
  if (!data)
    throw new SamlError('saml_invalid_response', 'The assertion has no bearer subject confirmation.');
  const issued = time(assertion.$?.IssueInstant, 'IssueInstant');
  const notBefore = [time(conditions.NotBefore, 'NotBefore'), time(data.NotBefore, 'NotBefore')];
  const notAfter = [
    time(conditions.NotOnOrAfter, 'NotOnOrAfter'),
    time(data.NotOnOrAfter, 'NotOnOrAfter'),
    issued === undefined ? undefined : issued + MAX_ASSERTION_AGE_MS,
  ].filter((x): x is number => x !== undefined);
  if (data.NotOnOrAfter === undefined || issued === undefined)
    throw new SamlError('saml_invalid_response', 'The assertion has no IssueInstant or no NotOnOrAfter.');
  if (notBefore.some((nb) => nb !== undefined && t + SKEW_MS < nb))
    throw new SamlError('saml_not_yet_valid', 'The assertion is not valid yet: check the clocks.');
  const expiry = Math.min(...notAfter);
  if (t - SKEW_MS >= expiry) throw new SamlError('saml_expired', 'The assertion has expired; sign in again.');
  if (data.Recipient !== undefined && data.Recipient !== sp.acs_url)
    throw new SamlError('saml_wrong_audience', 'The assertion is meant for another address.');

  // The answer to this browser's own request: an unsolicited or another browser's response is refused.
  if (!input.requestId || profile.inResponseTo !== input.requestId || data.InResponseTo !== input.requestId)
    throw new SamlError(
      'saml_unsolicited',
      'This response does not answer the sign-in started in this browser.',
    );

  const nameFormat = profile.nameIDFormat;
  const attrs = (profile.attributes ?? {}) as Record<string, unknown>;
  const email =
    nameFormat === EMAIL_FORMAT && profile.nameID
      ? profile.nameID
      : attribute(attrs, [
          'email',
          'mail',
          'urn:oid:0.9.2342.19200300.100.1.3',
          'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
        ])[0];
  if (!email || email.length > 320 || !email.includes('@'))
    throw new SamlError('saml_no_email', 'Your identity provider sent no email address.');
  const groups = attribute(attrs, [
    'groups',
    'memberOf',
    'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
  ])
    .filter((g) => g.length <= 256)
    .slice(0, MAX_GROUPS);

  // Last, once everything else holds: used once, on any replica.
  const fresh = await store.rememberSamlAssertion({
    workspace_id: input.workspaceId,
    issuer: idp.entity_id,
    assertion_id: id.slice(0, 256),
    expires_at: new Date(expiry + SKEW_MS),
  });
  if (!fresh) throw new SamlError('saml_replayed', 'This response was used already; sign in again.');
  return {
    email: email.trim().toLowerCase(),
    email_verified: true,
    groups,
    via: 'saml',
    subject: profile.nameID,
  };
};
