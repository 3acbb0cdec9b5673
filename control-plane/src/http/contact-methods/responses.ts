import { z } from 'zod';
import type { ContactMethod } from '../../domain/contacts/contact-method-store.js';
import { contactLabel } from '../../domain/contacts/contact-methods.js';
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

/** A user's contact method as its user sees it: secrets (an ntfy token, a Pushover key) as hints. */
export const contactMethodResponse = z
  .discriminatedUnion('type', [
    z.strictObject({ ...contactMethodBase, type: z.literal('email'), address: z.string() }),
    z.strictObject({ ...contactMethodBase, type: z.literal('sms'), phone: z.string() }),
    z.strictObject({ ...contactMethodBase, type: z.literal('telegram'), chat_id: z.string() }),
    z.strictObject({
      ...contactMethodBase,
      type: z.literal('ntfy'),
      server_url: z.string(),
      topic: z.string(),
      access_token: z.string().nullable(),
    }),
    z.strictObject({ ...contactMethodBase, type: z.literal('pushover'), user_key: z.string() }),
  ])
  .register(responseSchemas, { id: 'ContactMethod' });

const hint = (s: string) => `••••${s.slice(-4)}`;

export const contactMethodJson = (m: ContactMethod): z.output<typeof contactMethodResponse> => {
  const base = {
    id: m.id,
    label: contactLabel(m.address),
    verified: m.verified_at !== null,
    verified_at: iso(m.verified_at),
    created_at: iso(m.created_at),
    code_sent_at: iso(m.verification?.sent_at ?? null),
    code_expires_at: iso(m.verification?.expires_at ?? null),
  };
  const a = m.address;
  switch (a.type) {
    case 'email':
      return { ...base, type: a.type, address: a.address };
    case 'sms':
      return { ...base, type: a.type, phone: a.phone };
    case 'telegram':
      return { ...base, type: a.type, chat_id: a.chat_id };
    case 'ntfy':
      return {
        ...base,
        type: a.type,
        server_url: a.server_url,
        topic: a.topic,
        access_token: a.access_token ? hint(a.access_token) : null,
      };
    case 'pushover':
      return { ...base, type: a.type, user_key: hint(a.user_key) };
  }
};
