import { type AppError, type FieldProblem, validationError } from '@lookout/shared';
import { z } from 'zod';
import { parseOrThrow } from '../validation.js';
import { CONTACT_METHOD_TYPES, type ContactAddress } from './contact-method-store.js';

/** What the API takes for a contact method: one shape per type, and the code that verifies one. */

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

const bodies = {
  email: z.strictObject({ type: z.literal('email'), address: z.email().max(320) }),
  sms: z.strictObject({
    type: z.literal('sms'),
    phone: z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be a phone number in E.164 form, e.g. +14155550123'),
  }),
  telegram: z.strictObject({
    type: z.literal('telegram'),
    chat_id: z
      .string()
      .regex(/^-?\d{1,20}$/, 'must be the numeric id of your chat with the bot (send it /start to learn it)'),
  }),
  ntfy: z.strictObject({
    type: z.literal('ntfy'),
    server_url: httpUrl.default('https://ntfy.sh'),
    topic: z.string().regex(/^[-_A-Za-z0-9]{1,64}$/, 'must be 1–64 letters, digits, - or _'),
    access_token: z.string().min(1).max(200).nullable().default(null),
  }),
  pushover: z.strictObject({
    type: z.literal('pushover'),
    user_key: z.string().regex(/^[A-Za-z0-9]{30}$/, 'must be your 30-character Pushover user key'),
  }),
} as const;

/** The body of a new method, one shape per type (the API document's; validation: `parseContactBody`). */
export const createContactMethodBody = z.discriminatedUnion('type', [
  bodies.email,
  bodies.sms,
  bodies.telegram,
  bodies.ntfy,
  bodies.pushover,
]);

/**
 * Checked in two steps, so that every bad field is named whatever the type: the envelope (a known
 * type, no field that no type has), then the fields of its type.
 */
const envelope = z.looseObject({ type: z.enum(CONTACT_METHOD_TYPES) });
const KNOWN_FIELDS = new Set(Object.values(bodies).flatMap((b) => Object.keys(b.shape)));

export const parseContactBody = (body: unknown): ContactAddress => {
  const problems: FieldProblem[] = [];
  if (body && typeof body === 'object' && !Array.isArray(body))
    for (const k of Object.keys(body))
      if (!KNOWN_FIELDS.has(k)) problems.push({ field: k, message: 'is not a known field' });
  const detailsOf = (schema: z.ZodType, input: unknown): FieldProblem[] => {
    try {
      parseOrThrow(schema, input);
      return [];
    } catch (e) {
      return (e as AppError).details;
    }
  };
  const env = envelope.safeParse(body);
  if (!env.success) throw validationError([...problems, ...detailsOf(envelope, body)]);
  const schema = bodies[env.data.type];
  const known = Object.fromEntries(Object.entries(body as object).filter(([k]) => KNOWN_FIELDS.has(k)));
  problems.push(...detailsOf(schema, known));
  if (problems.length) throw validationError(problems);
  return schema.parse(known) as ContactAddress;
};

export const verifyContactMethodBody = z.strictObject({
  code: z.string().regex(/^\d{6}$/, 'must be the 6-digit code'),
});
