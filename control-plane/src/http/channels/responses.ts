import { z } from 'zod';
import { shownConfig } from '../../domain/notifications/channels.js';
import type { Delivery, NotificationChannel } from '../../domain/types.js';
import { CHANNEL_KINDS, CHANNEL_TYPES } from '../../notify/kinds/index.js';
import { iso, responseSchemas, time, uuidString } from '../responses.js';

/** A channel's config as the API shows it: the kind's fields, each secret replaced by its hint (a string). */
const shownConfigSchema = (k: (typeof CHANNEL_KINDS)[string]) =>
  z.strictObject(
    Object.fromEntries(
      Object.entries(k.config.shape).map(([f, schema]) => [
        f,
        k.secrets.includes(f)
          ? (schema as z.ZodType).safeParse(undefined).success
            ? z.string().optional().describe('Write-only: at most its last four characters.')
            : z.string().describe('Write-only: at most its last four characters.')
          : schema,
      ]),
    ),
  );

const channelFields = { id: uuidString, name: z.string(), created_at: time, updated_at: time };

const channelVariants = (extra: z.ZodRawShape) =>
  z.discriminatedUnion(
    'type',
    Object.values(CHANNEL_KINDS).map((k) =>
      z.strictObject({ ...channelFields, ...extra, type: z.literal(k.type), config: shownConfigSchema(k) }),
    ) as unknown as [z.ZodObject, ...z.ZodObject[]],
  );

/** One shape per kind, discriminated by `type`; secrets appear only as their hints. */
export const channelResponse = channelVariants({}).register(responseSchemas, { id: 'Channel' });

/** A new channel: a webhook's `signing_secret` appears here, once. */
export const channelCreatedResponse = channelVariants({ signing_secret: z.string().optional() }).register(
  responseSchemas,
  { id: 'ChannelCreated' },
);

export const channelKindResponse = z
  .strictObject({
    type: z.string(),
    label: z.string(),
    config_schema: z.record(z.string(), z.unknown()).describe('JSON Schema (draft 2020-12) of `config`.'),
    secrets: z.array(z.string()),
    follows: z.array(z.enum(['acknowledged', 'resolved'])),
  })
  .register(responseSchemas, { id: 'ChannelKind' });

/** Every kind with the JSON Schema of its config, built from the same zod schema that validates it. */
export const channelKindsJson = (): z.output<typeof channelKindResponse>[] =>
  Object.values(CHANNEL_KINDS).map((k) => ({
    type: k.type,
    label: k.label,
    config_schema: z.toJSONSchema(k.config, { io: 'input', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >,
    secrets: [...k.secrets],
    follows: [...k.follows],
  }));

/** Channels never show their signing secret (only at creation), nor any secret of their config. */
export const channelJson = (c: NotificationChannel) => ({
  id: c.id,
  name: c.name,
  type: c.type,
  config: shownConfig(CHANNEL_KINDS, c),
  created_at: iso(c.created_at),
  updated_at: iso(c.updated_at),
});

export const deliveryResponse = z
  .strictObject({
    id: uuidString,
    alert_id: z.string().nullable(),
    channel_id: z.string().nullable(),
    user_id: z.string().nullable(),
    kind: z.enum(CHANNEL_TYPES),
    target: z.string(),
    step: z.number().int().nullable(),
    round: z.number().int().nullable(),
    attempt: z.number().int(),
    outcome: z.enum(['sent', 'retrying', 'failed']),
    permanent: z.boolean(),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    idempotency_key: z.string().nullable(),
    remote_id: z.string().nullable().describe("The service's id of the message, when it gave one."),
    test: z.boolean(),
    at: time,
  })
  .register(responseSchemas, { id: 'Delivery' });

export const deliveryJson = (d: Delivery): z.output<typeof deliveryResponse> => {
  const { workspace_id: _w, ...rest } = d;
  return { ...rest, remote_id: d.remote_id ?? null, at: d.at.toISOString() };
};
