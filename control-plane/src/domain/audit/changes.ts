/**
 * What an audit entry says changed: field → [before, after], with secrets redacted and sizes bounded.
 * Pure: the route layer (http/audit-route.ts) gives the resource as read before the change and the
 * request's body. Tests beside it.
 */

export type Changes = Record<string, [unknown, unknown]>;

export const REDACTED = '[redacted]';

/** Parts of a key (split at `_`, `-`, `.`, and lower-to-upper case) that make its value a secret. */
const SECRET_PARTS = new Set([
  'secret',
  'secrets',
  'password',
  'passwords',
  'passwd',
  'passphrase',
  'token',
  'tokens',
  'key',
  'keys',
  'authorization',
  'cookie',
  'credential',
  'credentials',
  'sealed',
  'private',
  // An authenticator app's otpauth:// URL, and a QR code of it, carry its TOTP secret.
  'otpauth',
  'qr',
]);
/** Whole keys that hold one: one-time codes, recovery codes. */
const SECRET_KEYS = new Set(['code', 'codes', 'recovery_codes', 'otp', 'challenge']);

/**
 * Fields that are secrets for one resource type only: a channel's webhook address is its credential
 * (Slack, Discord, Teams…), and so are a webhook's header values; a workspace secret's value.
 */
const SECRET_FIELDS_OF: Record<string, ReadonlySet<string>> = {
  channel: new Set(['url', 'webhook_url', 'headers']),
  secret: new Set(['value']),
  mail_settings: new Set(['username', 'user']),
};

export const isSecretKey = (key: string, resourceType = ''): boolean => {
  if (SECRET_KEYS.has(key.toLowerCase())) return true;
  if (SECRET_FIELDS_OF[resourceType]?.has(key)) return true;
  return key
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .some((part) => SECRET_PARTS.has(part.toLowerCase()));
};

const MAX_STRING = 500;
const MAX_ITEMS = 50;
const MAX_DEPTH = 4;
const MAX_FIELDS = 100;

/** A URL's password (https://user:pass@host) is replaced; long strings are cut. */
const cleanString = (s: string): string => {
  const out = s.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/:@\s]*):[^@/\s]*@/i, `$1:${REDACTED}@`);
  return out.length > MAX_STRING ? `${out.slice(0, MAX_STRING)}…` : out;
};

/**
 * `value` with every secret replaced by REDACTED (keys as `isSecretKey` says, at any depth), URL
 * passwords removed, strings, lists and depth bounded. Never throws; never returns a secret it was given.
 */
export const redact = (value: unknown, resourceType = '', depth = 0): unknown => {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === 'string') return cleanString(value);
  if (typeof value !== 'object') return typeof value === 'bigint' ? String(value) : value;
  if (value instanceof Date) return value.toISOString();
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => redact(v, resourceType, depth + 1));
    return value.length > MAX_ITEMS ? [...items, `… ${value.length - MAX_ITEMS} more`] : items;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>))
    out[k] =
      isSecretKey(k, resourceType) && v !== null && v !== undefined
        ? REDACTED
        : redact(v, resourceType, depth + 1);
  return out;
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const asRecord = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/**
 * The changes of one action, redacted: a create lists the fields given ([null, value]); a delete the
 * fields the resource had ([value, null]); an update the fields the body names whose value differs
 * from before. A body that is not an object (or none) gives null for a create or update.
 */
export const auditChanges = (
  kind: 'create' | 'update' | 'delete' | 'action',
  resourceType: string,
  before: unknown,
  body: unknown,
): Changes | null => {
  const b = asRecord(before);
  const after = asRecord(body);
  const changes: Changes = {};
  const put = (k: string, from: unknown, to: unknown) => {
    if (Object.keys(changes).length >= MAX_FIELDS) return;
    const secret = isSecretKey(k, resourceType);
    changes[k] = [
      from === undefined || from === null ? null : secret ? REDACTED : redact(from, resourceType),
      to === undefined || to === null ? null : secret ? REDACTED : redact(to, resourceType),
    ];
  };
  if (kind === 'delete') {
    if (!b) return null;
    for (const [k, v] of Object.entries(b)) put(k, v, null);
  } else {
    if (!after) return null;
    for (const [k, v] of Object.entries(after)) {
      const was = kind === 'update' ? b?.[k] : undefined;
      if (kind === 'update' && b && same(was, v)) continue;
      put(k, was, v);
    }
  }
  return Object.keys(changes).length === 0 ? null : changes;
};
