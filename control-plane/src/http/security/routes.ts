import { AppError } from '@lookout/shared';
import type { SecondFactorStore } from '../../domain/access/second-factor-store.js';
import { hasSecondFactor } from '../../domain/access/sign-in-challenge.js';
import {
  codeInput,
  confirmTotpSetup,
  newRecoveryCodes,
  requireCurrentCode,
  startTotpSetup,
} from '../../domain/access/totp.js';
import { workspaceSecurityInput } from '../../domain/access/workspace-security.js';
import { parseOrThrow } from '../../domain/validation.js';
import { type RouteDeps, route } from '../route.js';
import { recoveryCodesResponse, totpSetupResponse, workspaceSecurityResponse } from './responses.js';

/** Your own two-factor sign-in (TOTP, recovery codes) and the workspace's require_2fa. */
export const securityRoutes = ({ store, clock, box }: RouteDeps<SecondFactorStore>) => [
  route({
    method: 'post',
    path: '/me/totp',
    audit: { action: 'user.totp_setup', resource_type: 'user', self: true },
    tag: 'Security',
    auth: 'session',
    response: totpSetupResponse,
    summary:
      'Start setting up an authenticator app: a new secret (pending until confirmed with POST /me/totp/confirm; calling this again replaces a pending one), its otpauth:// URL and a QR code (SVG) of it.',
    responses: { 409: 'An authenticator app is already set up (turn it off first)' },
    async handler({ auth }) {
      return startTotpSetup(store, box, auth.user, clock.now());
    },
  }),
  route({
    method: 'post',
    path: '/me/totp/confirm',
    audit: { action: 'user.totp_enable', resource_type: 'user', self: true },
    tag: 'Security',
    auth: 'session',
    body: codeInput,
    response: recoveryCodesResponse,
    summary:
      'Confirm the pending authenticator with a current code: two-factor sign-in is on from now, and 10 recovery codes are returned, this once (each works once in place of a code; only their hashes are kept).',
    responses: { 409: 'Nothing pending to confirm', 422: 'The code is not correct' },
    async handler({ auth, body }) {
      return confirmTotpSetup(store, box, auth.user, body, clock.now());
    },
  }),
  route({
    method: 'delete',
    path: '/me/totp',
    audit: { action: 'user.totp_disable', resource_type: 'user', self: true },
    tag: 'Security',
    auth: 'session',
    body: codeInput,
    response: null,
    status: 204,
    summary:
      'Turn the authenticator app off (a current code, or a recovery code, is needed). Recovery codes go too unless a passkey remains. Refused while the workspace requires two-factor and this is your only factor.',
    responses: {
      409: 'No authenticator app is set up, or the workspace requires two-factor and this is your only factor',
      422: 'The code is not correct',
    },
    async handler({ auth, body }) {
      const u = auth.user;
      const factors = await store.getSecondFactors(u.workspace_id, u.id);
      const only = factors.passkeys === 0;
      if (only && (await store.getWorkspaceSecurity(u.workspace_id)).require_2fa && hasSecondFactor(factors))
        throw new AppError('conflict', ONLY_FACTOR);
      await requireCurrentCode(store, box, u, body, clock.now());
      await store.deleteTotp(u.workspace_id, u.id, !only);
      return undefined;
    },
  }),
  route({
    method: 'post',
    path: '/me/recovery-codes',
    audit: { action: 'user.recovery_codes_regenerate', resource_type: 'user', self: true },
    tag: 'Security',
    auth: 'session',
    body: codeInput,
    response: recoveryCodesResponse,
    summary:
      'Replace your recovery codes by 10 new ones, returned this once (a current authenticator code, or a recovery code, is needed); the old ones stop working.',
    responses: { 409: 'No authenticator app is set up', 422: 'The code is not correct' },
    async handler({ auth, body }) {
      const now = clock.now();
      await requireCurrentCode(store, box, auth.user, body, now);
      const { plain, records } = newRecoveryCodes(auth.user, now);
      await store.replaceRecoveryCodes(auth.user.workspace_id, auth.user.id, records);
      return { recovery_codes: plain };
    },
  }),
  route({
    method: 'get',
    path: '/security',
    tag: 'Security',
    role: 'admin',
    response: workspaceSecurityResponse,
    summary:
      'The workspace’s sign-in policy: `require_2fa` (every password user must set up a second factor).',
    async handler({ auth }) {
      const s = await store.getWorkspaceSecurity(auth.workspace.id);
      return { require_2fa: s.require_2fa };
    },
  }),
  route({
    method: 'put',
    path: '/security',
    tag: 'Security',
    role: 'admin',
    body: workspaceSecurityInput,
    response: workspaceSecurityResponse,
    summary:
      'Set the workspace’s sign-in policy. With `require_2fa`, a user without a second factor is led to set one up at their next password sign-in (until then their session reaches only that). API keys, agent tokens and SSO sign-ins (the identity provider owns MFA) are not affected.',
    async handler({ auth, body }) {
      const { require_2fa } = parseOrThrow(workspaceSecurityInput, body);
      await store.putWorkspaceSecurity({ workspace_id: auth.workspace.id, require_2fa });
      return { require_2fa };
    },
  }),
];

const ONLY_FACTOR =
  'This workspace requires two-factor sign-in and the authenticator app is your only factor: add a passkey before turning it off.';
