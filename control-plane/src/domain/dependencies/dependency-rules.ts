import type { AlertHold } from '../alerts/alert-hold-store.js';

/**
 * What a held alert becomes, as one pure rule (issue 53, "Dependencies"). A dependent that goes down
 * looks at its DIRECT dependencies only, as they are now: transitivity comes free, because a
 * suppressed dependent is itself `down` (its own dependents see it down).
 *
 * - The dependent is no longer down (or gone): the hold is dropped; no alert (resolution is never
 *   suppressed: there is nothing to resolve).
 * - A dependency is down: suppressed by the first one down (in `depends_on` order).
 * - It was suppressed and no dependency is down any more (it recovered): the dependent waits for its
 *   own next check (`since` = now); still down after it, it raises as usual.
 * - Held (it went down while its dependencies looked up): it waits until every dependency has been
 *   checked since it went down, and is not failing on its way down (the storm race: a dependent's
 *   verdict may arrive before its parent's), but never past `hold_until` = since + the longest time a
 *   dependency needs to decide (its interval, its retries, its timeout) + HOLD_GRACE_MS. Then it raises.
 */

/** What the decision knows of a source now (a dependent or a dependency). */
export interface SourceNow {
  id: string;
  /** `down` is all that suppresses; `late` (a heartbeat past its period, in its grace) is on its way. */
  status: 'up' | 'down' | 'pending' | 'paused' | 'maintenance' | 'late' | 'new';
  /** When it was last checked (a result received); a heartbeat is always current (now). */
  checked_at: Date | null;
  /** Its state is always current (a heartbeat: down until a ping says otherwise), no check to wait for. */
  current?: boolean;
  /** Its newest check failed though it is not down (yet): it is deciding. */
  failing: boolean;
  /** How long it may take from a failure to its verdict (ms): interval + retries + timeout, or grace. */
  settle_ms: number;
}

/** Added to the longest settle time of the dependencies: results in flight, the job's own period. */
export const HOLD_GRACE_MS = 15_000;
/** How often a held source looks again while it waits (its dependencies' verdicts come any moment). */
export const HOLD_POLL_MS = 2_000;
/** How often a suppressed source looks again at its dependency (at most; its interval if shorter). */
export const SUPPRESSED_RECHECK_MS = 30_000;

export type HoldDecision =
  | { action: 'drop' }
  | { action: 'suppress'; by: string; next: AlertHold }
  | { action: 'hold'; next: AlertHold; released: boolean }
  | { action: 'raise' };

const waitsOn = (d: SourceNow, since: Date) =>
  d.status !== 'paused' &&
  d.status !== 'maintenance' &&
  (d.failing || d.status === 'late' || d.checked_at === null || d.checked_at.getTime() < since.getTime());

export const decideHold = (
  hold: AlertHold,
  self: SourceNow | null,
  deps: SourceNow[],
  now: Date,
): HoldDecision => {
  if (self?.status !== 'down') return { action: 'drop' };
  const t = now.getTime();
  const down = deps.find((d) => d.status === 'down');
  if (down)
    return {
      action: 'suppress',
      by: down.id,
      next: {
        ...hold,
        state: 'suppressed',
        suppressed_by: down.id,
        hold_until: null,
        due_at: new Date(t + Math.min(SUPPRESSED_RECHECK_MS, Math.max(HOLD_POLL_MS, self.settle_ms))),
        version: hold.version + 1,
      },
    };
  // The dependency recovered: a source whose state is always current (a heartbeat) is still down, so it
  // raises; a monitor's own next check decides.
  if (hold.state === 'suppressed' && self.current) return { action: 'raise' };
  if (hold.state === 'suppressed') {
    return {
      action: 'hold',
      released: true,
      next: {
        ...hold,
        state: 'released',
        suppressed_by: null,
        since: now,
        hold_until: new Date(t + self.settle_ms + HOLD_GRACE_MS),
        due_at: new Date(t + HOLD_POLL_MS),
        version: hold.version + 1,
      },
    };
  }
  const until =
    hold.hold_until?.getTime() ??
    hold.since.getTime() + Math.max(0, ...deps.map((d) => d.settle_ms)) + HOLD_GRACE_MS;
  const waiting =
    hold.state === 'released'
      ? self.checked_at === null || self.checked_at.getTime() <= hold.since.getTime()
      : deps.some((d) => waitsOn(d, hold.since));
  if (!waiting || t >= until) return { action: 'raise' };
  return {
    action: 'hold',
    released: false,
    next: {
      ...hold,
      hold_until: new Date(until),
      due_at: new Date(Math.min(until, t + HOLD_POLL_MS)),
      version: hold.version + 1,
    },
  };
};
