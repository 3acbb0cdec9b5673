import type { Actor, Alert, AlertSourceType, AlertStatus, Delivery, Page, PageQuery } from '../types.js';
import type { AlertExportFilter, ExportPage, ExportPosition } from './alert-export.js';

/** What makes alerts the same: at most one is unresolved per key. */
export type AlertKey = Pick<Alert, 'workspace_id' | 'source_type' | 'source_id' | 'cause' | 'dedup_key'>;

/** One source of alerts (a monitor, a heartbeat, an integration ...). */
export interface AlertSource {
  type: AlertSourceType;
  id: string;
}

/** The most sources one read of `listAlertsBetween` names; more are read in slices of this size. */
export const SOURCES_PER_READ = 1_000;

/** Newest first: created_at, then id, descending (the order of `listAlertsBetween`). */
export const newestAlertFirst = (a: Alert, b: Alert) =>
  b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Sources grouped by type, in slices of at most SOURCES_PER_READ ids (one read each). */
export const sourceSlices = (sources: AlertSource[]): { type: AlertSourceType; ids: string[] }[] => {
  const byType = new Map<AlertSourceType, Set<string>>();
  for (const s of sources) {
    const ids = byType.get(s.type) ?? new Set<string>();
    ids.add(s.id);
    byType.set(s.type, ids);
  }
  const out: { type: AlertSourceType; ids: string[] }[] = [];
  for (const [type, set] of byType)
    for (let i = 0, ids = [...set]; i < ids.length; i += SOURCES_PER_READ)
      out.push({ type, ids: ids.slice(i, i + SOURCES_PER_READ) });
  return out;
};

export interface AlertQuery extends PageQuery {
  status?: AlertStatus[] | undefined;
  source_type?: AlertSourceType | undefined;
  source_id?: string | undefined;
  /** created_at >= since */
  since?: Date | undefined;
  /** created_at < until */
  until?: Date | undefined;
}

/**
 * Alerts, with their escalation position and notification deliveries. Atomic across records, one
 * store step each: an alert with its escalation position (raised with it, stopped by acknowledge and
 * resolve), and a resolve with the re-arm of its source (`resolveAlert`: the monitor's '*' state or
 * the heartbeat, `rearmHeartbeat` in heartbeat-rules.ts). A heartbeat's own raise and resolve are
 * part of its deadline step (HeartbeatStore.stepHeartbeat).
 * Adapters: store/sqlite/alerts.ts, store/mongo/alerts.ts.
 */
export interface AlertStore {
  /**
   * Inserts `alert` unless an unresolved alert with the same (workspace, source, cause, dedup key) exists,
   * in which case that one is returned with created=false.
   */
  raiseAlert(alert: Alert): Promise<{ alert: Alert; created: boolean }>;
  getAlert(workspaceId: string, id: string): Promise<Alert | null>;
  /** The unresolved alert for this source, cause and dedup key, if any. */
  findOpenAlert(key: AlertKey): Promise<Alert | null>;
  /** The unresolved alerts for any of these keys, in one read. */
  findOpenAlerts(keys: AlertKey[]): Promise<Alert[]>;
  listAlerts(workspaceId: string, query: AlertQuery): Promise<Page<Alert>>;
  /**
   * The alerts of these sources open at any moment of [from, to): created before `to` and not resolved
   * before `from`; newest first (created_at, then id, descending), at most `limit`. What a report
   * reads for a period (domain/reports/). Read by the workspace's created_at index (SQLite) or the
   * source index (MongoDB), in slices of at most 1,000 sources.
   */
  listAlertsBetween(
    workspaceId: string,
    sources: AlertSource[],
    from: Date,
    to: Date,
    limit: number,
  ): Promise<Alert[]>;
  /**
   * The export's next page (alert-export.ts): alerts created in [from, to), oldest first (created_at,
   * then id), after `after` (null: the start); reads at most `limit` alerts of the workspace's
   * created_at index, of which those passing the filters are returned.
   */
  exportAlertsPage(
    workspaceId: string,
    filter: AlertExportFilter,
    after: ExportPosition | null,
    limit: number,
  ): Promise<ExportPage<Alert, ExportPosition>>;
  /**
   * Compare-and-set: resolves the alert only if it is not resolved yet, and in the same transaction
   * re-arms its source, so that the source's next failure verdict raises a new alert (spec 3.2):
   * a monitor's `down` alert sets the monitor-level ('*') state from down to unknown (the next failing
   * result flips it down again, by compare-and-set, and raises); a heartbeat's alert is forgotten by
   * the heartbeat (`alert_id` null, `rearmed_at` = `at`, due now; see rearmHeartbeat and evaluateHeartbeat). Condition
   * alerts need nothing: they are raised whenever the condition holds and none is open. An alert with
   * an escalation is then due for its follow-ups (listDueFollowUps).
   */
  resolveAlert(
    workspaceId: string,
    id: string,
    by: Actor,
    at: Date,
  ): Promise<{ outcome: 'resolved' | 'already_resolved' | 'not_found'; alert: Alert | null }>;

