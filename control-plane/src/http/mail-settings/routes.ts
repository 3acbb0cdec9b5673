import { newId } from '@lookout/shared';
import { z } from 'zod';
import {
  mailSettingsBody,
  mailTestBody,
  mailTestMessage,
  saveMailSettings,
  transportSource,
} from '../../domain/notifications/mail-settings.js';
import {
  MAIL_TLS,
  type MailSettingsStore,
  type WorkspaceMailSettings,
} from '../../domain/notifications/mail-settings-store.js';
import { emailTarget, retryable } from '../../domain/notifications/messages.js';
import { parseOrThrow } from '../../domain/validation.js';
import { responseSchemas, time } from '../responses.js';
import { type RouteDeps, route } from '../route.js';

const TAG = 'Mail settings';

/** The workspace's mail settings as admins see them: never the password, only whether one is set. */
const mailSettingsResponse = z
  .strictObject({
    transport: z.enum(['workspace', 'deployment', 'none']),
    deployment_transport: z.boolean(),
    settings: z
      .strictObject({
        host: z.string(),
        port: z.number().int(),
        tls: z.enum(MAIL_TLS),
        username: z.string().nullable(),
        password_set: z.boolean(),
        from_address: z.string(),
        updated_at: time,
      })
      .nullable(),
  })
  .register(responseSchemas, { id: 'MailSettings' });

/**
 * Settings → Mail (admins only): the workspace's own SMTP server for its alert email. The password
 * is write-only: answers say only whether one is stored.
 */
export const mailSettingsRoutes = ({
  store,
  clock,
  config,
  box,
  dispatcher,
}: RouteDeps<MailSettingsStore>) => {
  const deploymentTransport = config.smtp_host !== undefined;
  const view = (own: WorkspaceMailSettings | null) => ({
    transport: transportSource(own, deploymentTransport),
    deployment_transport: deploymentTransport,
    settings: own && {
      host: own.host,
      port: own.port,
      tls: own.tls,
      username: own.username,
      password_set: own.password_sealed !== null,
      from_address: own.from_address,
      updated_at: own.updated_at.toISOString(),
    },
  });
  return [
    route({
      method: 'get',
      path: '/settings/mail',
      tag: TAG,
      response: mailSettingsResponse,
      summary:
        'Where the workspace’s email goes: `transport` is `workspace` (its own SMTP server, in `settings`), `deployment` (the server the operator configured) or `none` (email fails at once, saying so). The password is never returned: `password_set` says whether one is stored.',
      role: 'admin',
      async handler({ auth }) {
        return view(await store.getMailSettings(auth.workspace.id));
      },
    }),
    route({
      method: 'put',
      path: '/settings/mail',
      audit: { action: 'mail_settings.update', resource_type: 'mail_settings' },
      tag: TAG,
      response: mailSettingsResponse,
      summary:
        'Set the workspace’s own SMTP server, whole: `host`, `port`, `tls` (`starttls`, `tls` or `none`), `username`, `password` (write-only: omitted keeps the stored one, null removes it; the host or username cannot change without entering it again), `from_address`. Its alert email goes through it from then on.',
      role: 'admin',
      body: mailSettingsBody,
      async handler({ auth, body }) {
        return view(
          await saveMailSettings({ store, box }, auth.workspace.id, auth.user.id, body, clock.now()),
        );
      },
    }),
    route({
      method: 'delete',
      path: '/settings/mail',
      audit: { action: 'mail_settings.delete', resource_type: 'mail_settings' },
      tag: TAG,
      response: null,
      summary:
        'Remove the workspace’s own SMTP server (its password with it): its email goes through the deployment’s server again, if there is one.',
      role: 'admin',
      status: 204,
      async handler({ auth }) {
        await store.deleteMailSettings(auth.workspace.id);
        return undefined;
      },
    }),
    route({
      method: 'post',
      path: '/settings/mail/test',
      audit: { action: 'mail_settings.test', resource_type: 'mail_settings', noRecord: true },
      tag: TAG,
      response: z.strictObject({
        ok: z.boolean(),
        outcome: z.enum(['sent', 'failed']),
        transport: z.enum(['workspace', 'deployment', 'none']),
        to: z.string(),
        status_code: z.number().int().nullable(),
        error: z.string().nullable(),
        would_retry: z.boolean(),
      }),
      summary:
        'Send one test email now, through the server the workspace’s alert email uses, to `to` or else the calling admin, and answer with the outcome: `ok`, `outcome` (sent or failed), `transport`, `to`, `status_code` (the SMTP reply code, if any), `error` and `would_retry` (whether an alert email would try again after this failure). Never retried.',
      role: 'admin',
      body: mailTestBody,
      async handler({ auth, body }) {
        const { to } = parseOrThrow(mailTestBody, body ?? {});
        const recipient = to ?? auth.user.email;
        const source = transportSource(await store.getMailSettings(auth.workspace.id), deploymentTransport);
        const deliveryId = `test:${newId()}`;
        const result = await dispatcher.send(
          emailTarget([recipient], auth.workspace.id),
          mailTestMessage(auth.workspace, auth.user, source),
          deliveryId,
          async () => {},
          { maxAttempts: 1 },
        );
        return {
          ok: result.ok,
          outcome: result.ok ? 'sent' : 'failed',
          transport: source,
          to: recipient,
          status_code: result.status_code,
          error: result.error,
          would_retry: retryable(result),
        };
      },
    }),
  ];
};
