import type { SecretBox } from '@lookout/shared';
import { createSecretBox } from '@lookout/shared';
import { openConfig } from '../domain/notifications/channel-kinds.js';
import type { Attempt, Dispatcher, OutgoingMessage, Target } from '../domain/notifications/messages.js';
import { permanentFailure, type RetryOptions, withRetries } from './attempt.js';
import { httpAttempt } from './http-client.js';
import { NOTIFIERS } from './kinds/index.js';
import type { MailRouter } from './mail-route.js';
import type { AnyNotifier, NotifyContext } from './notifier.js';

export interface DispatcherOptions {
  /** Which SMTP server an email goes through: its workspace's own, the deployment's, or none. */
  mail: MailRouter;
  retry: RetryOptions;
  timeoutMs: number;
  /** Refuse destinations on private or loopback addresses (SSRF guard), for every kind. */
  blockPrivate?: boolean;
  /** Opens channel secrets (default: a box without a key, which opens only values stored unsealed). */
  box?: SecretBox;
  /** For signatures, Retry-After dates and rendered times. */
  now: () => Date;
  /** The kinds (default: all of notify/kinds/). */
  notifiers?: Readonly<Record<string, AnyNotifier>>;
}

/**
 * Every kind behind one interface. Per notification: the target's secrets are opened, its kind
 * renders the message, and each attempt is sent through the kind's `send` (HTTP through the
 * SSRF-guarded client, email through mail-route.ts), classified by the kind (ok / worth retrying /
 * permanent) and retried with exponential backoff — never sooner than a Retry-After asked.
 */
export const createDispatcher = (opts: DispatcherOptions): Dispatcher => {
  const notifiers = opts.notifiers ?? NOTIFIERS;
  const box = opts.box ?? createSecretBox(undefined);
  const blockPrivate = opts.blockPrivate ?? false;

  const prepare = (target: Target): { n: AnyNotifier; config: Record<string, unknown> } | Attempt => {
    const n = notifiers[target.kind];
    if (!n) return permanentFailure(`Notification kind ${target.kind} is not available.`);
    try {
      const opened = openConfig(box, n, target.workspace_id ?? '', target.config);
      const parsed = n.config.safeParse(opened);
      return { n, config: (parsed.success ? parsed.data : opened) as Record<string, unknown> };
    } catch (e) {
      return permanentFailure(`The channel's settings cannot be used: ${(e as Error).message}`);
    }
  };

  return {
    async send(target, message: OutgoingMessage, deliveryId, onAttempt, call) {
      const maxAttempts = Math.min(opts.retry.maxAttempts, call?.maxAttempts ?? Number.POSITIVE_INFINITY);
      const ready = prepare(target);
      if (!('n' in ready)) {
        await onAttempt(1, ready, false);
        return ready;
      }
      const { n, config } = ready;
      const rendered = n.render(config, message);
      const memo: Record<string, unknown> = {};
      return withRetries(
        () => {
          const now = opts.now();
          const ctx: NotifyContext = {
            http: (c, classify) =>
              httpAttempt(
                c,
                { timeoutMs: opts.timeoutMs, blockPrivate: blockPrivate && !target.operator_address, now },
                classify ?? n.classify,
              ),
            mail: opts.mail,
            workspace_id: target.workspace_id,
            delivery_id: deliveryId,
            signing_secret: target.signing_secret ?? null,
            now,
            timeoutMs: opts.timeoutMs,
            memo,
          };
          return n.send(config, rendered, ctx);
        },
        { ...opts.retry, maxAttempts },
        onAttempt,
      );
    },
    describe(target) {
      const n = notifiers[target.kind];
      if (!n) return target.kind;
      try {
        return n.describe(openConfig(box, n, target.workspace_id ?? '', target.config));
      } catch {
        return target.kind;
      }
    },
    follows: (kind) => notifiers[kind]?.follows ?? [],
    grouping: (kind) => notifiers[kind]?.grouping ?? 'per_alert',
  };
};
