import { AppError } from '@lookout/shared';
import type { User, Workspace } from '../types.js';

/**
 * Passkeys (WebAuthn) as a second factor and as a passwordless sign-in. This placeholder only gives the
 * second-factor step (domain/access/second-factor.ts) the function it calls; the passkeys work replaces
 * this file with the real assertion check (and may widen the argument with the ports it needs).
 */
export interface PasskeyAssertion {
  store: unknown;
  workspace: Workspace;
  user: User;
  /** The client's PublicKeyCredential as JSON (@simplewebauthn/browser's startAuthentication). */
  credential: Record<string, unknown>;
  /** The sign-in challenge the assertion answers (the token POST /session returned). */
  challenge: string;
  now: Date;
}

/** True when the credential is a valid assertion of one of the user's passkeys for this challenge. */
export const verifyPasskeyAssertion = async (_input: PasskeyAssertion): Promise<boolean> => {
  throw new AppError(
    'unavailable',
    'Passkeys are not available yet: use your authenticator app or a recovery code.',
  );
};
