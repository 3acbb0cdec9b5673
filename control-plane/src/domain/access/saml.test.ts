import { describe, expect, it } from 'vitest';
import { SAML_ERRORS as SHOWN } from '../../../web/src/pages/saml-errors.js';
import { SAML_ERRORS, serviceProviderFor, serviceProviderMetadata } from './saml.js';

describe('SAML service provider', () => {
  it('the sign-in page shows the same words for every refusal code the ACS sends', () => {
    expect(SHOWN).toEqual(SAML_ERRORS);
  });

  it('is the workspace URL: entity id at /auth/saml/metadata, ACS at /auth/saml/acs; signed assertions wanted', () => {
    const sp = serviceProviderFor('https://acme.lookout.example');
    expect(sp).toEqual({
      entity_id: 'https://acme.lookout.example/auth/saml/metadata',
      acs_url: 'https://acme.lookout.example/auth/saml/acs',
    });
    const xml = serviceProviderMetadata(sp);
    expect(xml).toContain('entityID="https://acme.lookout.example/auth/saml/metadata"');
    expect(xml).toContain('WantAssertionsSigned="true"');
    expect(xml).toContain('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
  });
});
