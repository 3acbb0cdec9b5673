import { AppError, newId, randomToken } from '@lookout/shared';
import { z } from 'zod';
import { CHANNEL_TYPES, type ChannelConfig, type NotificationChannel } from '../types.js';
import { nameText, parseOrThrow } from '../validation.js';
import type { RoutingStore } from './routing-store.js';

const httpUrl = z
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

const headerName = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'must be a valid header name')
  .refine(
    (h) =>
      !['content-type', 'content-length', 'host', 'x-lookout-signature', 'x-lookout-delivery'].includes(
        h.toLowerCase(),
      ),
    'is set by Lookout',
  );

/**
 * Per type: what `config` holds. The body is checked in two steps — the envelope (name, type, no
 * unknown fields), then `config` against its type's schema — so every bad field is named, `config.url`
 * included, whatever the type.
 */
const configSchemas = {
  email: z.strictObject({ addresses: z.array(z.email()).min(1).max(10) }),
  webhook: z.strictObject({
    url: httpUrl,
    headers: z
      .record(headerName, z.string().max(1024))
      .refine((h) => Object.keys(h).length <= 20, 'must have at most 20 headers')
      .default({}),
  }),
  slack: z.strictObject({ url: httpUrl }),
} as const;

export const createChannelBody = z.strictObject({
  name: nameText(200),
  type: z.enum(CHANNEL_TYPES),
  config: z.record(z.string(), z.unknown()),
});

/** The same rules as one schema per type, for the API document (validation runs in two steps, above). */
export const channelBodyDoc = z.discriminatedUnion('type', [
  z.strictObject({
    name: createChannelBody.shape.name,
    type: z.literal('email'),
    config: configSchemas.email,
  }),
  z.strictObject({
    name: createChannelBody.shape.name,
    type: z.literal('webhook'),
    config: configSchemas.webhook,
  }),
  z.strictObject({
    name: createChannelBody.shape.name,
    type: z.literal('slack'),
    config: configSchemas.slack,
  }),
]);

export const updateChannelBody = z.strictObject({
  name: nameText(200).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
});

const parseConfig = (type: NotificationChannel['type'], config: unknown): ChannelConfig => {
  const schema = configSchemas[type] as z.ZodType<Record<string, unknown>>;
  const wrapped = z.strictObject({ config: schema });
  return { type, ...parseOrThrow(wrapped, { config }).config } as ChannelConfig;
};

/** Webhook channels get a signing secret, returned once (like an API key). */
export const createChannel = async (
  store: RoutingStore,
  workspaceId: string,
  body: unknown,
  now: Date,
): Promise<NotificationChannel> => {
  const v = parseOrThrow(createChannelBody, body);
  const config = parseConfig(v.type, v.config);
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
  store: RoutingStore,
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
    config: patch.config ? parseConfig(existing.type, patch.config) : existing.config,
    updated_at: now,
  };
  if (!(await store.updateChannel(next))) throw new AppError('not_found', 'Notification channel not found.');
  return next;
};

export const deleteChannel = async (store: RoutingStore, workspaceId: string, id: string) => {
  const r = await store.deleteChannel(workspaceId, id);
  if (r === 'not_found') throw new AppError('not_found', 'Notification channel not found.');
  if (r === 'in_use')
    throw new AppError(
      'conflict',
      'An escalation policy still notifies this channel; remove it from the policy first.',
    );
};
