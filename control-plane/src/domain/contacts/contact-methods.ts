import { randomInt } from 'node:crypto';
import {
  AppError,
  digestsEqual,
  type FieldProblem,
  hashSecret,
  newId,
  validationError,
} from '@lookout/shared';
import { z } from 'zod';
import type { OutgoingMessage, Target } from '../routing/notifications.js';
import type { User, Workspace } from '../types.js';
import { parseOrThrow } from '../validation.js';
import {
  CONTACT_METHOD_TYPES,
  type ContactAddress,
  type ContactMethod,
  type ContactMethodStore,
  type ContactMethodType,
} from './contact-method-store.js';

/**
 * Per-user contact methods: each user keeps their own ways to be reached (an email address, a phone
 * for SMS, a Telegram chat, an ntfy topic, a Pushover user key). A method is used by escalations only
 * once verified: the user asks for a code, which is sent through the method itself, and enters it.
 * The service-level credentials (the Telegram bot, the Twilio account, the Pushover application) are
 * the deployment's, from configuration (`ContactServices`, notify/contact-services.ts): a kind whose
 * service is not set up cannot be added.
 */

export const MAX_METHODS_PER_USER = 10;
export const CODE_TTL_MS = 15 * 60_000;
/** A code is not sent again sooner than this (each one may be an SMS someone pays for). */
export const RESEND_AFTER_MS = 60_000;
/** Wrong codes allowed against one code; then a new one must be sent. */
export const MAX_CODE_ATTEMPTS = 5;

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

const parseContactBody = (body: unknown): ContactAddress => {
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
): Promise<ContactMethod> => {
  const address = parseContactBody(body);
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

const codeHash = (methodId: string, code: string) => hashSecret(`contact-method:${methodId}:${code}`);

/**
 * A new verification code for the method, stored (hashed) before it is sent; returns the code, to
 * send through the method and nowhere else. Refused (429) within `RESEND_AFTER_MS` of the last one.
 */
export const newVerificationCode = async (
  store: ContactMethodStore,
  method: ContactMethod,
  now: Date,
): Promise<{ code: string; method: ContactMethod }> => {
  const last = method.verification?.sent_at.getTime();
  if (last !== undefined && now.getTime() - last < RESEND_AFTER_MS) {
    const wait = Math.ceil((last + RESEND_AFTER_MS - now.getTime()) / 1000);
    throw new AppError(
      'rate_limited',
      `A code was sent moments ago; you can ask for another in ${wait} s.`,
      [],
      {
        retryAfterSeconds: wait,
      },
    );
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const next: ContactMethod = {
    ...method,
    verification: {
      code_hash: codeHash(method.id, code),
      sent_at: now,
      expires_at: new Date(now.getTime() + CODE_TTL_MS),
      failed_attempts: 0,
    },
  };
  if (!(await store.updateContactMethod(next)))
    throw new AppError('conflict', 'The contact method changed meanwhile (or was removed); try again.');
  return { code, method: { ...next, version: next.version + 1 } };
};

/** Drops a pending code (it could not be sent), so another can be asked for at once. */
export const forgetCode = async (
  store: ContactMethodStore,
  method: ContactMethod,
): Promise<ContactMethod> => {
  const next = { ...method, verification: null };
  return (await store.updateContactMethod(next)) ? { ...next, version: next.version + 1 } : method;
};

/** The message that carries a code: a test notification, short enough for one SMS. */
export const verificationMessage = (
  workspace: Pick<Workspace, 'subdomain'>,
  code: string,
  deliveryId: string,
  now: Date,
): OutgoingMessage => ({
  event: 'test',
  subject: `[Lookout ${workspace.subdomain}] Your verification code: ${code}`,
  text: `Your Lookout verification code is ${code}. Enter it in Notification settings to get alerts here. It expires in 15 minutes.`,
  dedup_key: deliveryId,
  alert: null,
  payload: {
    event: 'test',
    delivery_id: deliveryId,
    sent_at: now.toISOString(),
    workspace: workspace.subdomain,
  },
});

/** Checks the code entered (constant time); right: the method is verified. Wrong: 422, counted. */
export const verifyContactMethod = async (
  store: ContactMethodStore,
  method: ContactMethod,
  code: string,
  now: Date,
): Promise<ContactMethod> => {
  if (method.verified_at) return method;
  const v = method.verification;
  const refuse = (message: string) => validationError([{ field: 'code', message }]);
  if (!v) throw refuse('no code has been sent yet: send one first');
  if (v.expires_at.getTime() <= now.getTime()) throw refuse('has expired: send a new one');
  if (v.failed_attempts >= MAX_CODE_ATTEMPTS) throw refuse('was entered wrong too often: send a new one');
  const right = digestsEqual(codeHash(method.id, code), v.code_hash);
  const next: ContactMethod = right
    ? { ...method, verified_at: now, verification: null }
    : { ...method, verification: { ...v, failed_attempts: v.failed_attempts + 1 } };
  if (!(await store.updateContactMethod(next)))
    throw new AppError('conflict', 'The contact method changed meanwhile (or was removed); try again.');
  if (!right) throw refuse('is not the code we sent');
  return { ...next, version: next.version + 1 };
};

/**
 * The notification kind and its config (DESIGN.md "Notification kinds") that reach a method, with the
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
  return kc ? { kind: kc.kind, config: kc.config, workspace_id: m.workspace_id } : null;
};
