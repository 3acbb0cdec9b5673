import { newId } from '@lookout/shared';
import { z } from 'zod';
import type { MaintenanceLookup, PolicyLookup } from '../lookups.js';
import type { Actor, Alert, AlertSourceType, Delivery } from '../types.js';
import { parseOrThrow, uuid } from '../validation.js';
import type { AlertStore } from './alert-store.js';
import { startEscalation } from './escalation-timing.js';

export interface RaiseInput {
  workspace_id: string;
  source_type: AlertSourceType;
  source_id: string;
  cause: string;
  dedup_key?: string;
  title: string;
  description?: string | null;
  severity?: Alert['severity'];
  escalation_policy_id?: string | null;
  /** The source's group and tags, for maintenance windows over a group or a tag. */
  group_id?: string | null;
  tags?: readonly string[];
}

/**
 * The severity an alert takes from the monitor or heartbeat that raises it, at raise time: the
 * record's own `severity` (`critical` when it has none). The one place both sources copy it, so a
 * warning waits for its policy's support hours (escalation/support-hours.ts).
 */
export const sourceSeverity = (source: { severity?: 'critical' | 'warning' }): Alert['severity'] =>
  // A record stored before severities existed (MongoDB keeps documents as they were) has none.
  source.severity ?? 'critical';

/**
 * A new open alert for `input`, its escalation started in the same record: the policy given (or the
 * workspace default), first step due after its wait — unless a maintenance window covers the source,
 * in which case it is recorded with `suppressed_by` and never escalated.
 */
export const newAlert = async (
  store: AlertStore & PolicyLookup & MaintenanceLookup,
  input: RaiseInput,
  now: Date,
): Promise<Alert> => {
  const policy =
    (input.escalation_policy_id
      ? await store.getEscalationPolicy(input.workspace_id, input.escalation_policy_id)
      : null) ?? (await store.getDefaultEscalationPolicy(input.workspace_id));
  const window = await store.findActiveMaintenanceWindow(
    input.workspace_id,
    { type: input.source_type, id: input.source_id, group_id: input.group_id, tags: input.tags },
    now,
  );
  return {
    id: newId(),
    workspace_id: input.workspace_id,
    source_type: input.source_type,
    source_id: input.source_id,
    cause: input.cause,
    dedup_key: input.dedup_key ?? '',
    title: input.title,
    description: input.description ?? null,
    severity: input.severity ?? 'critical',
    status: 'open',
    escalation_policy_id: policy?.id ?? input.escalation_policy_id ?? null,
    created_at: now,
    updated_at: now,
    acknowledged_at: null,
    acknowledged_by: null,
    resolved_at: null,
    resolved_by: null,
    held_back: 0,
    ...startEscalation(policy, window, now),
  };
};

/**
 * Raises an alert unless the same source already has an unresolved one for this cause and key;
 * then that one is returned (created=false). A resolved alert is never reopened.
 */
export const raiseAlert = async (
  store: AlertStore & PolicyLookup & MaintenanceLookup,
  input: RaiseInput,
  now: Date,
): Promise<{ alert: Alert; created: boolean }> => {
  // The common case on a failing source: the alert exists. One indexed read, nothing else.
  const open = await store.findOpenAlert({
    workspace_id: input.workspace_id,
    source_type: input.source_type,
    source_id: input.source_id,
    cause: input.cause,
    dedup_key: input.dedup_key ?? '',
  });
  if (open) return { alert: open, created: false };
  return store.raiseAlert(await newAlert(store, input, now));
};

export const MAX_UUIDS_PER_REQUEST = 100;
export const uuidsBody = z.strictObject({ UUIDs: z.array(uuid()).min(1).max(MAX_UUIDS_PER_REQUEST) });

export interface ResolveReport {
  resolved: Alert[];
  already_resolved: Alert[];
  not_found: string[];
}

/** Resolves each listed alert of the workspace once; reports what happened to every UUID. */
export const resolveAlerts = async (
  store: AlertStore & PolicyLookup & MaintenanceLookup,
  workspaceId: string,
  body: unknown,
  by: Actor,
  now: Date,
): Promise<ResolveReport> => {
  const { UUIDs } = parseOrThrow(uuidsBody, body);
  const report: ResolveReport = { resolved: [], already_resolved: [], not_found: [] };
  for (const id of new Set(UUIDs.map((u) => u.toLowerCase()))) {
    const r = await store.resolveAlert(workspaceId, id, by, now);
    if (r.outcome === 'not_found' || !r.alert) report.not_found.push(id);
    else report[r.outcome].push(r.alert);
  }
  return report;
};

