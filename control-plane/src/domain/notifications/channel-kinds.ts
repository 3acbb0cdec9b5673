import type { SecretBox } from '@lookout/shared';
import type { z } from 'zod';
import type { FollowEvent } from './messages.js';

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
  /**
   * Write-only fields: stored sealed, shown as their last four characters, kept when a PATCH omits
   * them. `field.*` names a record field each of whose values is one (a webhook's headers: the names
   * shown, each value as its hint).
   */
  secrets: readonly string[];
  follows: readonly FollowEvent[];
  /**
   * How a burst of alerts on one policy reaches it (domain/escalation/group-window.ts): `summary`, one
   * message listing them every group window; `per_alert`, one message each, as the service itself
   * deduplicates and its users expect one incident per alert (PagerDuty, Opsgenie).
   */
  grouping: 'summary' | 'per_alert';
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

/** The record field a `field.*` secret names (each of its values a secret), or null for a plain field. */
export const secretRecord = (secret: string): string | null =>
  secret.endsWith('.*') ? secret.slice(0, -2) : null;

const mapValues = (v: unknown, fn: (x: unknown) => unknown) =>
  v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fn(x)])) : v;

/** The config with every secret replaced by `fn` of it (each value of a `field.*` record). */
export const mapSecrets = (
  kind: Pick<ChannelKind, 'secrets'> | undefined,
  config: Record<string, unknown>,
  fn: (field: string, v: unknown) => unknown,
): Record<string, unknown> => {
  const out = { ...config };
  for (const s of kind?.secrets ?? []) {
    const rec = secretRecord(s);
    if (rec) {
      if (rec in out) out[rec] = mapValues(out[rec], (x) => fn(rec, x));
    } else if (s in out) out[s] = fn(s, out[s]);
  }
  return out;
};

/** The config with every secret field opened, for sending. Throws when one cannot be opened. */
export const openConfig = (
  box: SecretBox,
  kind: Pick<ChannelKind, 'secrets'> | undefined,
  workspaceId: string,
  config: Record<string, unknown>,
): Record<string, unknown> => mapSecrets(kind, config, (f, v) => openSecret(box, workspaceId, f, v));
