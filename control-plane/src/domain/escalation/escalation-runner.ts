import type { Clock } from '@lookout/shared';
import { newId } from '@lookout/shared';
import type { AckLinkStore } from '../alerts/ack-link-store.js';
import { ackLinkPath, mintAckLink } from '../alerts/ack-links.js';
import type { AlertStore } from '../alerts/alert-store.js';
import { afterStep, idempotencyKey } from '../alerts/escalation-timing.js';
import type { ContactMethodStore } from '../contacts/contact-method-store.js';
import type { ContactServices } from '../contacts/contact-methods.js';
import type { HeartbeatStore } from '../heartbeats/heartbeat-store.js';
import type { IntegrationStore } from '../integrations/integration-store.js';
import type { PolicyLookup } from '../lookups.js';
import type { MonitorStore } from '../monitors/monitor-store.js';
import type { ChannelStore } from '../notifications/channel-store.js';
import {
  alertMessage,
  type Dispatcher,
  type FollowEvent,
  followUpMessage,
  type StepInfo,
} from '../notifications/messages.js';
import type { TenancyStore } from '../tenancy/tenancy-store.js';
import type { Alert, EscalationPolicy, EscalationProgress } from '../types.js';
import { deliveryLog } from './delivery-log.js';
import { createGroupFlush } from './group-flush.js';
import type { GroupTiming } from './group-window.js';
import { messageContext } from './message-context.js';
import { type GroupedItem, groupId, type NotificationGroupStore } from './notification-group-store.js';
import { endedNote, resolveStep, type ScheduleReads, withNotes } from './on-call-targets.js';
import { type Recipient, recipientByKey } from './recipients.js';
import { nextSupportStart } from './support-hours.js';

