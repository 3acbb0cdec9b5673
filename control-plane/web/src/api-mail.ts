import { call } from './api.js';

/** Settings → Mail: the workspace's own SMTP server (admins only). */

export type MailTls = 'starttls' | 'tls' | 'none';
export type MailTransport = 'workspace' | 'deployment' | 'none';

export interface MailSettings {
  /** Where the workspace's email goes now. */
  transport: MailTransport;
  deployment_transport: boolean;
  settings: {
    host: string;
    port: number;
    tls: MailTls;
    username: string | null;
    password_set: boolean;
    from_address: string;
    updated_at: string;
  } | null;
}

/** What PUT takes: `password` omitted keeps the stored one, null removes it. */
export interface MailSettingsBody {
  host: string;
  port: number;
  tls: MailTls;
  username: string | null;
  password?: string | null;
  from_address: string;
}

export interface MailTestResult {
  ok: boolean;
  outcome: 'sent' | 'failed';
  transport: MailTransport;
  to: string;
  status_code: number | null;
  error: string | null;
  would_retry: boolean;
}

export const mailApi = {
  get: () => call<MailSettings>('GET', '/settings/mail'),
  save: (body: MailSettingsBody) => call<MailSettings>('PUT', '/settings/mail', body),
  remove: () => call<void>('DELETE', '/settings/mail'),
  test: (to?: string) => call<MailTestResult>('POST', '/settings/mail/test', to ? { to } : {}),
};
