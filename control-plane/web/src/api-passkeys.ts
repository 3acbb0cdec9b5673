/**
 * The web app's passkey calls: the server's WebAuthn options handed to the browser through
 * @simplewebauthn/browser (navigator.credentials), and its answer sent back. Types are the API's own.
 */
import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from '@simplewebauthn/browser';
import type { Schemas } from '../../src/api-client/client.js';
import { ok } from '../../src/api-client/client.js';
import { client, remember } from './api.js';

export type Passkey = Schemas['Passkey'];

/** What the browser said when it made or used no passkey (cancelled, timed out, not supported). */
export class PasskeyCancelled extends Error {}

const browserStep = async <T>(step: () => Promise<T>): Promise<T> => {
  try {
    return await step();
  } catch (e) {
    if (e instanceof WebAuthnError || (e instanceof Error && e.name === 'NotAllowedError'))
      throw new PasskeyCancelled(
        'No passkey was used: it was cancelled or timed out, or this device has no passkey for this workspace.',
      );
    throw e;
  }
};

/** A passkey assertion for the server's fresh request options. */
const assertion = async () => {
  const options = await ok(client.POST('/session/passkey/options'));
  const credential = await browserStep(() =>
    startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON }),
  );
  return { challenge: options.challenge, credential };
};

export const passkeysApi = {
  list: () => ok(client.GET('/me/passkeys')),
  /** Asks the browser for a new passkey and registers it under `name`. */
  add: async (name: string) => {
    const options = await ok(client.POST('/me/passkeys/options'));
    const credential = await browserStep(() =>
      startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON }),
    );
    return ok(client.POST('/me/passkeys', { body: { name, credential: credential as never } }));
  },
  remove: (id: string) => ok(client.DELETE('/me/passkeys/{id}', { params: { path: { id } } })),
  /** Passwordless: the browser offers the passkeys it has for this workspace. */
  signIn: async () => {
    const { challenge, credential } = await assertion();
    return ok(client.POST('/session/passkey', { body: { challenge, credential: credential as never } })).then(
      remember,
    );
  },
  /** The second step after a password, with a passkey. */
  secondFactor: async (challenge: string) => {
    const { credential } = await assertion();
    return ok(
      client.POST('/session/second-factor', {
        body: { challenge, method: 'passkey', credential: credential as unknown as Record<string, unknown> },
      }),
    ).then(remember);
  },
};