export interface EscalationRunnerDeps {
  store: AlertStore &
    PolicyLookup &
    ChannelStore &
    TenancyStore &
    AckLinkStore &
    ContactMethodStore &
    NotificationGroupStore &
    Pick<MonitorStore, 'getMonitor'> &
    Pick<HeartbeatStore, 'getHeartbeat'> &
    Pick<IntegrationStore, 'getIntegration'> &
    ScheduleReads;
  clock: Clock;
  dispatcher: Dispatcher;
  /**
   * A workspace's public base URL (public-url.ts): each recipient's notification then carries its own
   * one-click acknowledge link (domain/alerts/ack-links.ts) and every message links to the alert's
   * page in the web app. Without it, no links (the alert's uuid is named).
   */
  workspaceUrl?: (subdomain: string) => string;
  /**
   * The deployment's accounts behind users' SMS, Telegram and Pushover contact methods
   * (notify/contact-services.ts). Without it, only their email and ntfy methods are used.
   */
  contactServices?: ContactServices;
  /**
   * Grouped notifications (group-window.ts): kinds whose `grouping` is `summary` get one message per
   * group window instead of one per alert. Absent, or an interval of 0: one message per alert.
   */
  grouping?: GroupTiming | undefined;
  /** A claimed step not advanced within this long is claimed again by any replica. */
  leaseMs: number;
  /** Due alerts handled per tick. */
  batch?: number;
  /** Steps run at once. */
  concurrency?: number;
  onError?: (err: unknown, alertId: string) => void;
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
/**
 * The recipient part that ends every notification's idempotency key: `channel:<id>`, `user:<id>` (their
 * account email) or `user:<id>:<contact method id>`.
 */
const RECIPIENT_KEY = /:(channel:[0-9a-f-]{36}|user:[0-9a-f-]{36}(?::[0-9a-f-]{36})?)$/;
const UUID = '[0-9a-f-]{36}';
const FOLLOW = new RegExp(`^${UUID}:follow:`);
/** A follow-up's claim token starts so; a step's is a bare uuid. */
const FOLLOW_CLAIM = 'follow:';

export const createEscalationRunner = (deps: EscalationRunnerDeps) => {
  const { store, clock, dispatcher } = deps;
  const services = deps.contactServices ?? { telegram: null, twilio: null, pushover: null };
  let stopped = false;

  const { contextOf, actorName } = messageContext(deps);

  const grouping = deps.grouping?.intervalMs ? deps.grouping : null;
  /** Whether `r` gets this notification in its group's next message instead of at once. */
  const grouped = (r: Recipient) => grouping !== null && dispatcher.grouping(r.target.kind) === 'summary';
  const queue = async (
    alert: Alert,
    policyId: string,
    r: Recipient,
    item: Pick<GroupedItem, 'id' | 'event' | 'step' | 'round'>,
  ) => {
    const now = clock.now();
    await store.queueGroupedItem(
      {
        ...item,
        workspace_id: alert.workspace_id,
        group_id: groupId(alert.workspace_id, policyId, r.key),
        alert_id: alert.id,
        created_at: now,
      },
      { policy_id: policyId, recipient_key: r.key },
      { now, ...grouping! },
    );
  };

  const notify = async (
    alert: Alert,
    progress: EscalationProgress,
    policy: Pick<EscalationPolicy, 'name' | 'steps'>,
    claim: string,
    r: Recipient,
  ) => {
    const key = idempotencyKey(alert, progress, r.key);
    if (await store.hasSentDelivery(key)) return;
    // Acknowledged or resolved meanwhile, or our lease ran out and another replica took the step over:
    // stop here.
    const current = await store.getAlert(alert.workspace_id, alert.id);
    if (current?.status !== 'open' || current.escalation?.claim !== claim) return;
    const at = { step: progress.step, round: progress.round };
    if (grouped(r)) return queue(current, progress.policy_id, r, { id: key, event: 'raised', ...at });
    await sendRaised(current, { ...at, policy: { name: policy.name, steps: policy.steps.length } }, r, key);
  };

  /** One notification of a raised alert, as it goes alone. */
  const sendRaised = async (current: Alert, progress: StepInfo, r: Recipient, key: string) => {
    const alert = current;
    const ctx = await contextOf(current);
    const ackUrl = ctx.appUrl
      ? `${ctx.appUrl}${ackLinkPath(
          alert.id,
          await mintAckLink(
            store,
            alert,
            { user_id: r.user_id, channel_id: r.channel_id, via: r.target.kind, recipient: r.name },
            clock.now(),
          ),
        )}`
      : null;
    const message = alertMessage(ctx, current, progress, key, clock.now(), ackUrl);
    await dispatcher.send(
      r.target,
      message,
      key,
      logAttempt(alert, r, { step: progress.step, round: progress.round, key }),
    );
  };

  const logAttempt = deliveryLog({ store, clock, dispatcher, stopped: () => stopped });

  /**
   * Tells everyone an alert reached that it was acknowledged or resolved: every channel, user email and
   * user contact method with a raised notification logged as sent, when its kind follows that event
   * (all kinds follow "resolved"; PagerDuty, Opsgenie and webhooks also "acknowledged"). Once per
   * recipient and event (key alert:follow:event:<recipient>, skipped when already sent). Only the
   * alert's state now counts: an alert acknowledged and then resolved before its follow-up ran is
   * followed by "resolved" alone. Returns false when stopped before it was done.
   */
  const followUp = async (alert: Alert): Promise<boolean> => {
    const event: FollowEvent = alert.status === 'resolved' ? 'resolved' : 'acknowledged';
    const log = await store.listDeliveries(alert.workspace_id, { alert_id: alert.id, limit: 1000 });
    const raised = log.filter(
      (d) => d.outcome === 'sent' && d.step !== null && !FOLLOW.test(d.idempotency_key ?? ''),
    );
    const reached = [
      ...new Set(
        raised.map((d) => RECIPIENT_KEY.exec(d.idempotency_key ?? '')?.[1]).filter((k) => k !== undefined),
      ),
    ];
    if (reached.length === 0) return true;
    const ctx = await contextOf(alert);
    const by = await actorName(
      alert,
      event === 'resolved' ? alert.resolved_by : alert.acknowledged_by,
      event,
    );
    const sends = [];
    for (const rk of reached) {
      if (stopped) return false;
      const r = await recipientByKey(store, services, alert.workspace_id, rk);
      if (!r || !dispatcher.follows(r.target.kind).includes(event)) continue;
      const key = `${alert.id}:follow:${event}:${rk}`;
      if (await store.hasSentDelivery(key)) continue;
      if (grouped(r) && alert.escalation) {
        await queue(alert, alert.escalation.policy_id, r, { id: key, event, step: null, round: null });
        continue;
      }
      // The raised message there, when the service gave its id: the follow-up replies to it or edits it.
      const first = raised.findLast((d) => d.remote_id && d.idempotency_key?.endsWith(`:${rk}`));
      const message = followUpMessage(ctx, alert, event, key, clock.now(), first?.remote_id ?? null, by);
      sends.push(
        dispatcher.send(r.target, message, key, logAttempt(alert, r, { step: null, round: null, key })),
      );
    }
    await Promise.all(sends);
    return !stopped;
  };

  /** A follow-up taken from a group that held only it: sent as it would have gone alone. */
  const sendFollow = async (alert: Alert, event: FollowEvent, r: Recipient, key: string) => {
    const log = await store.listDeliveries(alert.workspace_id, { alert_id: alert.id, limit: 1000 });
    const first = log.findLast(
      (d) =>
        d.outcome === 'sent' && d.step !== null && d.remote_id && d.idempotency_key?.endsWith(`:${r.key}`),
    );
    const by = await actorName(
      alert,
      event === 'resolved' ? alert.resolved_by : alert.acknowledged_by,
      event,
    );
    const ctx = await contextOf(alert);
    const message = followUpMessage(ctx, alert, event, key, clock.now(), first?.remote_id ?? null, by);
    await dispatcher.send(r.target, message, key, logAttempt(alert, r, { step: null, round: null, key }));
  };

  const flushGroups = createGroupFlush({
    store,
    clock,
    dispatcher,
    services,
    timing: grouping ?? { waitMs: 0, intervalMs: 0 },
    leaseMs: deps.leaseMs,
    batch: deps.batch,
    contextOf,
    stopped: () => stopped,
    onError: deps.onError,
    async sendOne(item, alert, r) {
      if (item.event !== 'raised') return sendFollow(alert, item.event, r, item.id);
      const policy = await store.getEscalationPolicy(alert.workspace_id, alert.escalation?.policy_id ?? '');
      const info = { step: item.step ?? 0, round: item.round ?? 0 };
      await sendRaised(
        alert,
        { ...info, ...(policy ? { policy: { name: policy.name, steps: policy.steps.length } } : {}) },
        r,
        item.id,
      );
    },
  });

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
    // A warning (or an integration's info) outside the policy's support hours waits for them;
    // critical alerts never wait.
    if (policy.support_hours && alert.severity !== 'critical') {
      const now = clock.now();
      const start = nextSupportStart(policy.support_hours, now);
      if (start.getTime() > now.getTime()) {
        await store.advanceEscalation(alert.workspace_id, alert.id, claim, {
          escalation: { ...progress, claim: null, deferred_until: start.toISOString() },
          escalation_due_at: start,
        });
        return;
      }
    }
    const step = policy.steps[progress.step];
    const at = { step: progress.step, round: progress.round, now: clock.now() };
    const found = step
      ? await resolveStep(store, services, alert.workspace_id, step, at)
      : { recipients: [], notes: [] };
    await Promise.all(found.recipients.map((r) => notify(alert, progress, policy, claim, r)));
    const next = afterStep(policy, { ...progress, deferred_until: null }, clock.now());
    // A step that reached nobody (its schedules had nobody on call) never waits out the next step's
    // wait in silence: the next step is due at once; the last step of the last round says it ended.
    const silent = step !== undefined && found.recipients.length === 0 && found.notes.length > 0;
    const notes = silent && next.escalation?.finished ? [...found.notes, endedNote(at)] : found.notes;
    await store.advanceEscalation(alert.workspace_id, alert.id, claim, {
      escalation: next.escalation && {
        ...next.escalation,
        ...(notes.length > 0 ? { on_call: withNotes(progress.on_call, notes) } : {}),
      },
      escalation_due_at: silent && next.escalation_due_at ? clock.now() : next.escalation_due_at,
    });
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
     * One pass over the acknowledged and resolved alerts whose follow-ups are due (the store made them
     * due in the same write as the acknowledge or resolve), each claimed by compare-and-set first and
     * finished by compare-and-set on its claim: the same at-least-once promise as a step (a replica
     * that dies holding one is replaced after the lease; what was already sent is skipped by its key).
     * Returns how many this replica ran.
     */
    async followTick(): Promise<number> {
      const due = await store.listDueFollowUps(clock.now(), deps.batch ?? 100);
      let ran = 0;
      let next = 0;
      const worker = async () => {
        for (let a = due[next++]; a && !stopped; a = due[next++]) {
          if (!a.escalation_due_at) continue;
          const claim = `${FOLLOW_CLAIM}${newId()}`;
          const stepClaim = a.escalation?.claim;
          if (stepClaim && !stepClaim.startsWith(FOLLOW_CLAIM)) {
            // Settled while a step was being sent (its claim is still there): wait one lease for its
            // sends to finish and be logged, so that everyone it reaches hears the follow-up too.
            const after = new Date(a.escalation_due_at.getTime() + deps.leaseMs);
            await store.claimFollowUp(a.workspace_id, a.id, a.escalation_due_at, claim, after);
            continue;
          }
          const lease = new Date(clock.now().getTime() + deps.leaseMs);
          const claimed = await store.claimFollowUp(a.workspace_id, a.id, a.escalation_due_at, claim, lease);
          if (!claimed) continue;
          try {
            // Stopped half-way: the claim stays, and another replica finishes it after the lease.
            if (await followUp(claimed)) {
              await store.finishFollowUp(a.workspace_id, a.id, claim, lease);
              ran++;
            }
          } catch (err) {
            deps.onError?.(err, a.id);
          }
        }
      };
      await Promise.all(Array.from({ length: deps.concurrency ?? 8 }, worker));
      return ran;
    },
    /**
     * One pass over the due notification groups (group-window.ts), each claimed by compare-and-set
     * first, with the same at-least-once promise as a step. Returns how many this replica sent.
     */
    groupTick: () => flushGroups(),
    /** No new claims, no further retries (a step cut short is finished by another replica after its lease). */
    stop() {
      stopped = true;
    },
  };
};
