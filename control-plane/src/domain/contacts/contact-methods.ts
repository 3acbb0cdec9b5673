import { AppError, newId, validationError } from '@lookout/shared';
import { isPrivateLiteralUrl, NOT_ALLOWED_DESTINATION } from '../destinations.js';
import type { Target } from '../notifications/messages.js';
import type { User } from '../types.js';
import { parseContactBody } from './contact-method-body.js';
import type {
  ContactAddress,
  ContactMethod,
  ContactMethodStore,
  ContactMethodType,
} from './contact-method-store.js';

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

/** The deployment's accounts behind the kinds that need one; null: not set up here. */
export interface ContactServices {
  telegram: { bot_token: string; api_url: string } | null;
  twilio: { account_sid: string; auth_token: string; from: string; api_url: string } | null;
  pushover: { app_token: string; api_url: string } | null;
}

const SERVICE_OF: Partial<Record<ContactMethodType, { key: keyof ContactServices; setting: string }>> = {
  sms: {
    key: 'twilio',
    setting: 'LOOKOUT_TWILIO_ACCOUNT_SID, LOOKOUT_TWILIO_AUTH_TOKEN and LOOKOUT_TWILIO_FROM',
  },
  telegram: { key: 'telegram', setting: 'LOOKOUT_TELEGRAM_BOT_TOKEN' },
  pushover: { key: 'pushover', setting: 'LOOKOUT_PUSHOVER_APP_TOKEN' },
};

const TYPE_NAME: Record<ContactMethodType, string> = {
  email: 'Email',
  sms: 'SMS',
  telegram: 'Telegram',
  ntfy: 'ntfy',
  pushover: 'Pushover',
};

export const CONTACT_METHOD_TYPES_AVAILABLE_DOC =
  'email and ntfy always; sms, telegram and pushover when the deployment has set up Twilio, a Telegram bot or a Pushover application';

/** The types users can add on this deployment. */
export const availableTypes = (services: ContactServices): ContactMethodType[] =>
  (['email', 'sms', 'telegram', 'ntfy', 'pushover'] as const).filter((t) => {
    const s = SERVICE_OF[t];
    return !s || services[s.key] !== null;
  });

/** What identifies a method's destination, to refuse the same one twice. */
const destinationOf = (a: ContactAddress): string => {
  switch (a.type) {
    case 'email':
      return a.address.toLowerCase();
    case 'sms':
      return a.phone;
    case 'telegram':
      return a.chat_id;
    case 'ntfy':
      return `${a.server_url.replace(/\/+$/, '')}/${a.topic}`;
    case 'pushover':
      return a.user_key;
  }
};

/** How a method appears to people and in the delivery log: never a secret. */
export const contactLabel = (a: ContactAddress): string => {
  switch (a.type) {
    case 'email':
      return a.address;
    case 'sms':
      return a.phone;
    case 'telegram':
      return `Telegram chat ${a.chat_id}`;
    case 'ntfy':
      return `${a.server_url.replace(/\/+$/, '')}/${a.topic}`;
    case 'pushover':
      return `Pushover user ••••${a.user_key.slice(-4)}`;
  }
};

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
  if (opts.blockPrivate && address.type === 'ntfy' && isPrivateLiteralUrl(address.server_url))
    throw validationError([{ field: 'server_url', message: NOT_ALLOWED_DESTINATION }]);
  const service = SERVICE_OF[address.type];
  if (service && services[service.key] === null)
    throw validationError([
      {
        field: 'type',
        message: `${TYPE_NAME[address.type]} is not set up on this Lookout: its operator sets ${service.setting}`,
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
  if (existing.some((m) => m.type === address.type && destinationOf(m.address) === destinationOf(address)))
    throw new AppError('conflict', `You have this ${TYPE_NAME[address.type]} contact method already.`);
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

/**
 * The notification kind (`notify/kinds/`) and its config that reach a method, with the
 * deployment's credentials; null when its service is not set up (any more).
 */
export const contactKindConfig = (
  a: ContactAddress,
  services: ContactServices,
): { kind: string; config: Record<string, unknown> } | null => {
  switch (a.type) {
    case 'email':
      return { kind: 'email', config: { addresses: [a.address] } };
    case 'ntfy':
      return {
        kind: 'ntfy',
        config: {
          server_url: a.server_url,
          topic: a.topic,
          ...(a.access_token ? { access_token: a.access_token } : {}),
        },
      };
    case 'sms': {
      const s = services.twilio;
      return s
        ? {
            kind: 'twilio_sms',
            config: {
              account_sid: s.account_sid,
              auth_token: s.auth_token,
              from: s.from,
              to: [a.phone],
              api_url: s.api_url,
            },
          }
        : null;
    }
    case 'telegram': {
      const s = services.telegram;
      return s
        ? { kind: 'telegram', config: { bot_token: s.bot_token, chat_id: a.chat_id, api_url: s.api_url } }
        : null;
    }
    case 'pushover': {
      const s = services.pushover;
      return s
        ? { kind: 'pushover', config: { user_key: a.user_key, app_token: s.app_token, api_url: s.api_url } }
        : null;
    }
  }
};

/** A method as a notification target, or null when its service is not set up (any more). */
export const contactTarget = (m: ContactMethod, services: ContactServices): Target | null => {
  const kc = contactKindConfig(m.address, services);
  if (!kc) return null;
  // Only ntfy's server is the user's; the other kinds go to the deployment's service address.
  const operator_address = m.type === 'sms' || m.type === 'telegram' || m.type === 'pushover';
  return { kind: kc.kind, config: kc.config, workspace_id: m.workspace_id, operator_address };
};
