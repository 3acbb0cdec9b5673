/** How the connection to an SMTP server is secured. */
export const MAIL_TLS = ['starttls', 'tls', 'none'] as const;
/**
 * `starttls`: plain connect, then STARTTLS, required (587, 25); `tls`: TLS from the first byte (465);
 * `none`: no TLS at all (a relay on a private network).
 */
export type MailTls = (typeof MAIL_TLS)[number];

/** A workspace's own SMTP server for its alert email (Settings → Mail); one per workspace. */
export interface WorkspaceMailSettings {
  workspace_id: string;
  host: string;
  port: number;
  tls: MailTls;
  username: string | null;
  /** The password as the secret box sealed it (domain/notifications/mail-settings.ts); never the clear text. Null: none. */
  password_sealed: string | null;
  /** `addr@example.com` or `Name <addr@example.com>`. */
  from_address: string;
  updated_at: Date;
  /** The admin who saved them last. */
  updated_by: string;
}

/**
 * Workspace mail settings. Adapters: store/sqlite/mail-settings.ts, store/mongo/mail-settings.ts.
 */
export interface MailSettingsStore {
  getMailSettings(workspaceId: string): Promise<WorkspaceMailSettings | null>;
  /** Creates or replaces the workspace's settings (the last write wins). */
  putMailSettings(settings: WorkspaceMailSettings): Promise<void>;
  /** Returns false when the workspace had none. */
  deleteMailSettings(workspaceId: string): Promise<boolean>;
}