  /**
   * Compare-and-set: open → acknowledged (stops the escalation; an alert with an escalation is then due
   * for its follow-ups, see listDueFollowUps).
   */
  acknowledgeAlert(
    workspaceId: string,
    id: string,
    by: Actor,
    at: Date,
  ): Promise<{
    outcome: 'acknowledged' | 'already_acknowledged' | 'already_resolved' | 'not_found';
    alert: Alert | null;
  }>;
  /**
   * A repeated trigger: updates title, description and severity of the alert if it is still unresolved.
   * Returns the alert as it now is, or null when it is resolved or unknown.
   */
  refreshOpenAlert(
    workspaceId: string,
    id: string,
    patch: Pick<Alert, 'title' | 'description' | 'severity'>,
    at: Date,
  ): Promise<Alert | null>;
  /** Open alerts whose `escalation_due_at` is at or before `at`, soonest first (indexed, no scan). */
  listDueEscalations(at: Date, limit: number): Promise<Alert[]>;
  /**
   * Compare-and-set claim of a due step: succeeds only if the alert is open and its `escalation_due_at`
   * is still `expectedDueAt`; then sets the claim token and moves `escalation_due_at` to `leaseUntil`
   * (so a replica that dies holding it is replaced after the lease). Returns the claimed alert or null.
   */
  claimEscalation(
    workspaceId: string,
    id: string,
    expectedDueAt: Date,
    claim: string,
    leaseUntil: Date,
  ): Promise<Alert | null>;
  /** Compare-and-set on the claim token (and the alert still open): stores the next position. */
  advanceEscalation(
    workspaceId: string,
    id: string,
    claim: string,
    next: { escalation: Alert['escalation']; escalation_due_at: Date | null },
  ): Promise<boolean>;

  /**
   * The follow-ups (escalation-runner.ts): acknowledging or resolving an alert that has an escalation
   * makes it due at that instant (`escalation_due_at`, in the same write), so a recovery notice
   * survives a crash or restart. Acknowledged or resolved alerts due at or before `at`, soonest first
   * (the escalation index, no scan).
   */
  listDueFollowUps(at: Date, limit: number): Promise<Alert[]>;
  /**
   * Compare-and-set claim of a due follow-up: succeeds only if the alert is acknowledged or resolved,
   * has an escalation, and is still due at `expectedDueAt`; then sets the claim token and moves the due
   * time to `leaseUntil` (a replica that dies holding it is replaced after the lease).
   */
  claimFollowUp(
    workspaceId: string,
    id: string,
    expectedDueAt: Date,
    claim: string,
    leaseUntil: Date,
  ): Promise<Alert | null>;
  /**
   * Compare-and-set on the claim and its lease: nothing more is due. Fails when the alert changed in
   * between (acknowledged, then resolved: due again for "resolved") or the lease was taken over.
   */
  finishFollowUp(workspaceId: string, id: string, claim: string, leaseUntil: Date): Promise<boolean>;

  insertDelivery(delivery: Delivery): Promise<void>;
  /** Many at once, in this order (one grouped message's attempt, logged for each alert it named). */
  insertDeliveries(deliveries: Delivery[]): Promise<void>;
  /** Oldest first. */
  listDeliveries(
    workspaceId: string,
    filter: { alert_id?: string; channel_id?: string; limit: number },
  ): Promise<Delivery[]>;
  /** A channel's delivery log, newest first, paged (the cursor is on `at`). */
  listChannelDeliveries(workspaceId: string, channelId: string, query: PageQuery): Promise<Page<Delivery>>;
  /** Whether an attempt with this idempotency key succeeded. */
  hasSentDelivery(idempotencyKey: string): Promise<boolean>;
}
