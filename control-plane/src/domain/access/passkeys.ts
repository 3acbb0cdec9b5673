import { AppError, hashSecret, newId } from '@lookout/shared';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { z } from 'zod';
import type { TenancyStore } from '../tenancy/tenancy-store.js';
import type { User, Workspace } from '../types.js';
import { nameText, parseOrThrow } from '../validation.js';
import type { Passkey, PasskeyStore } from './passkey-store.js';
import { finishSignIn, type SessionDeps, type SessionLifetimes } from './sessions.js';
import { knownDevice } from './sign-in-guard.js';
import type { SignInStore } from './sign-in-store.js';

/** At most this many passkeys per user. */
export const PASSKEYS_PER_USER = 10;
/** A challenge handed out is good for this long, and for one answer. */
export const PASSKEY_CHALLENGE_MS = 5 * 60_000;

/**
 * Who the passkeys are for: the workspace's own host and URL (`workspaceBaseUrl`, from configuration,
 * never from a request's Host). A passkey made for one workspace is bound to its host by the
 * authenticator and cannot answer for another.
 */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export const passkeyRelyingParty = (workspaceUrl: string, name: string): RelyingParty => {
  const url = new URL(workspaceUrl);
  return { id: url.hostname, origin: url.origin, name };
};

/** The relying party of a workspace: `workspaceUrl` is the app's workspaceUrl (public-url.ts). */
export const workspaceRelyingParty = (workspaceUrl: (subdomain: string) => string, ws: Workspace) =>
  passkeyRelyingParty(workspaceUrl(ws.subdomain), `Lookout · ${ws.name}`);

export const PASSKEY_MESSAGES = {
  refused: 'The passkey was not accepted; try again.',
  limit: `You have ${PASSKEYS_PER_USER} passkeys, the most allowed; remove one first.`,
  taken: 'This passkey is registered already.',
  challenge: 'The passkey request has expired or was used already; try again.',
} as const;

const b64 = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*={0,2}$/, 'must be base64url');

/** A PublicKeyCredential as @simplewebauthn/browser serialises it (unknown fields dropped). */
const credentialShape = z.object({
  id: b64.max(1_024),
  rawId: b64.max(1_024),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.object({}).optional().default({}),
  response: z.object({
    clientDataJSON: b64.max(4_096),
    attestationObject: b64.optional(),
    authenticatorData: b64.max(4_096).optional(),
    signature: b64.max(2_048).optional(),
    userHandle: b64.max(512).nullish(),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
});

export const addPasskeyInput = z.strictObject({
  name: nameText(100),
  credential: credentialShape,
});

export const passkeySignInInput = z.strictObject({
  challenge: z.string().min(1).max(200),
  credential: credentialShape,
});

const credentialInput = z.strictObject({ credential: credentialShape });

/** The challenge the browser signed, read from the credential's clientDataJSON (null when unreadable). */
const signedChallenge = (clientDataJSON: string): string | null => {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof data.challenge === 'string' && data.challenge.length <= 200 ? data.challenge : null;
  } catch {
    return null;
  }
};

const refused = () => new AppError('unauthorized', PASSKEY_MESSAGES.refused);

const newChallenge = async (
  store: PasskeyStore,
  workspaceId: string,
  userId: string | null,
  purpose: 'register' | 'sign_in',
  challenge: string,
  now: Date,
) =>
  store.insertPasskeyChallenge({
    id: hashSecret(challenge),
    workspace_id: workspaceId,
    user_id: userId,
    purpose,
    expires_at: new Date(now.getTime() + PASSKEY_CHALLENGE_MS),
  });

/** WebAuthn creation options for the user to add a passkey (a discoverable one, so it also signs in alone). */
export const passkeyRegistrationOptions = async (
  store: PasskeyStore,
  user: User,
  rp: RelyingParty,
  now: Date,
) => {
  const existing = await store.listPasskeys(user.workspace_id, user.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    timeout: PASSKEY_CHALLENGE_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await newChallenge(store, user.workspace_id, user.id, 'register', options.challenge, now);
  return options;
};

/** Verifies a new credential against the user's registration challenge (taken once) and stores it. */
export const addPasskey = async (
  store: PasskeyStore,
  user: User,
  input: unknown,
  rp: RelyingParty,
  now: Date,
): Promise<Passkey> => {
  const { name, credential } = parseOrThrow(addPasskeyInput, input);
  const fail = (message: string) =>
    new AppError('validation_failed', 'The request has invalid fields.', [{ field: 'credential', message }]);
  if (!credential.response.attestationObject)
    throw fail('must be a new credential (navigator.credentials.create)');
  const challenge = signedChallenge(credential.response.clientDataJSON);
  if (!challenge) throw fail(PASSKEY_MESSAGES.challenge);
  const taken = await store.takePasskeyChallenge(user.workspace_id, hashSecret(challenge), now);
  if (taken?.purpose !== 'register' || taken.user_id !== user.id) throw fail(PASSKEY_MESSAGES.challenge);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: {
        ...credential,
        response: { ...credential.response, attestationObject: credential.response.attestationObject },
      },
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch {
    throw fail(PASSKEY_MESSAGES.refused);
  }
  if (!verified.verified) throw fail(PASSKEY_MESSAGES.refused);
  const info = verified.registrationInfo.credential;
  const passkey: Passkey = {
    id: newId(),
    workspace_id: user.workspace_id,
    user_id: user.id,
    credential_id: info.id,
    public_key: Buffer.from(info.publicKey).toString('base64url'),
    counter: info.counter,
    transports: (info.transports ?? credential.response.transports ?? []).slice(0, 10),
    name,
    created_at: now,
    last_used_at: null,
  };
  const r = await store.insertPasskey(passkey, { maxPerUser: PASSKEYS_PER_USER });
  if (r === 'limit_reached') throw fail(PASSKEY_MESSAGES.limit);
  if (r === 'taken') throw fail(PASSKEY_MESSAGES.taken);
  return passkey;
};

/**
 * WebAuthn request options for a sign-in with a passkey: passwordless (any discoverable passkey of the
 * workspace; user verification required) or as the second factor after a password. `challenge` is the
 * value `POST /session/passkey` takes back.
 */
export const passkeySignInOptions = async (
  store: PasskeyStore,
  workspace: Workspace,
  rp: RelyingParty,
  now: Date,
) => {
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    timeout: PASSKEY_CHALLENGE_MS,
    userVerification: 'required',
  });
  await newChallenge(store, workspace.id, null, 'sign_in', options.challenge, now);
  return { ...options, challenge: options.challenge };
};

