import type { SecretBox } from '@lookout/shared';
import { NO_MAIL_TRANSPORT, passwordContext } from '../domain/notifications/mail-settings.js';
import type {
  MailSettingsStore,
  WorkspaceMailSettings,
} from '../domain/notifications/mail-settings-store.js';
import type { SmtpSettings } from './email.js';

/** The SMTP server one email goes through, and whose it is; or why there is none. */
export type MailRoute =
  | { smtp: SmtpSettings; source: 'workspace' | 'deployment' }
  | { smtp: null; error: string };

export interface MailRouter {
  /** A workspace's own server when it has one, else the deployment's; no workspace: the deployment's. */
  route(workspaceId: string | undefined): Promise<MailRoute>;
}

const starttls = { starttls: 'required', tls: 'opportunistic', none: 'never' } as const;

/**
 * Workspace settings as a transport. The SSRF guard applies to them (an admin of any workspace
 * names the host); the deployment's own server is the operator's configuration and is not guarded.
 */
const workspaceSmtp = (
  s: WorkspaceMailSettings,
  password: string | undefined,
  opts: { timeoutMs: number; blockPrivate: boolean },
): SmtpSettings => ({
  host: s.host,
  port: s.port,
  secure: s.tls === 'tls',
  starttls: starttls[s.tls],
  user: s.username ?? undefined,
  password,
  from: s.from_address,
  timeoutMs: opts.timeoutMs,
  publicOnly: opts.blockPrivate,
});

export const createMailRouter = (deps: {
  /** The deployment's server (LOOKOUT_SMTP_*), or null when none is configured. */
  deployment: SmtpSettings | null;
  /** Where workspaces keep their own, and what opens their passwords; without, every email goes through the deployment's. */
  workspaces?: { store: MailSettingsStore; box: SecretBox };
  timeoutMs: number;
  blockPrivate: boolean;
}): MailRouter => ({
  async route(workspaceId) {
    const ws = deps.workspaces;
    const own = workspaceId && ws ? await ws.store.getMailSettings(workspaceId) : null;
    if (own) {
      let password: string | undefined;
      if (own.password_sealed !== null) {
        try {
          password = ws!.box.open(own.password_sealed, passwordContext(own.workspace_id));
        } catch (e) {
          return {
            smtp: null,
            error: `The workspace’s SMTP password cannot be read: ${(e as Error).message}. An admin enters it again under Settings → Mail.`,
          };
        }
      }
      return { smtp: workspaceSmtp(own, password, deps), source: 'workspace' };
    }
    if (deps.deployment) return { smtp: deps.deployment, source: 'deployment' };
    return { smtp: null, error: NO_MAIL_TRANSPORT };
  },
});
