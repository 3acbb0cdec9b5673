import type { Heartbeat, HeartbeatState, Ping } from '../types.js';
import type { HeartbeatStep } from './heartbeat-store.js';
import { nextExpectedAfter } from './schedule.js';

/**
 * Every heartbeat rule, in one place: what a ping does to a heartbeat (touchPing), what the deadline
 * job decides (evaluateHeartbeat) and stores (afterStep), what a manual resolve (rearmHeartbeat) and
 * an edit (afterEdit) do. The store adapters carry fast paths of these rules (one SQL UPDATE, one
 * MongoDB update pipeline); test/contract/heartbeat-rules.test.ts runs generated sequences through
 * these functions and through each adapter and compares the heartbeats after every step.
 *
 * States: new (no ping yet) → up → late (period passed, within grace) → down (period + grace passed,
 * or a run overran its grace, or the job reported a failure); paused while `paused` is set.
 */

/** One heartbeat update a ping causes (SQLite: the named parameters of touchHeartbeatSql). Times in ms. */
export interface PingTouch {
  id: string;
  at: number;
  received: number;
  kind: Ping['kind'];
  rid: string | null;
}

/**
 * What each ping of a batch does to its heartbeat, in arrival order; plain successes (no run id) for
 * the same heartbeat with nothing else in between fold into one (the latest time wins, as last_ping_at
 * only moves forward).
 */
export const pingTouches = (batch: Ping[]): PingTouch[] => {
  const out: PingTouch[] = [];
  const plain = new Map<string, PingTouch>();
  for (const p of batch) {
    const t: PingTouch = {
      id: p.heartbeat_id,
      at: p.at.getTime(),
      received: p.received_at.getTime(),
      kind: p.kind,
      rid: p.rid ?? null,
    };
    const prev = plain.get(p.heartbeat_id);
    if (p.kind === 'success' && !p.rid) {
      if (prev) {
        prev.at = Math.max(prev.at, t.at);
        prev.received = Math.max(prev.received, t.received);
        continue;
      }
      plain.set(p.heartbeat_id, t);
    } else plain.delete(p.heartbeat_id);
    out.push(t);
  }
  return out;
};

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

/**
 * A ping's effect on its heartbeat; null when it moves nothing (the ping itself is still logged).
 * - A ping's time never moves a heartbeat backwards: a success or fail older than last_ping_at, or a
 *   start older than last_ping_at or the pending run's start, changes nothing. So last_ping_at and
 *   every deadline derived from it only move forward, and the state is that of the newest ping.
 * - success: last_ping_at becomes the ping's time; state up; a run it finishes (same run id, or either
 *   side without one) ends, and its duration becomes last_duration_ms; due_at becomes the next deadline
 *   (last ping + period, or an unfinished run's start + grace if sooner), or the time received when an
 *   alert is open, so the job resolves it. A cron heartbeat (`schedule` set) is due at the time
 *   received too: the next run comes from its calendar, which only the deadline job reads
 *   (evaluateHeartbeat), so the store's one-statement fast path needs no calendar.
 * - fail: like success, but state down and due at once so the job raises the alert (unless one is open:
 *   then no deadline, the outage is already alerted).
 * - start: a run begins; due_at becomes start + grace if that is sooner (unless the heartbeat is down
 *   with its alert open: an overrun adds nothing to that outage). State unchanged.
 * - success and fail clear rearmed_at (set when a person resolved the alert of a heartbeat still
 *   down): a fail then makes it due at once and the job raises a new alert.
 * - A paused heartbeat records pings (last ping, run) but keeps its state and has no deadline.
 */
export const touchPing = (h: Heartbeat, t: PingTouch): Heartbeat | null => {
  const last = h.last_ping_at?.getTime() ?? null;
  const started = h.started_at?.getTime() ?? null;
  if (last !== null && t.at < last) return null;
  if (t.kind === 'start' && started !== null && t.at < started) return null;
  const grace = h.grace_seconds * 1000;
  const period = h.period_seconds * 1000;
  const state_version = h.state_version + 1;
  if (t.kind === 'start') {
    const runDue = t.at + grace;
    const due_at = h.paused
      ? null
      : h.state === 'down' && h.alert_id
        ? h.due_at
        : date(Math.min(h.due_at?.getTime() ?? runDue, runDue));
    return { ...h, started_at: date(t.at), start_rid: t.rid, due_at, state_version };
  }
  const ends = t.rid === null || h.start_rid === null || h.start_rid === t.rid;
  let due: number | null;
  if (h.paused) due = null;
  else if (t.kind === 'fail') due = h.alert_id ? null : t.received;
  else if (h.alert_id || h.schedule) due = t.received;
  else if (ends || started === null) due = t.at + period;
  else due = Math.min(t.at + period, started + grace);
  const state: HeartbeatState = h.paused ? h.state : t.kind === 'fail' ? 'down' : 'up';
  return {
    ...h,
    last_ping_at: date(t.at),
    started_at: ends ? null : h.started_at,
    start_rid: ends ? null : h.start_rid,
    state,
    rearmed_at: null,
    due_at: date(due),
    last_duration_ms:
      ends && started !== null && t.at >= started ? t.at - started : (h.last_duration_ms ?? null),
    state_version,
  };
};

export type DownReason = 'missed' | 'run_overdue' | 'failed';

export interface HeartbeatVerdict {
  state: HeartbeatState;
  /** When to look again; null when only a ping can change anything. */
  due_at: Date | null;
  /** Raise an alert for this reason (the heartbeat is down and has none open). */
  raise: DownReason | null;
  /** Resolve the heartbeat's alert (it recovered). */
  resolve: boolean;
}

