import type { Clock } from '@lookout/shared';
import { newId } from '@lookout/shared';
import type { AckLinkStore } from '../alerts/ack-link-store.js';
import { ackLinkPath, mintAckLink } from '../alerts/ack-links.js';
import type { AlertStore } from '../alerts/alert-store.js';
import type { ContactMethodStore } from '../contacts/contact-method-store.js';
import { type ContactServices, contactTarget } from '../contacts/contact-methods.js';
import type { TenancyStore } from '../tenancy/tenancy-store.js';
import type { Alert, Delivery, EscalationProgress, EscalationStep } from '../types.js';
import { afterStep, idempotencyKey } from './escalation.js';
import {
  type Attempt,
  alertMessage,
  channelTarget,
  type Dispatcher,
  emailTarget,
  type FollowEvent,
  followUpMessage,
  type Target,
} from './notifications.js';
import type { RoutingStore } from './routing-store.js';

export interface EscalationRunnerDeps {
  store: AlertStore & RoutingStore & TenancyStore & AckLinkStore & ContactMethodStore;
  clock: Clock;
  dispatcher: Dispatcher;
  /**
   * A workspace's public base URL (public-url.ts): each recipient's notification then carries its own
   * one-click acknowledge link (domain/alerts/ack-links.ts). Without it, no link.
   */
  workspaceUrl?: (subdomain: string) => string;
  /**
   * The deployment's accounts behind users' SMS, Telegram and Pushover contact methods
   * (notify/contact-services.ts). Without it, only their email and ntfy methods are used.
   */
  contactServices?: ContactServices;
  /** A claimed step not advanced within this long is claimed again by any replica. */
  leaseMs: number;
  /** Due alerts handled per tick. */
  batch?: number;
  /** Steps run at once. */
  concurrency?: number;
  onError?: (err: unknown, alertId: string) => void;
  /**
   * How far back the first pass looks for alerts acknowledged or resolved (while no replica ran);
   * later passes overlap the previous one by a minute. Default one hour.
   */
  followLookbackMs?: number;
}

interface Recipient {
  /** For the idempotency key: `user:<id>` or `channel:<id>`. */
  key: string;
  user_id: string | null;
  channel_id: string | null;
  target: Target;
}

/**
 * The durable escalation scheduler, run by every replica. Each tick reads the due alerts (an indexed
 * query), claims each by compare-and-set (one replica wins; the claim moves the due time to the end
 * of a lease), sends the step's notifications, then advances by compare-and-set on the claim.
 *
 * At least once: a replica that dies after claiming leaves the step due again when the lease ends,
 * and whoever claims it next re-runs it — skipping every target whose delivery was already logged as
 * sent (idempotency key alert:round:step:target). Only a send whose success was not yet logged can
 * repeat; receivers can drop it by its `X-Lookout-Delivery` id.
 */
/** The idempotency key of a notification to a user's contact method ends `:user:<user id>:<method id>`. */
const METHOD_KEY = /:user:([0-9a-f-]{36}):([0-9a-f-]{36})$/;

