import { AppError, hashSecret } from '@lookout/shared';
import type { ContactAddress, ContactMethodStore, SendAllowance } from './contact-method-store.js';

/**
 * How many verification codes may be sent, counted apart from the methods (which a user can delete
 * and add again): per destination (the phone number, the mailbox, the chat: normalised, across every
 * workspace), per user and per workspace, each per hour and per day. A code asked for beyond any of
 * them is refused (429) and nothing is sent. The counters live in the store (every replica shares
 * them) and go when their window ends.
 */

type Window = 'hour' | 'day';
const WINDOW_MS: Record<Window, number> = { hour: 3_600_000, day: 86_400_000 };

export const CODE_LIMITS: Record<'destination' | 'user' | 'workspace', Record<Window, number>> = {
  destination: { hour: 3, day: 10 },
  user: { hour: 5, day: 20 },
  workspace: { hour: 50, day: 200 },
};

/** Gmail delivers `a.b.c@` to `abc@`; other providers' dots are kept. */
const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * Where a code would arrive, in one spelling: an address lower-cased, without its `+tag` (which
 * lands in the same mailbox) and, at Gmail, without dots; an ntfy topic with its server's origin.
 */
export const normalisedDestination = (a: ContactAddress): string => {
  switch (a.type) {
    case 'email': {
      const at = a.address.lastIndexOf('@');
      let local = a.address.slice(0, at).toLowerCase();
      let domain = a.address.slice(at + 1).toLowerCase();
      local = local.split('+')[0]!;
      if (DOTLESS_DOMAINS.has(domain)) {
        local = local.replace(/\./g, '');
        domain = 'gmail.com';
      }
      return `email:${local}@${domain}`;
    }
    case 'sms':
      return `sms:${a.phone}`;
    case 'telegram':
      return `telegram:${a.chat_id}`;
    case 'ntfy': {
      const u = new URL(a.server_url);
      return `ntfy:${u.origin.toLowerCase()}${u.pathname.replace(/\/+$/, '')}/${a.topic}`;
    }
    case 'pushover':
      return `pushover:${a.user_key}`;
  }
};

/** The counters one code takes from; the destination only as a hash (they are kept up to a day). */
export const codeAllowances = (
  workspaceId: string,
  userId: string,
  address: ContactAddress,
  now: Date,
): SendAllowance[] => {
  const scopes = {
    destination: `dest:${hashSecret(normalisedDestination(address))}`,
    user: `user:${workspaceId}:${userId}`,
    workspace: `ws:${workspaceId}`,
  };
  return (Object.keys(scopes) as (keyof typeof scopes)[]).flatMap((scope) =>
    (['hour', 'day'] as const).map((w) => {
      const start = Math.floor(now.getTime() / WINDOW_MS[w]) * WINDOW_MS[w];
      return {
        key: `${scopes[scope]}:${w}:${start}`,
        limit: CODE_LIMITS[scope][w],
        expires_at: new Date(start + WINDOW_MS[w]),
      };
    }),
  );
};

const WHO = { dest: 'to this destination', user: 'by you', ws: 'in this workspace' } as const;

/** Takes one code from every counter, or refuses (429, with when to try again) when one is used up. */
export const takeCodeAllowance = async (
  store: ContactMethodStore,
  workspaceId: string,
  userId: string,
  address: ContactAddress,
  now: Date,
): Promise<void> => {
  const allowances = codeAllowances(workspaceId, userId, address, now);
  const full = await store.takeSendAllowance(allowances, now);
  if (full === null) return;
  const wait = Math.max(1, Math.ceil((full.expires_at.getTime() - now.getTime()) / 1000));
  const scope = full.key.slice(0, full.key.indexOf(':')) as keyof typeof WHO;
  const window = full.key.includes(':hour:') ? 'hour' : 'day';
  throw new AppError(
    'rate_limited',
    `Too many verification codes were sent ${WHO[scope]} (at most ${full.limit} per ${window}); try again in ${wait >= 3600 ? `${Math.ceil(wait / 3600)} h` : `${Math.ceil(wait / 60)} min`}.`,
    [],
    { retryAfterSeconds: wait },
  );
};
