import type { Heartbeat, Ping } from '../types.js';
import { expectedRunsBetween, nextExpectedAfter, nextRunAfter } from './schedule.js';

/**
 * When the heartbeat's next ping is expected, as its record shows (`next_expected_at`): after its last
 * ping, the period later or the schedule's next run; before its first ping, a cron heartbeat's next
 * run (a period heartbeat has no expectation yet); none while paused.
 */
export const nextExpectedAt = (h: Heartbeat, now: Date): Date | null => {
  if (h.paused) return null;
  if (h.last_ping_at && h.state !== 'new') return nextExpectedAfter(h, h.last_ping_at);
  return h.schedule ? nextRunAfter(h.schedule, h.timezone || 'UTC', now) : null;
};

/** How many recent finishing pings the too-often rule looks at. */
export const TOO_OFTEN_SAMPLE = 10;

/**
 * A job that pings far too often: among its last TOO_OFTEN_SAMPLE finishing pings (success or fail),
 * more pings followed the oldest than twice the runs expected in that time plus two (the tolerance:
 * a retry, a run by hand). Such a job is flagged on its record, never alerted: it is running, just not
 * as scheduled (a crontab `* * * * *` where `0 3 * * *` was meant, a loop). `recent`: newest first.
 */
export const pingsTooOften = (h: Heartbeat, recent: Ping[]): boolean => {
  const finishes = recent.filter((p) => p.kind !== 'start').slice(0, TOO_OFTEN_SAMPLE);
  if (finishes.length < TOO_OFTEN_SAMPLE) return false;
  const newest = finishes[0]!.at;
  const oldest = finishes[finishes.length - 1]!.at;
  const expected = expectedRunsBetween(h, oldest, newest, TOO_OFTEN_SAMPLE);
  return finishes.length - 1 > 2 * expected + 2;
};

/**
 * The start each finishing ping ended, for the ping log's durations (`pings`: newest first, one page):
 * a finish with a run id pairs with the start of that run; a finish without one pairs with the start
 * just before it when no other finish came in between (a /start, then the job's success or exit status).
 */
export const runStarts = (pings: Ping[]): Map<Ping, Ping> => {
  const out = new Map<Ping, Ping>();
  const byRid = new Map(pings.filter((p) => p.kind === 'start' && p.rid).map((p) => [p.rid, p]));
  pings.forEach((p, i) => {
    if (p.kind === 'start') return;
    let start: Ping | undefined;
    if (p.rid) start = byRid.get(p.rid);
    else {
      const before = pings[i + 1];
      if (before?.kind === 'start') start = before;
    }
    if (start && start.at <= p.at) out.set(p, start);
  });
  return out;
};
