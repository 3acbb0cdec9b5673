import { z } from 'zod';
import email from './email.js';
import type { AddressOf, AnyContactKind, ContactKind } from './kind.js';
import ntfy from './ntfy.js';
import pushover from './pushover.js';
import sms from './sms.js';
import telegram from './telegram.js';

/**
 * Every personal contact-method kind, by `type`, in the order the API and the form list them. A new
 * kind is one file beside this one (kind.ts says what it holds) and its line here.
 */
const all = [email, sms, telegram, ntfy, pushover] as const;

type AddressOfKind<K> = K extends ContactKind<infer T, infer S, z.ZodRawShape> ? AddressOf<T, S> : never;

/** Where a method reaches its user, in the service's own words: one shape per kind. */
export type ContactAddress = AddressOfKind<(typeof all)[number]>;
export type ContactMethodType = ContactAddress['type'];

export const CONTACT_KINDS: Readonly<Record<ContactMethodType, AnyContactKind>> = Object.fromEntries(
  all.map((k) => [k.type, k]),
) as Record<ContactMethodType, AnyContactKind>;

export const CONTACT_METHOD_TYPES = all.map((k) => k.type) as [ContactMethodType, ...ContactMethodType[]];

/** The kind of an address. */
export const contactKindOf = (a: Pick<ContactAddress, 'type'>): AnyContactKind => CONTACT_KINDS[a.type];

/** Each kind's request body: its `type` and its fields (the API document's `oneOf`). */
export const CONTACT_BODIES = all.map((k) =>
  z.strictObject({ type: z.literal(k.type), ...(k.body as z.ZodRawShape) }),
) as unknown as [z.ZodObject, ...z.ZodObject[]];
