import type { z } from 'zod';
import type { SecretBox } from './mail-settings.js';
import type { FollowEvent } from './notifications.js';

/**
 * What the domain needs to know of a notification kind (a channel `type`): its config schema, which
 * of its fields are secrets, and which events after "raised" it follows. The kinds themselves —
 * rendering and sending — are notify/kinds/, one file each; the registry there hands this table to
 * the channel rules below.
 */
export interface ChannelKind {
  type: string;
  /** The service's name as people know it ("Microsoft Teams"). */
  label: string;
  /** The channel's `config`: a strict object in the service's own words. */
  config: z.ZodObject;
  /** Write-only fields: stored sealed, shown as their last four characters, kept when a PATCH omits them. */
  secrets: readonly string[];
  follows: readonly FollowEvent[];
}

export type ChannelKinds = Readonly<Record<string, ChannelKind>>;

/** A secret as stored in a channel's config: sealed, with the hint the API shows in its place. */
export interface StoredSecret {
  sealed: string;
  hint: string;
}

const isStored = (v: unknown): v is StoredSecret =>
  typeof v === 'object' && v !== null && typeof (v as StoredSecret).sealed === 'string';

/** At most the last four characters; a URL keeps its origin (https://discord.com/…abcd). */
export const secretHint = (plain: string): string => {
  const last = plain.length > 8 ? plain.slice(-4) : '';
  if (/^https?:\/\//.test(plain)) {
    try {
      return `${new URL(plain).origin}/…${last}`;
    } catch {
      // not a URL after all
    }
  }
  return `••••${last}`;
};

/** The context a channel secret is sealed in: its workspace and field, so it opens nowhere else. */
const context = (workspaceId: string, field: string) => `notification-channel:${workspaceId}:${field}`;

export const sealSecret = (
  box: SecretBox,
  workspaceId: string,
  field: string,
  plain: string,
): StoredSecret => ({
  sealed: box.seal(plain, context(workspaceId, field)),
  hint: secretHint(plain),
});

/** The plain value of a stored secret (a value stored before secrets were sealed is used as it is). */
export const openSecret = (box: SecretBox, workspaceId: string, field: string, v: unknown): unknown =>
  isStored(v) ? box.open(v.sealed, context(workspaceId, field)) : v;

/** What the API shows for a stored secret: its hint (an old plain value: masked the same way). */
export const shownSecret = (v: unknown): string =>
  isStored(v) ? v.hint : typeof v === 'string' ? secretHint(v) : '••••';

/** The config with every secret field opened, for sending. Throws when one cannot be opened. */
export const openConfig = (
  box: SecretBox,
  kind: Pick<ChannelKind, 'secrets'> | undefined,
  workspaceId: string,
  config: Record<string, unknown>,
): Record<string, unknown> => {
  const out = { ...config };
  for (const f of kind?.secrets ?? []) if (f in out) out[f] = openSecret(box, workspaceId, f, out[f]);
  return out;
};
