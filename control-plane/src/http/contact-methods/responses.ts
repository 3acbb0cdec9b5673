import { z } from 'zod';
import type { ContactMethod } from '../../domain/contacts/contact-method-store.js';
import { type ContactServices, contactLabel, kindAvailable } from '../../domain/contacts/contact-methods.js';
import { CONTACT_KINDS, contactKindOf } from '../../domain/contacts/kinds/index.js';
import { CONTACT_INPUTS, type ContactField } from '../../domain/contacts/kinds/kind.js';
import { iso, responseSchemas, time, uuidString } from '../responses.js';

const contactMethodBase = {
  id: uuidString,
  /** How the method appears to people: never a secret. */
  label: z.string(),
  verified: z.boolean(),
  verified_at: time.nullable(),
  created_at: time,
  code_sent_at: time.nullable(),
  code_expires_at: time.nullable(),
};

const [first, ...rest] = Object.values(CONTACT_KINDS).map((k) =>
  z.strictObject({ ...contactMethodBase, type: z.literal(k.type), ...(k.response as z.ZodRawShape) }),
);

/** A user's contact method as its user sees it: secrets (an ntfy token, a Pushover key) as hints. */
export const contactMethodResponse = z
  .discriminatedUnion('type', [first!, ...rest])
  .register(responseSchemas, { id: 'ContactMethod' });

export const contactMethodJson = (m: ContactMethod): z.output<typeof contactMethodResponse> => ({
  id: m.id,
  label: contactLabel(m.address),
  verified: m.verified_at !== null,
  verified_at: iso(m.verified_at),
  created_at: iso(m.created_at),
  code_sent_at: iso(m.verification?.sent_at ?? null),
  code_expires_at: iso(m.verification?.expires_at ?? null),
  type: m.address.type,
  ...contactKindOf(m.address).shown(m.address),
});

/** A personal kind as the form renders it: its body's JSON Schema (the rules the API checks) and its fields. */
export const contactMethodKindResponse = z
  .strictObject({
    type: z.string(),
    label: z.string(),
    available: z.boolean().describe('False when it needs a service this deployment has not set up.'),
    body_schema: z.record(z.string(), z.unknown()).describe('The JSON Schema of its fields besides `type`.'),
    fields: z.array(
      z.strictObject({
        name: z.string(),
        label: z.string(),
        hint: z.string().nullable(),
        input: z.enum(CONTACT_INPUTS),
        placeholder: z.string().nullable(),
      }),
    ),
  })
  .register(responseSchemas, { id: 'ContactMethodKind' });

export const contactMethodKindsJson = (services: ContactServices) =>
  Object.values(CONTACT_KINDS).map(
    (k): z.output<typeof contactMethodKindResponse> => ({
      type: k.type,
      label: k.label,
      available: kindAvailable(k, services),
      body_schema: z.toJSONSchema(z.strictObject(k.body as z.ZodRawShape), {
        io: 'input',
        unrepresentable: 'any',
      }) as Record<string, unknown>,
      fields: Object.entries(k.form as Record<string, ContactField>).map(([name, f]) => ({
        name,
        label: f.label,
        hint: f.hint ?? null,
        input: f.input ?? 'text',
        placeholder: f.placeholder ?? null,
      })),
    }),
  );