export const createEscalationRunner = (deps: EscalationRunnerDeps) => {
  const { store, clock, dispatcher } = deps;
  const services = deps.contactServices ?? { telegram: null, twilio: null, pushover: null };
  let stopped = false;
  /** Alerts settled at or after this were looked at last (in this replica's memory only). */
  let followedUpTo: Date | null = null;

  const recipients = async (alert: Alert, step: EscalationStep): Promise<Recipient[]> => {
    const out: Recipient[] = [];
    for (const userId of step.notify_user_ids) {
      const user = await store.getUser(alert.workspace_id, userId);
      if (!user) continue;
      // Their account email always, and each of their own contact methods once verified.
      out.push({
        key: `user:${user.id}`,
        user_id: user.id,
        channel_id: null,
        target: emailTarget([user.email], alert.workspace_id),
      });
      for (const m of await store.listContactMethods(alert.workspace_id, user.id)) {
        const target = m.verified_at ? contactTarget(m, services) : null;
        if (target) out.push({ key: `user:${user.id}:${m.id}`, user_id: user.id, channel_id: null, target });
      }
    }
    for (const channelId of step.notify_channel_ids) {
      const channel = await store.getChannel(alert.workspace_id, channelId);
      if (channel)
        out.push({
          key: `channel:${channel.id}`,
          user_id: null,
          channel_id: channel.id,
          target: channelTarget(channel),
        });
    }
    return out;
  };

  const notify = async (alert: Alert, progress: EscalationProgress, claim: string, r: Recipient) => {
    const key = idempotencyKey(alert, progress, r.key);
    if (await store.hasSentDelivery(key)) return;
    // Acknowledged or resolved meanwhile, or our lease ran out and another replica took the step over:
    // stop here.
    const current = await store.getAlert(alert.workspace_id, alert.id);
    if (current?.status !== 'open' || current.escalation?.claim !== claim) return;
    const workspace = await store.getWorkspace(alert.workspace_id);
    const ackUrl =
      workspace && deps.workspaceUrl
        ? `${deps.workspaceUrl(workspace.subdomain)}${ackLinkPath(
            alert.id,
            await mintAckLink(
              store,
              alert,
              {
                user_id: r.user_id,
                channel_id: r.channel_id,
                via: r.target.kind,
                recipient: dispatcher.describe(r.target),
              },
              clock.now(),
            ),
          )}`
        : null;
    const message = alertMessage(
      workspace ?? { subdomain: '?' },
      current,
      progress,
      key,
      clock.now(),
      ackUrl,
    );
    await dispatcher.send(
      r.target,
      message,
      key,
      logAttempt(alert, r, { step: progress.step, round: progress.round, key }),
    );
  };

  /** Logs one attempt of a notification: the delivery log and the alert's timeline. */
  const logAttempt =
    (
      alert: Alert,
      r: Pick<Recipient, 'channel_id' | 'user_id' | 'target'>,
      at: { step: number | null; round: number | null; key: string },
    ) =>
    async (n: number, result: Attempt, willRetry: boolean) => {
      if (stopped && willRetry) throw new Error('escalation runner stopped');
      const d: Delivery = {
        id: newId(),
        workspace_id: alert.workspace_id,
        alert_id: alert.id,
        channel_id: r.channel_id,
        user_id: r.user_id,
        kind: r.target.kind,
        target: dispatcher.describe(r.target),
        step: at.step,
        round: at.round,
        attempt: n,
        outcome: result.ok ? 'sent' : willRetry ? 'retrying' : 'failed',
        permanent: result.permanent,
        status_code: result.status_code,
        error: result.error,
        idempotency_key: at.key,
        remote_id: result.remote_id ?? null,
        test: false,
        at: clock.now(),
      };
      await store.insertDelivery(d);
    };

  /**
   * Tells the channels an alert reached that it was acknowledged or resolved — those whose kind follows
   * that event (PagerDuty and Opsgenie both, chat kinds "resolved") — once per channel and event (key
   * alert:follow:event:channel:<id>, skipped when already sent). Only the alert's state now counts: an
   * alert acknowledged and then resolved between two passes is followed by "resolved" alone. Users'
   * verified contact methods it reached are told the same way (key …:user:<user>:<method>).
   */
  const followUp = async (alert: Alert) => {
    const event: FollowEvent = alert.status === 'resolved' ? 'resolved' : 'acknowledged';
    const log = await store.listDeliveries(alert.workspace_id, { alert_id: alert.id, limit: 1000 });
    const reached = [
      ...new Set(
        log
          .filter(
            (d) => d.outcome === 'sent' && d.channel_id !== null && !d.idempotency_key?.includes(':follow:'),
          )
          .map((d) => d.channel_id!),
      ),
    ];
    // Users' own contact methods it reached (key …:user:<user>:<method>), by kind as for channels.
    const methods = new Map<string, string>();
    for (const d of log) {
      const m = d.outcome === 'sent' && d.user_id ? METHOD_KEY.exec(d.idempotency_key ?? '') : null;
      if (m && !d.idempotency_key?.includes(':follow:')) methods.set(m[2]!, m[1]!);
    }
    const workspace = reached.length + methods.size > 0 ? await store.getWorkspace(alert.workspace_id) : null;
    for (const channelId of reached) {
      if (stopped) return;
      const channel = await store.getChannel(alert.workspace_id, channelId);
      if (!channel || !dispatcher.follows(channel.type).includes(event)) continue;
      const key = `${alert.id}:follow:${event}:channel:${channel.id}`;
      if (await store.hasSentDelivery(key)) continue;
      const target = channelTarget(channel);
      // The raised message there, when the service gave its id: the follow-up replies to it or edits it.
      const raised = log.findLast(
        (d) => d.channel_id === channel.id && d.outcome === 'sent' && d.step !== null && d.remote_id,
      );
      const message = followUpMessage(
        workspace ?? { subdomain: '?' },
        alert,
        event,
        key,
        clock.now(),
        raised?.remote_id ?? null,
      );
      await dispatcher.send(
        target,
        message,
        key,
        logAttempt(
          alert,
          { channel_id: channel.id, user_id: null, target },
          { step: null, round: null, key },
        ),
      );
    }
    for (const [methodId, userId] of methods) {
      if (stopped) return;
      const method = await store.getContactMethod(alert.workspace_id, userId, methodId);
      const target = method?.verified_at ? contactTarget(method, services) : null;
      if (!target || !dispatcher.follows(target.kind).includes(event)) continue;
      const key = `${alert.id}:follow:${event}:user:${userId}:${methodId}`;
      if (await store.hasSentDelivery(key)) continue;
      const raised = log.findLast(
        (d) =>
          d.outcome === 'sent' &&
          d.step !== null &&
          d.remote_id &&
          d.idempotency_key?.endsWith(`:user:${userId}:${methodId}`),
      );
      const message = followUpMessage(
        workspace ?? { subdomain: '?' },
        alert,
        event,
        key,
        clock.now(),
        raised?.remote_id ?? null,
      );
      await dispatcher.send(
        target,
        message,
        key,
        logAttempt(alert, { channel_id: null, user_id: userId, target }, { step: null, round: null, key }),
      );
    }
  };

  /** Runs the claimed step of `alert` and moves it on. */
  const runStep = async (alert: Alert, claim: string) => {
    let progress = alert.escalation!;
    let policy = await store.getEscalationPolicy(alert.workspace_id, progress.policy_id);
    if (!policy) {
      // Its policy was deleted meanwhile: the workspace default takes over, from its first step.
      policy = await store.getDefaultEscalationPolicy(alert.workspace_id);
      if (policy) progress = { ...progress, policy_id: policy.id, step: 0, round: 0 };
    }
    if (!policy) {
      await store.advanceEscalation(alert.workspace_id, alert.id, claim, {
        escalation: { ...progress, claim: null, finished: true },
        escalation_due_at: null,
      });
      return;
    }
    const step = policy.steps[progress.step];
    if (step) {
      const targets = await recipients(alert, step);
      await Promise.all(targets.map((r) => notify(alert, progress, claim, r)));
    }
    await store.advanceEscalation(
      alert.workspace_id,
      alert.id,
      claim,
      afterStep(policy, progress, clock.now()),
    );
  };

  return {
    /** One pass: every due step, each claimed by compare-and-set first. Returns how many this replica ran. */
    async tick(): Promise<number> {
      const now = clock.now();
      const due = await store.listDueEscalations(now, deps.batch ?? 100);
      let ran = 0;
      let next = 0;
      // A few steps at once, so one alert's slow retries do not hold up the others. Each is claimed
      // just before it runs, so its lease starts when its work does.
      const worker = async () => {
        for (let a = due[next++]; a && !stopped; a = due[next++]) {
          if (!a.escalation_due_at) continue;
          const claim = newId();
          const claimed = await store.claimEscalation(
            a.workspace_id,
            a.id,
            a.escalation_due_at,
            claim,
            new Date(clock.now().getTime() + deps.leaseMs),
          );
          if (!claimed) continue;
          try {
            await runStep(claimed, claim);
            ran++;
          } catch (err) {
            // The claim stays; the lease ends and the step is tried again.
            deps.onError?.(err, a.id);
          }
        }
      };
      await Promise.all(Array.from({ length: deps.concurrency ?? 8 }, worker));
      return ran;
    },
    /**
     * One pass over the alerts acknowledged or resolved since the last pass (overlapping it by a
     * minute): each is followed up on the channels it reached. Returns how many alerts were looked at.
     */
    async followTick(): Promise<number> {
      const now = clock.now();
      const since = followedUpTo ?? new Date(now.getTime() - (deps.followLookbackMs ?? 3_600_000));
      const settled = await store.listSettledAlerts(since, deps.batch ?? 100);
      for (const alert of settled) {
        if (stopped) break;
        try {
          await followUp(alert);
        } catch (err) {
          deps.onError?.(err, alert.id);
        }
      }
      const last = settled.at(-1)?.updated_at;
      // A full batch: go on from its last change. Else from a minute before now, so that a change
      // committed a little late is not missed (what was sent already is skipped by its key).
      followedUpTo =
        settled.length === (deps.batch ?? 100) && last
          ? last
          : new Date(Math.max(since.getTime(), now.getTime() - 60_000));
      return settled.length;
    },
    /** No new claims, no further retries (a step cut short is finished by another replica after its lease). */
    stop() {
      stopped = true;
    },
  };
};
