import { AppError, newId, validationError } from '@lookout/shared';
import { isPrivateLiteralUrl, NOT_ALLOWED_DESTINATION } from '../destinations.js';
import type { Target } from '../notifications/messages.js';
import type { User } from '../types.js';
import { parseContactBody } from './contact-method-body.js';
import type { ContactMethod, ContactMethodStore } from './contact-method-store.js';
import {
  CONTACT_KINDS,
  CONTACT_METHOD_TYPES,
  type ContactAddress,
  type ContactMethodType,
  contactKindOf,
} from './kinds/index.js';
import type { AnyContactKind, ContactServices } from './kinds/kind.js';

/**
 * Per-user contact methods: each user keeps their own ways to be reached (an email address, a phone
 * for SMS, a Telegram chat, an ntfy topic, a Pushover user key). A method is used by escalations only
 * once verified: the user asks for a code, which is sent through the method itself, and enters it.
 * The service-level credentials (the Telegram bot, the Twilio account, the Pushover application) are
 * the deployment's, from configuration (`ContactServices`, notify/contact-services.ts): a kind whose
 * service is not set up cannot be added. The bodies: contact-method-body.ts; the codes:
 * verification-codes.ts.
 */

export const MAX_METHODS_PER_USER = 10;

export type { ContactServices };

/** `a`, `a and b`, `a, b and c` (or `… or c`). */
const listed = (words: string[], last: 'and' | 'or') =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1)}`;
const needing = Object.values(CONTACT_KINDS).filter((k) => k.service);

/** Which kinds can be added where, as the API document says it. */
export const CONTACT_METHOD_TYPES_AVAILABLE_DOC = `${listed(
  Object.values(CONTACT_KINDS)
    .filter((k) => !k.service)
    .map((k) => k.type),
  'and',
)} always; ${listed(
  needing.map((k) => k.type),
  'and',
)} when the deployment has set up ${listed(
  needing.map((k) => k.service!.name),
  'or',
)}`;

/** Whether a kind can be added on this deployment: its service, if it needs one, is set up. */
export const kindAvailable = (kind: AnyContactKind, services: ContactServices): boolean =>
  !kind.service || services[kind.service.key] !== null;

/** The types users can add on this deployment. */
export const availableTypes = (services: ContactServices): ContactMethodType[] =>
  CONTACT_METHOD_TYPES.filter((t) => kindAvailable(CONTACT_KINDS[t], services));

/** How a method appears to people and in the delivery log: never a secret. */
export const contactLabel = (a: ContactAddress): string => contactKindOf(a).describe(a);

export const createContactMethod = async (
  store: ContactMethodStore,
  services: ContactServices,
  workspaceId: string,
  user: Pick<User, 'id' | 'email'>,
  body: unknown,
  now: Date,
  opts: { blockPrivate?: boolean } = {},
): Promise<ContactMethod> => {
  const address = parseContactBody(body);
  const kind = contactKindOf(address);
  const userUrl = kind.userUrl ? (address as Record<string, unknown>)[kind.userUrl] : undefined;
  if (opts.blockPrivate && typeof userUrl === 'string' && isPrivateLiteralUrl(userUrl))
    throw validationError([{ field: kind.userUrl!, message: NOT_ALLOWED_DESTINATION }]);
  if (!kindAvailable(kind, services))
    throw validationError([
      {
        field: 'type',
        message: `${kind.label} is not set up on this Lookout: its operator sets ${kind.service!.setting}`,
      },
    ]);
  if (address.type === 'email' && address.address.toLowerCase() === user.email.toLowerCase())
    throw validationError([
      { field: 'address', message: 'is your account email, which alerts always reach: add another address' },
    ]);
  const existing = await store.listContactMethods(workspaceId, user.id);
  if (existing.length >= MAX_METHODS_PER_USER)
    throw new AppError(
      'conflict',
      `You have ${MAX_METHODS_PER_USER} contact methods already: remove one first.`,
    );
  if (
    existing.some((m) => m.type === address.type && kind.destination(m.address) === kind.destination(address))
  )
    throw new AppError('conflict', `You have this ${kind.label} contact method already.`);
  const method: ContactMethod = {
    id: newId(),
    workspace_id: workspaceId,
    user_id: user.id,
    type: address.type,
    address,
    verified_at: null,
    verification: null,
    created_at: now,
    version: 0,
  };
  await store.insertContactMethod(method);
  return method;
};

export const getOwnContactMethod = async (
  store: ContactMethodStore,
  workspaceId: string,
  userId: string,
  id: string | null,
): Promise<ContactMethod> => {
  const m = id ? await store.getContactMethod(workspaceId, userId, id) : null;
  if (!m) throw new AppError('not_found', 'Contact method not found.');
  return m;
};

/** A method as a notification target, or null when its service is not set up (any more). */
export const contactTarget = (m: ContactMethod, services: ContactServices): Target | null => {
  const kind = contactKindOf(m.address);
  const kc = kind.target(m.address, services);
  if (!kc) return null;
  return {
    kind: kc.kind,
    config: kc.config,
    workspace_id: m.workspace_id,
    operator_address: kind.operatorAddress,
  };
};