/** What the heartbeat is at `now`, and when it must be looked at next. Pure. */
export const evaluateHeartbeat = (h: Heartbeat, now: Date): HeartbeatVerdict => {
  // Pausing silences: no deadline, and an open alert is resolved. Resuming waits for a first ping.
  if (h.paused) return { state: 'paused', due_at: null, raise: null, resolve: Boolean(h.alert_id) };
  if (h.state === 'paused') return { state: 'new', due_at: null, raise: null, resolve: Boolean(h.alert_id) };
  const t = now.getTime();
  const grace = h.grace_seconds * 1000;
  // A new heartbeat (or one resumed after a pause) waits for its first ping; only a run can overrun.
  // Late from the next expected time after the last ping (its period, or its schedule's next run).
  const lateAt =
    h.last_ping_at && h.state !== 'new' ? (nextExpectedAfter(h, h.last_ping_at)?.getTime() ?? null) : null;
  const downAt = lateAt === null ? null : lateAt + grace;
  const runDownAt = h.started_at ? h.started_at.getTime() + grace : null;
  if (h.state === 'down' && !h.alert_id && h.rearmed_at) return afterManualResolve(h, t, grace, runDownAt);
  let state: HeartbeatState = h.state;
  let reason: DownReason = 'failed';
  // Down is left only by a success ping (in the ping write), never by the clock.
  if (state !== 'down') {
    if (downAt !== null && t >= downAt) {
      state = 'down';
      reason = 'missed';
    } else if (runDownAt !== null && t >= runDownAt) {
      state = 'down';
      reason = 'run_overdue';
    } else if (lateAt !== null && t >= lateAt) state = 'late';
    else if (lateAt !== null) state = 'up';
  }
  if (state === 'down') {
    return { state, due_at: null, raise: h.alert_id ? null : reason, resolve: false };
  }
  const next = [lateAt, downAt, runDownAt].filter((x): x is number => x !== null && x > t);
  return {
    state,
    due_at: next.length > 0 ? new Date(Math.min(...next)) : null,
    raise: null,
    resolve: Boolean(h.alert_id),
  };
};

/**
 * A heartbeat still down whose alert someone resolved (spec 3.2: it stays resolved, and the source's
 * next failure raises a new alert). The next failure is a /fail (the ping clears `rearmed_at`, so the
 * usual rule raises), no ping by the next expected time after the resolve + grace, or a run started since that
 * overruns its grace. Until then it stays down with nothing to raise; an edit changes nothing.
 */
const afterManualResolve = (
  h: Heartbeat,
  t: number,
  grace: number,
  runDownAt: number | null,
): HeartbeatVerdict => {
  const expected = nextExpectedAfter(h, h.rearmed_at!);
  const downAt = expected === null ? null : expected.getTime() + grace;
  const reason: DownReason | null =
    downAt !== null && t >= downAt ? 'missed' : runDownAt !== null && t >= runDownAt ? 'run_overdue' : null;
  if (reason) return { state: 'down', due_at: null, raise: reason, resolve: false };
  const next = [downAt, runDownAt].filter((x): x is number => x !== null && x > t);
  return {
    state: 'down',
    due_at: next.length > 0 ? new Date(Math.min(...next)) : null,
    raise: null,
    resolve: false,
  };
};

/**
 * The heartbeat after a deadline step that won its compare-and-set (stepHeartbeat): the verdict's state
 * and due_at; the alert it raised (or found open under the same key) becomes `alert_id`, which clears
 * rearmed_at; a resolve forgets the alert.
 */
export const afterStep = (
  h: Heartbeat,
  step: Pick<HeartbeatStep, 'next' | 'at' | 'resolve'>,
  raisedAlertId: string | null,
): Heartbeat => ({
  ...h,
  state: step.next.state,
  due_at: step.next.due_at,
  alert_id: raisedAlertId ?? (step.resolve ? null : h.alert_id),
  rearmed_at: raisedAlertId ? null : h.rearmed_at,
  updated_at: step.at,
  state_version: h.state_version + 1,
});

/**
 * A person resolved the heartbeat's alert (resolveAlert, in the same transaction): the heartbeat
 * forgets it and is due at once; if it is still down, `rearmed_at` records when, so that its next
 * failure raises a new alert (see afterManualResolve). Applies only while `alert_id` is that alert.
 */
export const rearmHeartbeat = (h: Heartbeat, at: Date): Heartbeat => ({
  ...h,
  alert_id: null,
  rearmed_at: h.state === 'down' ? at : h.rearmed_at,
  due_at: at,
  state_version: h.state_version + 1,
});

/** What pings and the deadline job own on a heartbeat: an edit leaves these as they are. */
export const HEARTBEAT_RUNTIME_FIELDS = [
  'state',
  'last_ping_at',
  'started_at',
  'start_rid',
  'alert_id',
  'rearmed_at',
  'due_at',
  'state_version',
  'last_duration_ms',
] as const satisfies readonly (keyof Heartbeat)[];

/**
 * An edit (updateHeartbeat, compare-and-set on `version`) replaces the settings but leaves what pings
 * and the deadline job own as they are, and makes the heartbeat due at `next.updated_at`, so the job
 * re-evaluates it with the new period, grace or pause.
 */
export const afterEdit = (h: Heartbeat, next: Heartbeat): Heartbeat => {
  const edited: Heartbeat = { ...next, id: h.id, workspace_id: h.workspace_id };
  for (const f of HEARTBEAT_RUNTIME_FIELDS) (edited as unknown as Record<string, unknown>)[f] = h[f];
  return { ...edited, due_at: next.updated_at, state_version: h.state_version + 1 };
};
