import { type Body, ok, type Schemas } from '../../src/api-client/client.js';
import { client } from './api.js';

/** Settings → Single sign-on (admins), and how the sign-in page may sign in (anyone). */

export type SsoSettings = Schemas['SsoSettings'];
/** What PUT takes: `oidc.client_secret` omitted keeps the stored one, null removes it. */
export type SsoSettingsBody = Body<'/sso', 'put'>;
export type SessionOptions = Schemas['SessionOptions'];

export const ssoApi = {
  get: () => ok(client.GET('/sso')),
  save: (body: SsoSettingsBody) => ok(client.PUT('/sso', { body })),
  options: () => ok(client.GET('/session/options')),
};
