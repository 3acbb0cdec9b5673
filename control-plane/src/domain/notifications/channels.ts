import type { SecretBox } from '@lookout/shared';
import { AppError, newId, randomToken, validationError } from '@lookout/shared';
import { z } from 'zod';
import { isPrivateLiteralUrl, NOT_ALLOWED_DESTINATION } from '../destinations.js';
import type { ChannelConfig, NotificationChannel } from '../types.js';
import { nameText, parseOrThrow } from '../validation.js';
import {
  type ChannelKinds,
  mapSecrets,
  openSecret,
  sealSecret,
  secretRecord,
  shownSecret,
} from './channel-kinds.js';
import type { ChannelStore } from './channel-store.js';

/** The kinds a workspace may use, and the box that seals their secrets. */
export interface ChannelRules {
  kinds: ChannelKinds;
  box: SecretBox;
  /** Refuse addresses that are private or loopback IP literals (destinations.ts). */
  blockPrivate?: boolean;
}

const envelope = (kinds: ChannelKinds) =>
  z.strictObject({
    name: nameText(200),
    type: z.enum(Object.keys(kinds) as [string, ...string[]]),
    config: z.record(z.string(), z.unknown()),
  });

export const updateChannelBody = z.strictObject({
  name: nameText(200).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
});

/**
 * The create body as one schema per kind, discriminated by `type`, for the API document (validation
 * runs in two steps, below, so that every bad field is named, `config.url` included, whatever the type).
 */
export const channelBodyDoc = (kinds: ChannelKinds) => {
  const name = nameText(200);
  const [first, ...rest] = Object.values(kinds).map((k) =>
    z.strictObject({ name, type: z.literal(k.type), config: k.config }),
  );
  return z.discriminatedUnion('type', [first!, ...rest]);
};

/** A field naming where the channel sends to. */
const isAddress = (f: string) => f === 'url' || f.endsWith('_url');

/**
 * Parses `config` with its kind's schema and seals the secrets in it. With `existing` (a PATCH), a
 * secret left out — or sent back as the hint the API showed — keeps its stored value (a `field.*`
 * record: left out whole, or value by value).
 */
const parseConfig = (
  rules: ChannelRules,
  workspaceId: string,
  type: string,
  config: Record<string, unknown>,
  existing?: ChannelConfig,
): ChannelConfig => {
  const kind = rules.kinds[type];
  if (!kind) throw new AppError('validation_failed', `Notification kind ${type} is not available.`);
  const given = { ...config };
  const kept: Record<string, unknown> = {};
  if (existing) {
    for (const s of kind.secrets) {
      const f = secretRecord(s) ?? s;
      if (!(f in existing)) continue;
      if (given[f] === undefined || (f === s && given[f] === shownSecret(existing[f]))) {
        delete given[f];
        kept[f] = existing[f];
      }
    }
  }
  const optional = Object.fromEntries(Object.keys(kept).map((f) => [f, true as const])) as Record<
    string,
    true
  >;
  const schema = existing ? kind.config.partial(optional as never) : kind.config;
  const parsed = parseOrThrow(z.strictObject({ config: schema }), { config: given }).config as Record<
    string,
    unknown
  >;
  for (const f of Object.keys(kept)) delete parsed[f];
  if (rules.blockPrivate) {
    const refused = Object.keys(parsed).filter(
      (f) => isAddress(f) && typeof parsed[f] === 'string' && isPrivateLiteralUrl(parsed[f] as string),
    );
    if (refused.length > 0)
      throw validationError(refused.map((f) => ({ field: `config.${f}`, message: NOT_ALLOWED_DESTINATION })));
  }
  // Addresses changed (before secrets are sealed). A kept secret goes only where it went before: a new
  // address needs it entered again, so a write-only token cannot be pointed at a server that would read it.
  const before = (f: string) => {
    try {
      return kind.secrets.includes(f) ? openSecret(rules.box, workspaceId, f, existing?.[f]) : existing?.[f];
    } catch {
      return undefined;
    }
  };
  const moved = existing
    ? Object.keys(parsed).filter(
        (f) => isAddress(f) && typeof parsed[f] === 'string' && parsed[f] !== before(f),
      )
    : [];
  // What keeps a stored secret, by the name the API would give it (`config.<name>`).
  const keptNames: string[] = [];
  for (const s of kind.secrets) {
    const rec = secretRecord(s);
    if (rec === null) {
      if (s in kept) keptNames.push(s);
      else if (typeof parsed[s] === 'string')
        parsed[s] = sealSecret(rules.box, workspaceId, s, parsed[s] as string);
      continue;
    }
    if (rec in kept) {
      keptNames.push(...Object.keys((kept[rec] ?? {}) as object).map((n) => `${rec}.${n}`));
      continue;
    }
    const values = parsed[rec];
    if (!values || typeof values !== 'object') continue;
    const stored = (existing?.[rec] ?? {}) as Record<string, unknown>;
    parsed[rec] = Object.fromEntries(
      Object.entries(values).map(([n, v]) => {
        if (Object.hasOwn(stored, n) && v === shownSecret(stored[n])) {
          keptNames.push(`${rec}.${n}`);
          return [n, stored[n]];
        }
        return [n, typeof v === 'string' ? sealSecret(rules.box, workspaceId, rec, v) : v];
      }),
    );
  }
  if (moved.length > 0 && keptNames.length > 0)
    throw validationError(
      keptNames.map((f) => ({
        field: `config.${f}`,
        message: `must be entered again when ${moved.map((m) => `config.${m}`).join(' and ')} changes`,
      })),
    );
  return { type, ...parsed, ...kept };
};

