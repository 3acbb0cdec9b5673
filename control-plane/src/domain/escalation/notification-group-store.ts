/**
 * Grouped notifications waiting to be sent (domain/escalation/group-window.ts has the rule,
 * group-flush.ts sends them). One group per (workspace, policy, recipient); each notification an
 * escalation step or follow-up would have sent on its own is queued in it as an item, keyed by that
 * notification's idempotency key, so a step run twice queues it once. The whole state lives in the
 * store: a restart or crash loses nothing queued, and replicas take a due group by compare-and-set
 * with a lease, as they take a due escalation step.
 * Adapters: store/sqlite/notification-groups.ts, store/mongo/notification-groups.ts.
 */
export interface GroupedItem {
  /** The idempotency key the notification would have had on its own (escalation-timing.ts). */
  id: string;
  workspace_id: string;
  /** The group's id (`groupId`). */
  group_id: string;
  alert_id: string;
  event: 'raised' | 'acknowledged' | 'resolved';
  /** The escalation step and round of a raised notification; null for a follow-up. */
  step: number | null;
  round: number | null;
  created_at: Date;
}

export interface NotificationGroup {
  /** `<workspace>:<policy>:<recipient key>` (groupId). */
  id: string;
  workspace_id: string;
  policy_id: string;
  /** `channel:<id>`, `user:<id>` or `user:<id>:<contact method id>` (domain/escalation/recipients.ts). */
  recipient_key: string;
  /** When the waiting items are sent; null when none wait (or while idle). */
  due_at: Date | null;
  /** When the last summary went out; the group window counts from it. */
  last_flush_at: Date | null;
  /** The replica holding the due flush; its lease ends at `due_at`. */
  claim: string | null;
  updated_at: Date;
}

export const groupId = (workspaceId: string, policyId: string, recipientKey: string) =>
  `${workspaceId}:${policyId}:${recipientKey}`;

export interface NotificationGroupStore {
  /**
   * One step: stores `item` (nothing when an item with its id is already queued: returns false; the
   * caller skips what the delivery log says was sent) and makes its group due by the window rule: a group already due keeps its time; an idle
   * one is due at `last_flush_at + intervalMs` when that is still ahead, else at `now + waitMs`.
   */
  queueGroupedItem(
    item: GroupedItem,
    group: Pick<NotificationGroup, 'policy_id' | 'recipient_key'>,
    timing: { now: Date; waitMs: number; intervalMs: number },
  ): Promise<boolean>;
  /** Groups due at or before `at`, soonest first (indexed, no scan). */
  listDueGroups(at: Date, limit: number): Promise<NotificationGroup[]>;
  /**
   * Compare-and-set: only while the group is still due at `expectedDueAt`, sets the claim and moves
   * `due_at` to `leaseUntil` (a replica that dies holding it is replaced after the lease).
   */
  claimGroup(
    id: string,
    expectedDueAt: Date,
    claim: string,
    leaseUntil: Date,
  ): Promise<NotificationGroup | null>;
  /** The group's waiting items, oldest first, at most `limit`. */
  listGroupItems(id: string, limit: number): Promise<GroupedItem[]>;
  /**
   * Compare-and-set on the claim: the flush at `at` is done. Deletes `itemIds` (sent, or dropped as no
   * longer worth sending), records `last_flush_at` = `at` and frees the claim; the group is due again
   * at `at + intervalMs` if items still wait (more than one flush takes, or queued while it ran), else
   * it is idle. One step with the queueing, so nothing queued meanwhile is left without a due time.
   * False when the lease was taken over.
   */
  finishGroup(
    id: string,
    claim: string,
    done: { itemIds: string[]; at: Date; intervalMs: number },
  ): Promise<boolean>;
  /** Deletes up to `limit` idle groups (nothing waiting) last flushed before `before`; returns how many. */
  pruneNotificationGroups(before: Date, limit: number): Promise<number>;
}
