import { type AppError, type FieldProblem, validationError } from '@lookout/shared';
import { z } from 'zod';
import { parseOrThrow } from '../validation.js';
import { CONTACT_BODIES, CONTACT_KINDS, CONTACT_METHOD_TYPES, type ContactAddress } from './kinds/index.js';

/** What the API takes for a contact method: one shape per kind (kinds/), and the code that verifies one. */

/** The body of a new method, one shape per type (the API document's; validation: `parseContactBody`). */
export const createContactMethodBody = z.discriminatedUnion('type', CONTACT_BODIES);

/**
 * Checked in two steps, so that every bad field is named whatever the type: the envelope (a known
 * type, no field that no type has), then the fields of its type.
 */
const envelope = z.looseObject({ type: z.enum(CONTACT_METHOD_TYPES) });
const KNOWN_FIELDS = new Set(['type', ...Object.values(CONTACT_KINDS).flatMap((k) => Object.keys(k.body))]);
const BODY_OF = Object.fromEntries(
  CONTACT_BODIES.map((b) => [(b.shape.type as z.ZodLiteral<string>).value, b]),
);

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
  const schema = BODY_OF[env.data.type]!;
  const known = Object.fromEntries(Object.entries(body as object).filter(([k]) => KNOWN_FIELDS.has(k)));
  problems.push(...detailsOf(schema, known));
  if (problems.length) throw validationError(problems);
  return schema.parse(known) as ContactAddress;
};

export const verifyContactMethodBody = z.strictObject({
  code: z.string().regex(/^\d{6}$/, 'must be the 6-digit code'),
});
