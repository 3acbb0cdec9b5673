import { isPrivateAddress } from '@lookout/shared';
import { z } from 'zod';

/**
 * Notification destinations users name (a channel's URL, an ntfy server): with the guard on
 * (LOOKOUT_NOTIFY_ALLOW_PRIVATE unset), one whose host is a private or loopback IP literal is refused
 * when it is entered. A host name is judged when connecting (notify/http-client.ts), on the address
 * it resolves to then; either refusal says only this.
 */
export const NOT_ALLOWED_DESTINATION = 'is not an allowed destination';

export const isPrivateLiteralUrl = (url: string): boolean => {
  try {
    return isPrivateAddress(new URL(url).hostname.replace(/^\[|\]$/g, ''));
  } catch {
    return false;
  }
};

/** A URL a destination is named by (a channel's, an ntfy server): http or https, without credentials. */
export const httpUrl = z
  .string()
  .max(2048)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
    } catch {
      return false;
    }
  }, 'must be an http:// or https:// URL without credentials');
