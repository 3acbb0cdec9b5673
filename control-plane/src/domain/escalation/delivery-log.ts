import type { Clock } from '@lookout/shared';
import { newId } from '@lookout/shared';
import type { AlertStore } from '../alerts/alert-store.js';
import type { Attempt, Dispatcher } from '../notifications/messages.js';
import type { Alert, Delivery } from '../types.js';
import type { Recipient } from './recipients.js';

/** The delivery-log row of one attempt of a notification about `alert`. */
export const deliveryRow = (
  alert: Pick<Alert, 'id' | 'workspace_id'>,
  r: Pick<Recipient, 'channel_id' | 'user_id' | 'target'>,
  at: { step: number | null; round: number | null; key: string },
  attempt: { n: number; result: Attempt; willRetry: boolean; target: string; now: Date },
): Delivery => ({
  id: newId(),
  workspace_id: alert.workspace_id,
  alert_id: alert.id,
  channel_id: r.channel_id,
  user_id: r.user_id,
  kind: r.target.kind,
  target: attempt.target,
  step: at.step,
  round: at.round,
  attempt: attempt.n,
  outcome: attempt.result.ok ? 'sent' : attempt.willRetry ? 'retrying' : 'failed',
  permanent: attempt.result.permanent,
  status_code: attempt.result.status_code,
  error: attempt.result.error,
  idempotency_key: at.key,
  remote_id: attempt.result.remote_id ?? null,
  test: false,
  at: attempt.now,
});

/**
 * Logs one attempt of a notification: the delivery log and the alert's timeline. A runner that has
 * been stopped gives up a retry (the step stays due, and another replica takes it over).
 */
export const deliveryLog =
  ({
    store,
    clock,
    dispatcher,
    stopped,
  }: {
    store: Pick<AlertStore, 'insertDelivery'>;
    clock: Clock;
    dispatcher: Pick<Dispatcher, 'describe'>;
    stopped: () => boolean;
  }) =>
  (
    alert: Alert,
    r: Pick<Recipient, 'channel_id' | 'user_id' | 'target'>,
    at: { step: number | null; round: number | null; key: string },
  ) =>
  async (n: number, result: Attempt, willRetry: boolean) => {
    if (stopped() && willRetry) throw new Error('escalation runner stopped');
    await store.insertDelivery(
      deliveryRow(alert, r, at, {
        n,
        result,
        willRetry,
        target: dispatcher.describe(r.target),
        now: clock.now(),
      }),
    );
  };
