import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** A random token: `prefix` + 32 bytes (256 bits) of randomness, base64url. */
export const randomToken = (prefix: string, bytes = 32): string =>
  prefix + randomBytes(bytes).toString('base64url');

/** SHA-256 of a secret, hex. Secrets are stored only this way. */
export const hashSecret = (secret: string): string =>
  createHash('sha256').update(secret, 'utf8').digest('hex');

/** Compares two equal-length hex digests in constant time. */
export const digestsEqual = (a: string, b: string): boolean => {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
};

export const newId = (): string => randomUUID();
