import { z } from 'zod';
import type { ContactMethod } from '../../domain/contacts/contact-method-store.js';
import { contactLabel } from '../../domain/contacts/contact-methods.js';
import { CONTACT_KINDS, contactKindOf } from '../../domain/contacts/kinds/index.js';
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
