import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Seals secrets that must be read back to be used; `context` ties a sealed value to its place. */
export interface SecretBox {
  seal(plain: string, context: string): string;
  /** Throws when the value cannot be opened (another key or context, or altered). */
  open(sealed: string, context: string): string;
}

const SEALED = 'aes256gcm:';
const PLAIN = 'plain:';

/**
 * Secrets Lookout must read back to use (a workspace's SMTP password), as stored. With the
 * deployment's key (config `encryption_key`, 32 bytes): AES-256-GCM from node:crypto, a random 96-bit
 * IV per value, the context (which record and field) as additional authenticated data, stored as
 * `aes256gcm:<iv>.<tag>.<ciphertext>` (base64url). A value opened with another key or in another
 * context, or altered, fails authentication and throws. Without a key: `plain:<text>`, as webhook
 * signing secrets are kept; such values still open once a key is set, and are sealed when next saved.
 */
export const createSecretBox = (keyBase64: string | undefined): SecretBox => {
  const key = keyBase64 ? Buffer.from(keyBase64, 'base64') : null;
  if (key && key.length !== 32) throw new Error('the encryption key must be 32 bytes');
  return {
    seal(plain, context) {
      if (!key) return PLAIN + plain;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${SEALED}${[iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.')}`;
    },
    open(sealed, context) {
      if (sealed.startsWith(PLAIN)) return sealed.slice(PLAIN.length);
      if (!sealed.startsWith(SEALED)) throw new Error('not a sealed value');
      if (!key) throw new Error('it was encrypted with LOOKOUT_ENCRYPTION_KEY, which is not set');
      const [iv, tag, data] = sealed
        .slice(SEALED.length)
        .split('.')
        .map((p) => Buffer.from(p, 'base64url'));
      if (!iv || !tag || !data || iv.length !== 12 || tag.length !== 16)
        throw new Error('not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
      } catch {
        throw new Error('it does not open with LOOKOUT_ENCRYPTION_KEY (another key, or altered)');
      }
    },
  };
};
