/** Why a SAML sign-in sent the browser back to `/sign-in?error=…` (domain/access/saml.ts has the same words). */
export const SAML_ERRORS: Record<string, string> = {
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
};