/** Webhook channels get a signing secret, returned once (like an API key). */
export const createChannel = async (
  store: ChannelStore,
  rules: ChannelRules,
  workspaceId: string,
  body: unknown,
  now: Date,
): Promise<NotificationChannel> => {
  const v = parseOrThrow(envelope(rules.kinds), body);
  const config = parseConfig(rules, workspaceId, v.type, v.config);
  const channel: NotificationChannel = {
    id: newId(),
    workspace_id: workspaceId,
    name: v.name,
    type: v.type,
    config,
    secret: v.type === 'webhook' ? randomToken('whsec_') : null,
    created_at: now,
    updated_at: now,
  };
  await store.insertChannel(channel);
  return channel;
};

export const updateChannel = async (
  store: ChannelStore,
  rules: ChannelRules,
  workspaceId: string,
  id: string,
  body: unknown,
  now: Date,
): Promise<NotificationChannel> => {
  const patch = parseOrThrow(updateChannelBody, body);
  const existing = await store.getChannel(workspaceId, id);
  if (!existing) throw new AppError('not_found', 'Notification channel not found.');
  const next: NotificationChannel = {
    ...existing,
    name: patch.name ?? existing.name,
    config: patch.config
      ? parseConfig(rules, workspaceId, existing.type, patch.config, existing.config)
      : existing.config,
    updated_at: now,
  };
  if (!(await store.updateChannel(next))) throw new AppError('not_found', 'Notification channel not found.');
  return next;
};

/** The config as the API shows it: secrets replaced by their hints (at most the last four characters). */
export const shownConfig = (kinds: ChannelKinds, c: NotificationChannel): Record<string, unknown> => {
  const { type: _t, ...config } = c.config;
  return mapSecrets(kinds[c.type], config, (_f, v) => shownSecret(v));
};

export const deleteChannel = async (store: ChannelStore, workspaceId: string, id: string) => {
  const r = await store.deleteChannel(workspaceId, id);
  if (r === 'not_found') throw new AppError('not_found', 'Notification channel not found.');
  if (r === 'in_use')
    throw new AppError(
      'conflict',
      'An escalation policy still notifies this channel; remove it from the policy first.',
    );
};
