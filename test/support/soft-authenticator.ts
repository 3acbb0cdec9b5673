import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator for API tests (the browser tests use Chromium's virtual one): an
 * ES256 key per credential, "none" attestation, and a signature counter that a test can hold back to
 * play a cloned authenticator. It answers the options the server gave as navigator.credentials would,
 * in @simplewebauthn/browser's JSON shape. The signing is node:crypto's; this only lays out the bytes.
 */
export interface SoftCredential {
  id: string;
  key: KeyObject;
  userHandle: string;
  rpId: string;
  counter: number;
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();
const b64u = (b: Buffer) => b.toString('base64url');
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

const coseKey = (key: KeyObject) => {
  const jwk = key.export({ format: 'jwk' });
  const m = new Map<number, number | Uint8Array>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, Buffer.from(jwk.x!, 'base64url')],
    [-3, Buffer.from(jwk.y!, 'base64url')],
  ]);
  return Buffer.from(isoCBOR.encode(m));
};

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/** navigator.credentials.create for `options` (the JSON of POST /me/passkeys/options) at `origin`. */
export const createCredential = (
  options: { challenge: string; rp: { id: string }; user: { id: string } },
  origin: string,
  opts: { counter?: number } = {},
) => {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rawId = randomBytes(16);
  const counter = opts.counter ?? 0;
  const clientDataJSON = Buffer.from(
    JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false }),
  );
  const authData = Buffer.concat([
    sha256(options.rp.id),
    Buffer.from([UP | UV | AT]),
    u32(counter),
    Buffer.alloc(16), // aaguid
    Buffer.from([0, rawId.length]),
    rawId,
    coseKey(privateKey),
  ]);
  const attestationObject = Buffer.from(
    isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    ),
  );
  const credential: SoftCredential = {
    id: b64u(rawId),
    key: privateKey,
    userHandle: options.user.id,
    rpId: options.rp.id,
    counter,
  };
  return {
    credential,
    json: {
      id: b64u(rawId),
      rawId: b64u(rawId),
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64u(clientDataJSON),
        attestationObject: b64u(attestationObject),
        transports: ['internal'],
      },
    },
  };
};

/**
 * navigator.credentials.get for `challenge` with `credential`; the counter moves by one unless
 * `counter` says what to report (0 always: an authenticator that keeps no counter). `rpId`/`origin` default to the credential's (a phishing page would
 * give its own).
 */
export const assert = (
  credential: SoftCredential,
  challenge: string,
  origin: string,
  opts: { counter?: number; userVerified?: boolean; rpId?: string; userHandle?: boolean } = {},
) => {
  credential.counter = opts.counter ?? credential.counter + 1;
  const clientDataJSON = Buffer.from(
    JSON.stringify({ type: 'webauthn.get', challenge, origin, crossOrigin: false }),
  );
  const authData = Buffer.concat([
    sha256(opts.rpId ?? credential.rpId),
    Buffer.from([UP | (opts.userVerified === false ? 0 : UV)]),
    u32(credential.counter),
  ]);
  const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.key);
  return {
    id: credential.id,
    rawId: credential.id,
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: b64u(clientDataJSON),
      authenticatorData: b64u(authData),
      signature: b64u(signature),
      // A non-discoverable credential's assertion carries no user handle.
      ...(opts.userHandle === false ? {} : { userHandle: credential.userHandle }),
    },
  };
};
