import { isIP } from 'node:net';
import { isAppError, type SecretBox, validationError } from '@lookout/shared';
import { z } from 'zod';
import type { User, Workspace } from '../types.js';
import { parseOrThrow, throwIfProblems } from '../validation.js';
import { MAIL_TLS, type MailSettingsStore, type WorkspaceMailSettings } from './mail-settings-store.js';
import type { OutgoingMessage } from './messages.js';

/**
 * A workspace's own SMTP server (Settings → Mail, admins only). Its alert email goes through it when
 * set; otherwise through the deployment's (LOOKOUT_SMTP_*); with neither, email fails at once with
 * NO_MAIL_TRANSPORT. The password must be read back to log in, so it cannot be hashed: it is sealed
 * by a SecretBox (AES-256-GCM when the deployment has a key), write-only through the API, never logged.
 */

/** What an email delivery fails with, permanently, when there is nothing to send it with. */
export const NO_MAIL_TRANSPORT =
  'No mail transport configured: an admin sets the workspace’s SMTP server under Settings → Mail (or the operator sets LOOKOUT_SMTP_HOST).';

/** The context a workspace's SMTP password is sealed in: it opens for that workspace only. */
export const passwordContext = (workspaceId: string) => `mail-settings:${workspaceId}:password`;

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?)*\.?$/i;
const isHost = (h: string) => HOST_NAME.test(h) || isIP(h.replace(/^\[|\]$/g, '')) !== 0;

const ATOM = '[^\\s<>@",;:()\\[\\]\\\\]+';
const ADDRESS = `${ATOM}@${ATOM}`;
/** `a@example.com`, `Ops <a@example.com>` or `"Ops, EU" <a@example.com>`; never a line break or two addresses. */
const FROM = new RegExp(`^(?:${ADDRESS}|(?:"[^"\\r\\n]{0,200}"|[^<>"\\r\\n,;]{0,200})\\s*<${ADDRESS}>)$`);

const noLineBreak = (s: string) => !/[\r\n]/.test(s);

export const mailSettingsBody = z.strictObject({
  host: z
    .string()
    .trim()
    .min(1)
    .max(253)
    .refine(isHost, 'must be a host name or an IP address, without scheme or port'),
  port: z.number().int().min(1).max(65535),
  tls: z.enum(MAIL_TLS).describe('starttls (587, 25; required), tls (465) or none'),
  username: z.string().min(1).max(256).refine(noLineBreak, 'must be one line').nullable().optional(),
  password: z
    .string()
    .min(1)
    .max(1024)
    .nullable()
    .optional()
    .describe('Write-only. Omitted: the stored one is kept; null: removed.'),
  from_address: z
    .string()
    .trim()
    .min(3)
    .max(320)
    .refine(
      (s) => FROM.test(s),
      'must be an address, or a name and an address: Lookout <alerts@example.com>',
    ),
});

/** The body, or one 422 naming every bad field, a password without a username among them. */
const parseWithPassword = (input: unknown) => {
  const raw = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const problems =
    typeof raw.password === 'string' && (raw.username === undefined || raw.username === null)
      ? [{ field: 'password', message: 'needs a username: set one, or leave the password out' }]
      : [];
  try {
    const body = parseOrThrow(mailSettingsBody, input);
    throwIfProblems(problems);
    return body;
  } catch (e) {
    if (!isAppError(e) || e.code !== 'validation_failed') throw e;
    const named = new Set(e.details.map((d) => d.field));
    throw validationError([...e.details, ...problems.filter((p) => !named.has(p.field))]);
  }
};

/**
 * Validates and stores a workspace's settings, whole; every bad field in one 422. The password is
 * kept when omitted, but only for the server and user name it was entered for: changing the host or
 * the user name without entering it again is a 422, so a stored password can never be sent elsewhere.
 * Removing the user name removes the password (no login).
 */
export const saveMailSettings = async (
  deps: { store: MailSettingsStore; box: SecretBox },
  workspaceId: string,
  by: string,
  input: unknown,
  now: Date,
): Promise<WorkspaceMailSettings> => {
  const body = parseWithPassword(input);
  const host = body.host.toLowerCase();
  const username = body.username ?? null;
  const old = await deps.store.getMailSettings(workspaceId);
  let sealed: string | null = null;
  if (typeof body.password === 'string') {
    sealed = deps.box.seal(body.password, passwordContext(workspaceId));
  } else if (body.password === undefined && username && old?.password_sealed) {
    if (old.host !== host || old.username !== username)
      throwIfProblems([
        {
          field: 'password',
          message:
            'enter the password again: the host or username changed, and a stored password is only sent to the server and user it was entered for',
        },
      ]);
    sealed = old.password_sealed;
  }
  const settings: WorkspaceMailSettings = {
    workspace_id: workspaceId,
    host,
    port: body.port,
    tls: body.tls,
    username,
    password_sealed: sealed,
    from_address: body.from_address,
    updated_at: now,
    updated_by: by,
  };
  await deps.store.putMailSettings(settings);
  return settings;
};

/** Where a workspace's email goes now. */
export type MailTransportSource = 'workspace' | 'deployment' | 'none';

export const transportSource = (
  own: WorkspaceMailSettings | null,
  deploymentTransport: boolean,
): MailTransportSource => (own ? 'workspace' : deploymentTransport ? 'deployment' : 'none');

export const mailTestBody = z.strictObject({
  to: z.email().max(320).optional().describe('Default: the calling admin’s own address.'),
});

export const mailTestMessage = (
  workspace: Pick<Workspace, 'subdomain'>,
  by: Pick<User, 'email'>,
  source: MailTransportSource,
): OutgoingMessage => ({
  event: 'test',
  dedup_key: 'mail-test',
  alert: null,
  subject: `[Lookout ${workspace.subdomain}] Test email`,
  text: `This is a test email from Lookout, sent by ${by.email} through ${
    source === 'workspace' ? 'the workspace’s own SMTP server' : 'the deployment’s SMTP server'
  }. Alert email reaches you the same way. Nothing is wrong.`,
  payload: { event: 'test', workspace: workspace.subdomain },
});