export interface AcknowledgeReport {
  acknowledged: Alert[];
  already_acknowledged: Alert[];
  already_resolved: Alert[];
  not_found: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Acknowledges each listed open alert of the workspace once (compare-and-set), which stops its
 * escalation; reports what happened to every UUID. Strings that are not UUIDs are not found.
 */
export const acknowledgeAlerts = async (
  store: AlertStore & PolicyLookup & MaintenanceLookup,
  workspaceId: string,
  uuids: string[],
  by: Actor,
  now: Date,
): Promise<AcknowledgeReport> => {
  const report: AcknowledgeReport = {
    acknowledged: [],
    already_acknowledged: [],
    already_resolved: [],
    not_found: [],
  };
  for (const id of new Set(uuids.map((u) => u.toLowerCase()))) {
    const r = UUID.test(id) ? await store.acknowledgeAlert(workspaceId, id, by, now) : null;
    if (!r || r.outcome === 'not_found' || !r.alert) report.not_found.push(id);
    else report[r.outcome].push(r.alert);
  }
  return report;
};

export type TimelineEntry =
  | { at: Date; type: 'raised' }
  | { at: Date; type: 'suppressed'; window_id: string; window_name: string }
  | {
      at: Date;
      type: 'notification';
      /** What it told: the alert raised (an escalation step), or acknowledged or resolved (a follow-up). */
      event: 'raised' | 'acknowledged' | 'resolved';
      via: Delivery['kind'];
      to: string;
      /** Who it went to, by name: the channel's name, the user's email; null when gone since. */
      name: string | null;
      user_id: string | null;
      channel_id: string | null;
      step: number | null;
      round: number | null;
      attempt: number;
      outcome: Delivery['outcome'];
      status_code: number | null;
      error: string | null;
    }
  | {
      at: Date;
      /** What a step found in a schedule it names (domain/escalation/on-call-targets.ts). */
      type: 'on_call';
      step: number;
      round: number;
      schedule_id: string | null;
      schedule_name: string | null;
      /** Whom it reached; null: nobody was on call. */
      user_id: string | null;
      name: string | null;
      text: string;
    }
  | { at: Date; type: 'acknowledged'; by: Actor | null }
  | { at: Date; type: 'resolved'; by: Actor | null };

/** The names of the channels and users an alert's deliveries went to, by id. */
export interface TimelineNames {
  channels: ReadonlyMap<string, string>;
  users: ReadonlyMap<string, string>;
}

const FOLLOW_EVENT = /:follow:(acknowledged|resolved):/;

/**
 * What happened to an alert, oldest first: raised, suppressed, every delivery attempt (what it told,
 * to whom by name), ack, resolve.
 */
export const alertTimeline = (
  alert: Alert,
  deliveries: Delivery[],
  names: TimelineNames = { channels: new Map(), users: new Map() },
): TimelineEntry[] => {
  const entries: TimelineEntry[] = [{ at: alert.created_at, type: 'raised' }];
  const sup = alert.escalation?.suppressed_by;
  if (sup)
    entries.push({
      at: alert.created_at,
      type: 'suppressed',
      window_id: sup.window_id,
      window_name: sup.name,
    });
  // A follow-up (no step: it tells that the alert was acknowledged or resolved) comes after what it
  // tells of when both share an instant.
  const note = (d: Delivery): TimelineEntry => ({
    at: d.at,
    type: 'notification',
    event:
      (FOLLOW_EVENT.exec(d.idempotency_key ?? '')?.[1] as 'acknowledged' | 'resolved' | undefined) ??
      'raised',
    via: d.kind,
    to: d.target,
    name:
      (d.channel_id ? names.channels.get(d.channel_id) : d.user_id ? names.users.get(d.user_id) : null) ??
      null,
    user_id: d.user_id,
    channel_id: d.channel_id,
    step: d.step,
    round: d.round,
    attempt: d.attempt,
    outcome: d.outcome,
    status_code: d.status_code,
    error: d.error,
  });
  // What each step found in its schedules comes before what it sent at the same instant.
  for (const n of alert.escalation?.on_call ?? [])
    entries.push({
      at: new Date(n.at),
      type: 'on_call',
      step: n.step,
      round: n.round,
      schedule_id: n.schedule_id,
      schedule_name: n.schedule_name,
      user_id: n.user_id,
      name: n.user_email,
      text: n.text,
    });
  for (const d of deliveries) if (d.step !== null) entries.push(note(d));
  if (alert.acknowledged_at)
    entries.push({ at: alert.acknowledged_at, type: 'acknowledged', by: alert.acknowledged_by });
  if (alert.resolved_at) entries.push({ at: alert.resolved_at, type: 'resolved', by: alert.resolved_by });
  for (const d of deliveries) if (d.step === null) entries.push(note(d));
  // Stable: entries at the same instant keep the order above.
  return entries
    .map((e, i) => [e, i] as const)
    .sort(([a, i], [b, j]) => a.at.getTime() - b.at.getTime() || i - j)
    .map(([e]) => e);
};
