import { AppError, hashSecret } from '@lookout/shared';
import type { ContactAddress, ContactMethodStore, SendAllowance } from './contact-method-store.js';
import { contactKindOf } from './kinds/index.js';

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

/** Where a code would arrive, in one spelling (each kind's `codeDestination`, kinds/). */
export const normalisedDestination = (a: ContactAddress): string => contactKindOf(a).codeDestination(a);

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
