import type { NotificationGroup } from './notification-group-store.js';

/**
 * The group window, Alertmanager's rule (`group_wait`, `group_interval`), per escalation policy and
 * recipient (a channel, a user's email or contact method):
 *
 * - The first notification of a burst waits `wait` (LOOKOUT_NOTIFY_GROUP_WAIT_SECONDS, default 5 s)
 *   for others; then one message lists all that arrived meanwhile.
 * - Notifications arriving after a message wait until `interval` (LOOKOUT_NOTIFY_GROUP_INTERVAL_SECONDS,
 *   default 60 s) after it, then go out together as the next summary. A storm longer than the window
 *   gets one summary per interval, never one message per alert.
 * - A group quiet for a whole interval starts over: the next notification waits `wait` again.
 * - A group holding a single notification sends it as it would have been sent alone.
 *
 * Kinds whose service deduplicates (PagerDuty, Opsgenie: `grouping: 'per_alert'` in notify/kinds/)
 * skip the window and get one event per alert at once. Interval 0 turns grouping off.
 */
export interface GroupTiming {
  waitMs: number;
  intervalMs: number;
}

/** When a group with `group`'s state is due once a notification is queued in it at `now`. */
export const groupDueAt = (
  group: Pick<NotificationGroup, 'due_at' | 'last_flush_at'> | null,
  now: Date,
  { waitMs, intervalMs }: GroupTiming,
): Date => {
  if (group?.due_at) return group.due_at;
  const next = group?.last_flush_at ? group.last_flush_at.getTime() + intervalMs : 0;
  return new Date(next > now.getTime() ? next : now.getTime() + waitMs);
};
