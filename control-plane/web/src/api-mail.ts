import { type Body, ok, type Schemas } from '../../src/api-client/client.js';
import { client } from './api.js';

/** Settings → Mail: the workspace's own SMTP server (admins only). */

export type MailSettings = Schemas['MailSettings'];
export type MailTransport = MailSettings['transport'];
/** What PUT takes: `password` omitted keeps the stored one, null removes it. */
export type MailSettingsBody = Body<'/settings/mail', 'put'>;
export type MailTls = MailSettingsBody['tls'];

export const mailApi = {
  get: () => ok(client.GET('/settings/mail')),
  save: (body: MailSettingsBody) => ok(client.PUT('/settings/mail', { body })),
  remove: () => ok(client.DELETE('/settings/mail')),
  test: (to?: string) => ok(client.POST('/settings/mail/test', { body: to ? { to } : {} })),
};

export type MailTestResult = Awaited<ReturnType<typeof mailApi.test>>;