/**
 * Verifies a passkey assertion and returns its user. `user`: the user who gave their password (second
 * factor: the passkey must be theirs; user verification not required, presence is); null: a
 * passwordless sign-in (the passkey's own user, who must still exist; user verification required).
 * `challenge`: the one the client was given by `passkeySignInOptions`, or null to take the one the
 * credential signed (the second-factor step, whose own challenge is the sign-in's). The challenge is
 * taken once (a replayed assertion finds none); a counter that does not move forward (when the
 * authenticator counts) is refused; the counter moves by compare-and-set, so of two sign-ins racing with
 * one assertion only one wins. Every refusal is the same 401; bad shapes are a 422 naming the field.
 */
export const verifyPasskeyAssertion = async (
  store: PasskeyStore & Pick<TenancyStore, 'getUser'>,
  workspace: Workspace,
  user: User | null,
  challenge: string | null,
  credentialJson: unknown,
  rp: RelyingParty,
  now: Date,
): Promise<User> => {
  const { credential } = parseOrThrow(credentialInput, { credential: credentialJson });
  const { authenticatorData, signature } = credential.response;
  if (!authenticatorData || !signature)
    throw new AppError('validation_failed', 'The request has invalid fields.', [
      { field: 'credential', message: 'must be an assertion (navigator.credentials.get)' },
    ]);
  const signed = signedChallenge(credential.response.clientDataJSON);
  if (!signed || (challenge !== null && signed !== challenge)) throw refused();
  const taken = await store.takePasskeyChallenge(workspace.id, hashSecret(signed), now);
  if (taken?.purpose !== 'sign_in') throw new AppError('unauthorized', PASSKEY_MESSAGES.challenge);
  const passkey = await store.findPasskeyByCredentialId(workspace.id, credential.id);
  if (!passkey || (user && passkey.user_id !== user.id)) throw refused();
  const owner = user ?? (await store.getUser(workspace.id, passkey.user_id));
  if (!owner || owner.workspace_id !== workspace.id) throw refused();
  const handle = credential.response.userHandle;
  if (handle && Buffer.from(handle, 'base64url').toString('utf8') !== owner.id) throw refused();
  let newCounter: number;
  try {
    const v = await verifyAuthenticationResponse({
      response: {
        ...credential,
        response: {
          ...credential.response,
          authenticatorData,
          signature,
          userHandle: credential.response.userHandle ?? undefined,
        },
      },
      expectedChallenge: signed,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
        counter: passkey.counter,
      },
      requireUserVerification: user === null,
    });
    if (!v.verified) throw refused();
    newCounter = v.authenticationInfo.newCounter;
  } catch {
    throw refused();
  }
  // The library refuses a counter that does not move forward; this says it again where the rule lives.
  if ((passkey.counter > 0 || newCounter > 0) && newCounter <= passkey.counter) throw refused();
  const moved = await store.usePasskey(workspace.id, passkey.id, {
    expected: passkey.counter,
    counter: newCounter,
    at: now,
  });
  if (!moved) throw refused();
  return owner;
};

/** Whether the user has a passkey (it counts as a second factor). */
export const hasPasskey = async (store: PasskeyStore, workspaceId: string, userId: string) =>
  (await store.listPasskeys(workspaceId, userId)).length > 0;

/** A passkey as the API shows it (never its key). */
export const passkeyJson = (p: Passkey) => ({
  id: p.id,
  name: p.name,
  created_at: p.created_at.toISOString(),
  last_used_at: p.last_used_at?.toISOString() ?? null,
});

/**
 * A passwordless sign-in: the assertion (user verification required) → a new session and device, as a
 * password sign-in ends (the passkey is both factors: something held, unlocked by the user). The client
 * address's failures are limited by the caller (http/passkeys/routes.ts).
 */
export const signInWithPasskey = async (
  store: SessionDeps & SignInStore & PasskeyStore,
  workspace: Workspace,
  input: unknown,
  rp: RelyingParty,
  now: Date,
  life: SessionLifetimes,
  deviceToken: string | undefined,
) => {
  const { challenge, credential } = parseOrThrow(passkeySignInInput, input);
  const user = await verifyPasskeyAssertion(store, workspace, null, challenge, credential, rp, now);
  const device = await knownDevice(store, deviceToken, workspace, user, now);
  return finishSignIn(store, user, device, now, life);
};
