import type { AlertStore } from './alert-store.js';
import { newAlert } from './alerts.js';
import type { HeartbeatStore } from './heartbeat-store.js';
import type { RoutingStore } from './routing-store.js';
import type { Alert, Heartbeat, HeartbeatState, Ping } from './types.js';

/**
 * Heartbeat deadlines. States: new (no ping yet) → up → late (period passed, within grace) → down
 * (period + grace passed, or a run overran its grace, or the job reported a failure). Pings move a
 * heartbeat up (success) or down (fail) in the ping batch; everything time-driven is this module's:
 * the job reads only heartbeats whose stored `due_at` has come (an index, no scan), decides with the
 * pure `evaluateHeartbeat`, and stores the step by compare-and-set together with the alert it raises
 * or resolves. Two replicas may read the same heartbeat; one step wins, so one alert is raised.
 * A person resolving the alert of a heartbeat still down re-arms it (the store sets `rearmed_at`,
 * clears `alert_id` and makes it due): its next failure raises a new alert (see afterManualResolve).
 */

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
  const period = h.period_seconds * 1000;
  const grace = h.grace_seconds * 1000;
  // A new heartbeat (or one resumed after a pause) waits for its first ping; only a run can overrun.
  const lateAt = h.last_ping_at && h.state !== 'new' ? h.last_ping_at.getTime() + period : null;
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
 * usual rule raises), no ping within one period + grace of the resolve, or a run started since that
 * overruns its grace. Until then it stays down with nothing to raise; an edit changes nothing.
 */
const afterManualResolve = (
  h: Heartbeat,
  t: number,
  grace: number,
  runDownAt: number | null,
): HeartbeatVerdict => {
  const downAt = h.rearmed_at!.getTime() + h.period_seconds * 1000 + grace;
  const reason: DownReason | null =
    t >= downAt ? 'missed' : runDownAt !== null && t >= runDownAt ? 'run_overdue' : null;
  if (reason) return { state: 'down', due_at: null, raise: reason, resolve: false };
  const next = [downAt, runDownAt].filter((x): x is number => x !== null && x > t);
  return {
    state: 'down',
    due_at: next.length > 0 ? new Date(Math.min(...next)) : null,
    raise: null,
    resolve: false,
  };
};

const duration = (seconds: number): string => {
  if (seconds === 0) return '0 s';
  if (seconds % 86_400 === 0) return `${seconds / 86_400} d`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
};

const describePing = (p: Ping): string =>
  `${p.at.toISOString()} (${p.kind}${p.exit_status != null ? `, exit status ${p.exit_status}` : ''}${p.rid ? `, run ${p.rid}` : ''})`;

/** Title and description of a heartbeat's alert; the last ping's body (the job's output) is shown. */
export const heartbeatAlertText = (
  h: Heartbeat,
  reason: DownReason,
  last: Ping | null,
): { title: string; description: string } => {
  const name = `"${h.display_name}"`;
  const title =
    reason === 'failed'
      ? `${name} reported a failure${last?.exit_status ? ` (exit status ${last.exit_status})` : ''}`
      : reason === 'run_overdue'
        ? `${name} started a run that did not finish within ${duration(h.grace_seconds)}`
        : `${name} missed its deadline`;
  const lines = [
    `Expected a ping every ${duration(h.period_seconds)} with ${duration(h.grace_seconds)} of grace.`,
    h.last_ping_at
      ? `Last ping: ${last ? describePing(last) : h.last_ping_at.toISOString()}.`
      : 'No ping yet.',
  ];
  if (reason === 'run_overdue' && h.started_at) {
    lines.push(`Run started at ${h.started_at.toISOString()}${h.start_rid ? ` (run ${h.start_rid})` : ''}.`);
  }
  if (last?.body) lines.push('', 'Body of the last ping:', last.body);
  return { title: title.slice(0, 500), description: lines.join('\n') };
};

/** The alert a heartbeat raises, escalated by its policy like any other (see raiseAlert). */
const heartbeatAlert = async (
  store: HeartbeatStore & AlertStore & RoutingStore,
  h: Heartbeat,
  reason: DownReason,
  now: Date,
): Promise<Alert> => {
  // The ping that tells the story: for a failure, the latest fail (pings in one instant have no order).
  const recent = (await store.listPings(h.workspace_id, h.id, { limit: 10 })).data;
  const last = (reason === 'failed' ? recent.find((p) => p.kind === 'fail') : undefined) ?? recent[0];
  return newAlert(
    store,
    {
      workspace_id: h.workspace_id,
      source_type: 'heartbeat',
      source_id: h.id,
      cause: reason === 'failed' ? 'fail' : 'down',
      ...heartbeatAlertText(h, reason, last ?? null),
      severity: 'critical',
      escalation_policy_id: h.escalation_policy_id,
    },
    now,
  );
};

/**
 * One pass of the deadline job: every heartbeat due at `now`, each stepped by compare-and-set. A step
 * lost to another replica (or to a ping) is simply not ours; the heartbeat is re-read next pass.
 * Returns how many alerts this replica raised and resolved.
 */
export const checkHeartbeatDeadlines = async (
  store: HeartbeatStore & AlertStore & RoutingStore,
  now: Date,
  { batch = 200, rounds = 10 } = {},
) => {
  const done = { stepped: 0, raised: 0, resolved: 0 };
  for (let round = 0; round < rounds; round++) {
    const due = await store.listDueHeartbeats(now, batch);
    for (const h of due) {
      const v = evaluateHeartbeat(h, now);
      const raise = v.raise ? await heartbeatAlert(store, h, v.raise, now) : undefined;
      const r = await store.stepHeartbeat({
        workspace_id: h.workspace_id,
        id: h.id,
        expected_state_version: h.state_version ?? 0,
        next: { state: v.state, due_at: v.due_at },
        at: now,
        ...(raise ? { raise } : {}),
        ...(v.resolve ? { resolve: { type: 'system' as const } } : {}),
      });
      if (!r.stepped) continue;
      done.stepped++;
      if (raise && r.created) done.raised++;
      if (v.resolve && r.alert?.resolved_by?.type === 'system') done.resolved++;
    }
    if (due.length < batch) break;
  }
  return done;
};
