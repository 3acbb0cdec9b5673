import type { Clock } from '@lookout/shared';
import { newId } from '@lookout/shared';
import type { AckLinkStore } from '../alerts/ack-link-store.js';
import { ackLinkPath, mintAckLink } from '../alerts/ack-links.js';
import type { AlertStore } from '../alerts/alert-store.js';
import type { ContactServices } from '../contacts/contact-methods.js';
import type { PolicyLookup } from '../lookups.js';
import { GROUP_LIST_MAX, type GroupEntry, groupMessage } from '../notifications/group-message.js';
import type { Dispatcher, MessageContext } from '../notifications/messages.js';
import type { Alert } from '../types.js';
import { deliveryRow } from './delivery-log.js';
import type { GroupTiming } from './group-window.js';
import type { GroupedItem, NotificationGroup, NotificationGroupStore } from './notification-group-store.js';
import { type Recipient, type RecipientStore, recipientByKey } from './recipients.js';

/** The most notifications one summary takes; more wait for the next (one interval later). */
const FLUSH_MAX = 10_000;
/** Delivery-log rows written in one store step. */
const LOG_SLICE = 250;

export interface GroupFlushDeps {
  store: NotificationGroupStore & AlertStore & AckLinkStore & PolicyLookup & RecipientStore;
  clock: Clock;
  dispatcher: Dispatcher;
  services: ContactServices;
  timing: GroupTiming;
  leaseMs: number;
  batch?: number | undefined;
  contextOf: (alert: Alert) => Promise<MessageContext>;
  /** A group holding one notification sends it as it would have gone alone (escalation-runner.ts). */
  sendOne: (item: GroupedItem, alert: Alert, r: Recipient) => Promise<void>;
  stopped: () => boolean;
  onError?: ((err: unknown, groupId: string) => void) | undefined;
}

/**
 * Sends the due groups (group-window.ts), each claimed by compare-and-set first, as escalation steps
 * are: one summary per group, or the single notification as it would have gone alone. What the
 * summary names is logged in each alert's delivery log under the key it would have had on its own,
 * so the alert's timeline shows it and its follow-ups (acknowledged, resolved) find whom it reached.
 * At least once: a replica that dies mid-flush leaves the claim, and the group is sent again after the
 * lease. Notifications about alerts that moved on meanwhile (raised, then acknowledged or resolved
 * before the summary) are dropped: the follow-up tells the rest.
 */
export const createGroupFlush = (deps: GroupFlushDeps) => {
  const { store, clock, dispatcher } = deps;

  const alertsOf = async (workspaceId: string, items: GroupedItem[]) => {
    const ids = [...new Set(items.map((i) => i.alert_id))];
    const found = new Map<string, Alert>();
    for (let i = 0; i < ids.length; i += 50) {
      const some = await Promise.all(ids.slice(i, i + 50).map((id) => store.getAlert(workspaceId, id)));
      for (const a of some) if (a) found.set(a.id, a);
      // A synchronous store (SQLite) answers without yielding: let requests in between.
      if (i % 500 === 450) await new Promise((r) => setImmediate(r));
    }
    return found;
  };

  /** Still worth telling: a raised alert still open, an acknowledged one not resolved since. */
  const current = (i: GroupedItem, a: Alert | undefined) =>
    a !== undefined && (i.event === 'raised' ? a.status === 'open' : a.status === i.event);

  const sendSummary = async (
    g: NotificationGroup,
    items: GroupedItem[],
    alerts: Map<string, Alert>,
    r: Recipient,
    claim: string,
  ) => {
    const now = clock.now();
    // One line per alert and event (a repeat round queues the same alert again), raised first.
    const seen = new Set<string>();
    const unique = items.filter((i) => {
      const k = `${i.alert_id}:${i.event}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    unique.sort((a, b) => Number(a.event !== 'raised') - Number(b.event !== 'raised'));
    const entries: GroupEntry[] = [];
    let ctx: MessageContext | null = null;
    for (const [n, i] of unique.entries()) {
      const alert = alerts.get(i.alert_id)!;
      // Only the alerts the message names are looked up by name.
      const c: MessageContext | null = n < GROUP_LIST_MAX || !ctx ? await deps.contextOf(alert) : null;
      ctx ??= c;
      entries.push({
        alert,
        event: i.event,
        source: c?.source ?? { label: `${alert.source_type} ${alert.source_id}`, path: null },
      });
    }
    const openIds = entries.filter((e) => e.event === 'raised').map((e) => e.alert.id);
    const ackUrl =
      ctx?.appUrl && openIds.length > 0
        ? `${ctx.appUrl}${ackLinkPath(
            openIds[0]!,
            await mintAckLink(
              store,
              { id: openIds[0]!, workspace_id: g.workspace_id },
              { user_id: r.user_id, channel_id: r.channel_id, via: r.target.kind, recipient: r.name },
              now,
              openIds,
            ),
          )}`
        : null;
    const policy = await store.getEscalationPolicy(g.workspace_id, g.policy_id);
    const deliveryId = `group:${claim}`;
    const message = groupMessage(ctx!, policy, entries, deliveryId, now, ackUrl);
    const target = dispatcher.describe(r.target);
    await dispatcher.send(r.target, message, deliveryId, async (n, result, willRetry) => {
      if (deps.stopped() && willRetry) throw new Error('escalation runner stopped');
      // In slices, each its own write: a summary of thousands never holds the store (or, on SQLite, the
      // event loop) for one long transaction.
      for (let at = 0; at < items.length; at += LOG_SLICE)
        await store.insertDeliveries(
          items
            .slice(at, at + LOG_SLICE)
            .map((i) =>
              deliveryRow(
                { id: i.alert_id, workspace_id: g.workspace_id },
                r,
                { step: i.step, round: i.round, key: i.id },
                { n, result, willRetry, target, now: clock.now() },
              ),
            ),
        );
    });
  };

  const flush = async (g: NotificationGroup, claim: string) => {
    const items = await store.listGroupItems(g.id, FLUSH_MAX);
    const r = await recipientByKey(store, deps.services, g.workspace_id, g.recipient_key);
    const alerts = await alertsOf(g.workspace_id, items);
    const live = items.filter((i) => current(i, alerts.get(i.alert_id)));
    // A channel deleted (or a contact method no longer verified) meanwhile: nothing to send.
    if (r && live.length === 1) await deps.sendOne(live[0]!, alerts.get(live[0]!.alert_id)!, r);
    else if (r && live.length > 1) await sendSummary(g, live, alerts, r, claim);
    await store.finishGroup(g.id, claim, {
      itemIds: items.map((i) => i.id),
      at: clock.now(),
      intervalMs: deps.timing.intervalMs,
    });
  };

  /** One pass: every due group, each claimed by compare-and-set first. Returns how many this replica sent. */
  return async (): Promise<number> => {
    const due = await store.listDueGroups(clock.now(), deps.batch ?? 100);
    let ran = 0;
    for (const g of due) {
      if (deps.stopped() || !g.due_at) break;
      const claim = newId();
      const lease = new Date(clock.now().getTime() + deps.leaseMs);
      const claimed = await store.claimGroup(g.id, g.due_at, claim, lease);
      if (!claimed) continue;
      try {
        await flush(claimed, claim);
        ran++;
      } catch (err) {
        // The claim stays; the lease ends and the group is sent again.
        deps.onError?.(err, g.id);
      }
    }
    return ran;
  };
};
