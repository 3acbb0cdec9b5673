import type { AlertHoldStore } from '../alerts/alert-hold-store.js';
import { holdAlerts } from '../alerts/alert-holds.js';
import type { AlertStore } from '../alerts/alert-store.js';
import { newAlert, sourceSeverity } from '../alerts/alerts.js';
import type { MaintenanceLookup, PolicyLookup } from '../lookups.js';
import { formatDuration } from '../notifications/messages.js';
import type { Alert, Heartbeat, Ping } from '../types.js';
import { type DownReason, evaluateHeartbeat } from './heartbeat-rules.js';
import type { HeartbeatStore } from './heartbeat-store.js';
import { describeSchedule } from './schedule-text.js';

/**
 * The heartbeat deadline job: it reads only heartbeats whose stored `due_at` has come (an index, no
 * scan), decides with the pure `evaluateHeartbeat` (heartbeat-rules.ts, where every heartbeat rule
 * lives), and stores the step by compare-and-set together with the alert it raises or resolves. Two
 * replicas may read the same heartbeat; one step wins, so one alert is raised.
 */

/** A period or grace in seconds, as every message says a duration (notifications/messages.ts). */
const duration = (seconds: number): string => formatDuration(seconds * 1000);

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
        ? `${name} started but did not finish within ${duration(h.grace_seconds)}`
        : `${name} missed its deadline`;
  const lines = [
    h.schedule
      ? `Expected a ping on its schedule (${describeSchedule(h)}) with ${duration(h.grace_seconds)} of grace.`
      : `Expected a ping every ${duration(h.period_seconds)} with ${duration(h.grace_seconds)} of grace.`,
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
  store: HeartbeatStore & AlertStore & PolicyLookup & MaintenanceLookup,
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
      severity: sourceSeverity(h),
      escalation_policy_id: h.escalation_policy_id,
      group_id: h.group_id,
      tags: h.tags,
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
  store: HeartbeatStore & AlertStore & AlertHoldStore & PolicyLookup & MaintenanceLookup,
  now: Date,
  { batch = 200, rounds = 10 } = {},
) => {
  const done = { stepped: 0, raised: 0, resolved: 0 };
  for (let round = 0; round < rounds; round++) {
    const due = await store.listDueHeartbeats(now, batch);
    for (const h of due) {
      const r = await stepOne(store, h, now, false);
      if (!r) continue;
      done.stepped++;
      if (r.raised) done.raised++;
      if (r.resolved) done.resolved++;
    }
    if (due.length < batch) break;
  }
  return done;
};

/**
 * One deadline step of `h`. A heartbeat with dependencies that would raise holds its alert instead
 * (alerts/alert-holds.ts) unless `released` (the dependency job decided to raise it).
 */
const stepOne = async (
  store: HeartbeatStore & AlertStore & AlertHoldStore & PolicyLookup & MaintenanceLookup,
  h: Heartbeat,
  now: Date,
  released: boolean,
) => {
  const v = evaluateHeartbeat(h, now);
  const held = v.raise !== null && !released && (h.depends_on ?? []).length > 0;
  const raise = v.raise && !held ? await heartbeatAlert(store, h, v.raise, now) : undefined;
  const r = await store.stepHeartbeat({
    workspace_id: h.workspace_id,
    id: h.id,
    expected_state_version: h.state_version ?? 0,
    next: { state: v.state, due_at: v.due_at },
    at: now,
    ...(raise ? { raise } : {}),
    ...(v.resolve ? { resolve: { type: 'system' as const } } : {}),
  });
  if (!r.stepped) return null;
  if (held) await holdAlerts(store, [{ workspace_id: h.workspace_id, type: 'heartbeat', id: h.id }], now);
  return {
    raised: Boolean(raise && r.created),
    resolved: v.resolve && r.alert?.resolved_by?.type === 'system',
  };
};

/**
 * The dependency job decided that the held alert of this heartbeat is raised: one deadline step that
 * raises it (by compare-and-set; false when the heartbeat moved meanwhile or has nothing to raise).
 */
export const raiseHeldHeartbeat = async (
  store: HeartbeatStore & AlertStore & AlertHoldStore & PolicyLookup & MaintenanceLookup,
  h: Heartbeat,
  now: Date,
) => (await stepOne(store, h, now, true))?.raised ?? false;
