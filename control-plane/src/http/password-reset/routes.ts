import { AppError } from '@lookout/shared';
import { z } from 'zod';
import {
  type AccountMailer,
  confirmPasswordReset,
  confirmResetInput,
  type PasswordResetStore,
  parseResetRequest,
  passwordResetInput,
  RESET_MESSAGES,
  RESET_MINUTES,
  type SsoEnforcementLookup,
  sendPasswordReset,
} from '../../domain/access/password-reset.js';
import { createRateLimiter } from '../../domain/access/rate-limiter.js';
import { currentAuditDraft } from '../../domain/audit/audit-scope.js';
import type { TenancyStore } from '../../domain/tenancy/tenancy-store.js';
import { accountMailer } from '../../notify/account-mailer.js';
import { type RouteDeps, route } from '../route.js';
import { createBackgroundQueue } from './background-queue.js';

type ResetPorts = PasswordResetStore &
  Pick<TenancyStore, 'getUser' | 'getUserByEmail'> &
  SsoEnforcementLookup;

/** An hourly limit of `perHour` (burst of the same size), or none for 0. */
const hourly = (perHour: number) =>
  perHour > 0 ? createRateLimiter({ capacity: perHour, perSecond: perHour / 3600, maxKeys: 100_000 }) : null;

/** Password reset by email: ask for a link (auth none, same answer for every address), then use it. */
export const passwordResetRoutes = ({
  store,
  clock,
  config,
  logger,
  mail,
  workspaceUrl,
}: RouteDeps<ResetPorts>) => {
  const send: AccountMailer = accountMailer(mail);
  const perAddress = hourly(config.password_reset_per_address_per_hour);
  const perClient = hourly(config.password_reset_per_client_per_hour);
  const log = logger.child({ component: 'password-reset' });
  // The lookup, the link and the mail happen after the answer, so it takes as long for any address.
  const queue = createBackgroundQueue({
    concurrency: 4,
    maxPending: 1000,
    onError: (err) => log.error({ err }, 'password reset not sent'),
    onDropped: () => log.warn('password reset queue full: a request was dropped'),
  });

  const limit = (limiter: ReturnType<typeof hourly>, key: string, nowMs: number, what: string) => {
    if (!limiter) return;
    const taken = limiter.take(key, nowMs);
    if (!taken.ok)
      throw new AppError(
        'rate_limited',
        `Too many password reset requests ${what}; try again in ${taken.retryAfterSeconds} s.`,
        [],
        { retryAfterSeconds: taken.retryAfterSeconds },
      );
  };

  return [
    route({
      method: 'post',
      path: '/password-reset',
      tag: 'Session',
      auth: 'none',
      summary: `Ask for a password reset link by email. Always 202 with the same body, whether an account has this address or not; when one has (and has a password, and the workspace does not enforce SSO unless it names the user as break-glass), a link valid ${RESET_MINUTES} minutes, for one use, is mailed through the workspace's mail settings or the deployment's SMTP server. Limited per address and per client (429 with Retry-After).`,
      body: passwordResetInput,
      status: 202,
      audit: {
        none: 'Asking for a link changes nothing; the reset is recorded when its link is used (POST /password-reset/confirm)',
      },
      response: z.strictObject({ message: z.string() }),
      responses: {
        202: 'Accepted (the same whether the address is known or not)',
        404: 'No workspace at this address',
        429: 'Too many requests for this email address or from this client',
      },
      async handler({ ctx, body }) {
        const ws = ctx.state.workspace;
        if (!ws) throw new AppError('not_found', 'No workspace at this address.');
        const email = parseResetRequest(body);
        const nowMs = clock.now().getTime();
        limit(perClient, ctx.ip, nowMs, 'from your address');
        limit(perAddress, `${ws.id}:${email}`, nowMs, 'for this email address');
        queue.push(async () => {
          const r = await sendPasswordReset(
            { store, sso: store, send, baseUrl: workspaceUrl(ws.subdomain) },
            ws,
            email,
            clock.now(),
          );
          if (typeof r === 'object')
            log.warn({ workspace_id: ws.id, error: r.failed }, 'password reset mail failed');
        });
        return { message: RESET_MESSAGES.accepted };
      },
    }),
    route({
      method: 'post',
      path: '/password-reset/confirm',
      tag: 'Session',
      auth: 'none',
      summary: `Set a new password with the token of a reset link (at least 12 characters). Ends every session of the user, on every browser; the link is spent in the same step. An unknown, used, expired or incomplete token is one 422 on \`token\`.`,
      body: confirmResetInput,
      status: 204,
      // The entry names the user whose password was set, as its actor and its resource.
      audit: { action: 'user.password_reset', resource_type: 'user' },
      response: null,
      responses: {
        204: 'Password set; every session of the user ended',
        404: 'No workspace at this address',
        422: 'The token is not valid (used, expired, unknown), or the new password is too short',
      },
      async handler({ ctx, body }) {
        const ws = ctx.state.workspace;
        if (!ws) throw new AppError('not_found', 'No workspace at this address.');
        await confirmPasswordReset(store, ws, body, clock.now(), async (userId) => {
          const draft = currentAuditDraft();
          if (!draft) return;
          const user = await store.getUser(ws.id, userId);
          draft.resource_id = userId;
          draft.actor = { type: 'user', id: userId, name: user?.email ?? userId };
        });
        return undefined;
      },
    }),
  ];
};
