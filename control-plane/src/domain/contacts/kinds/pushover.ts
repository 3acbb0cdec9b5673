import { z } from 'zod';
import { defineContactKind, hint } from './kind.js';

/** The user's key, sent with the deployment's application token (channel kind `pushover`). */
export default defineContactKind({
  type: 'pushover',
  label: 'Pushover',
  body: { user_key: z.string().regex(/^[A-Za-z0-9]{30}$/, 'must be your 30-character Pushover user key') },
  form: { user_key: { label: 'Pushover user key', input: 'key' } },
  response: { user_key: z.string() },
  shown: (a) => ({ user_key: hint(a.user_key) }),
  describe: (a) => `Pushover user ••••${a.user_key.slice(-4)}`,
  destination: (a) => a.user_key,
  codeDestination: (a) => `pushover:${a.user_key}`,
  service: { key: 'pushover', name: 'a Pushover application', setting: 'LOOKOUT_PUSHOVER_APP_TOKEN' },
  target: (a, { pushover: s }) =>
    s
      ? { kind: 'pushover', config: { user_key: a.user_key, app_token: s.app_token, api_url: s.api_url } }
      : null,
  operatorAddress: true,
});
