import { newId } from '@lookout/shared';
import type { AlertHoldStore } from '../alerts/alert-hold-store.js';
import { holdAlerts } from '../alerts/alert-holds.js';
import type { AlertKey, AlertStore } from '../alerts/alert-store.js';
import { raiseAlert, sourceSeverity } from '../alerts/alerts.js';
import type { MaintenanceLookup, PolicyLookup } from '../lookups.js';
import type { MonitorCatalog } from '../monitors/monitor-catalog.js';
import { runningLocations } from '../monitors/monitor-runs.js';
import type { MonitorStore } from '../monitors/monitor-store.js';
import type { CatalogMonitor, CheckResultRecord, MonitorLocationState } from '../types.js';
import {
  applyResult,
  domainExpiry,
  initialState,
  monitorRowStatus,
  tlsExpiry,
  type Verdict,
  verdict,
  wantsConfirmation,
} from './evaluation.js';
import { type CoverOfWorkspace, markMaintenance } from './result-maintenance.js';
import type { ResultStore } from './result-store.js';
import type { RecordResults } from './result-writer.js';
import type { ScriptRunStore } from './script-run-store.js';
import { type IncomingScript, SCRIPTED_TYPES, storeScriptRuns } from './script-runs.js';

/** Pseudo-location of the monitor-level status row: flips of it decide alerts, by compare-and-set. */
const MONITOR_ROW = '*';

/** A result as an agent reports it: no id (derived here, `resultId`) and no place (the caller's). */
export type IncomingResult = Omit<
  CheckResultRecord,
  'id' | 'workspace_id' | 'location' | 'instance_id' | 'received_at' | 'in_maintenance'
> & {
  /** A multistep or browser check's report (script-runs.ts), bounded; null or absent: none. */
  script?: IncomingScript | null;
};

export interface IngestOutcome {
  /** Stored now, or stored before (a replay): the agent may forget all of these. */
  accepted: number;
  duplicates: number;
  /** Confirmation runs asked of other locations (a first failure somewhere). */
  confirmations: number;
}

/**
 * Stores a batch of results from one agent and evaluates each new one. Results of monitors deleted
 * meanwhile are accepted and dropped. Safe with several control-plane replicas: every state change
 * is a compare-and-set, and alerts follow only the replica that won the monitor's flip. A first
 * failure at a location asks the monitor's other locations for a run now, through the monitor feed,
 * so the agents that run them are reached whichever replica they are connected to.
 */
export const ingestResults = async (
  deps: {
    store: AlertStore &
      AlertHoldStore &
      MonitorStore &
      ResultStore &
      Pick<ScriptRunStore, 'addScriptRuns'> &
      PolicyLookup &
      MaintenanceLookup;
    catalog: Pick<MonitorCatalog, 'resolve'>;
    /** `store.recordResults`, or a group-committing writer over it (`result-writer.ts`). */
    record?: RecordResults;
    /**
     * Whether a result came in under maintenance (`in_maintenance`; built in process/wiring.ts from
     * domain/maintenance/result-cover.ts). Absent: none is.
     */
    maintenance?: CoverOfWorkspace;
  },
  input: { region: string; instanceId: string; results: IncomingResult[] },
  now: Date,
): Promise<IngestOutcome> => {
  const { store, catalog } = deps;
  const record = deps.record ?? ((rs, step) => store.recordResults(rs, step));
  const monitors = await catalog.resolve(input.results.map((r) => r.monitor_id));
  const records: CheckResultRecord[] = [];
  const scripts: { result: CheckResultRecord; script: IncomingScript }[] = [];
  for (const r of input.results) {
    const m = monitors.get(r.monitor_id);
    if (m) {
      // One literal of fixed shape (a spread of `r` with keys added builds a slower, reshaped object).
      // The catalog's id string, not the one decoded from this batch: what keeps a result's monitor id
      // (the state book's keys, its changed set) then holds no copy of its own (56 bytes a monitor each).
      records.push({
        id: resultId(r.monitor_id, input.region, r.scheduled_at, r.run_now_request_id),
        workspace_id: m.workspace_id,
        monitor_id: m.id,
        monitor_version: r.monitor_version,
        location: input.region,
        instance_id: input.instanceId,
        scheduled_at: r.scheduled_at,
        started_at: r.started_at,
        received_at: now,
        ok: r.ok,
        error_kind: r.error_kind,
        error_message: r.error_message,
        response_time_ms: r.response_time_ms,
        status_code: r.status_code,
        timings: r.timings,
        tls_valid_to: r.tls_valid_to,
        domain_expires_at: r.domain_expires_at,
        dns_records: r.dns_records,
        run_now_request_id: r.run_now_request_id,
        in_maintenance: false,
      });
      if (r.script && SCRIPTED_TYPES.has(m.monitor_type))
        scripts.push({ result: records[records.length - 1]!, script: r.script });
    }
  }
  // Scripted runs' reports first, in one write: a result the agent sees accepted never lacks its run
  // (a batch that fails after this is replayed, and its runs are kept once).
  await storeScriptRuns(store, scripts);
  records.sort((a, b) => a.scheduled_at.getTime() - b.scheduled_at.getTime());
  // Decided now, as the windows stand (docs/decisions.md): a window made later rewrites nothing. In
  // time order, so a recurring window's occurrence is found once (cover.ts memo), not per result.
  if (deps.maintenance && records.length > 0) await markMaintenance(deps.maintenance, records, monitors, now);

  // Store and move every location's counters in one step (one transaction on SQLite), in time order.
  const firstFailures = new Map<string, CheckResultRecord>();
  const { stored, states } = await record(records, (prev, r) => {
    const before = prev ?? initialState(r.monitor_id, r.location);
    const next = applyResult(monitors.get(r.monitor_id)!, before, r);
    // Only a scheduled run's first failure asks the others: a run that was itself asked for (a
    // confirmation, or "test now") answers a question and asks none, so two locations never ping-pong.
    if (next && r.run_now_request_id === null && wantsConfirmation(before, next)) firstFailures.set(r.id, r);
    else firstFailures.delete(r.id);
    return next;
  });

  // Then each monitor touched decides its alerts once, from all its locations and its newest result.
  // `stored` is in the order of `records` (the port's promise): walked beside it, not hashed into a set.
  const latest = new Map<string, CheckResultRecord>();
  for (let i = 0, j = 0; i < records.length && j < stored.length; i++) {
    const r = records[i]!;
    if (r.id !== stored[j]) continue;
    j++;
    latest.set(r.monitor_id, r);
  }
  const statesOf = new Map<string, MonitorLocationState[]>();
  for (const s of states) {
    const list = statesOf.get(s.monitor_id);
    if (list) list.push(s);
    else statesOf.set(s.monitor_id, [s]);
  }
  const verdicts = new Map<string, Verdict>();
  for (const id of latest.keys()) {
    const locations = (statesOf.get(id) ?? []).filter((s) => s.location !== MONITOR_ROW);
    verdicts.set(id, verdict(monitors.get(id)!, locations, now));
  }
  await flipAll(store, monitors, latest, statesOf, verdicts, now);
  const open = await openAlertsOf(
    store,
    [...latest.keys()].map((id) => monitors.get(id)!),
  );
  for (const [id, r] of latest) {
    const m = monitors.get(id)!;
    // Most monitors have no condition to decide: no call (an async one, with its closures) for them.
    if (hasConditions(m)) await decideConditions(store, m, r, verdicts.get(id)!, open, now);
  }

  const runs = [...firstFailures.values()].flatMap((r) =>
    runningLocations(monitors.get(r.monitor_id)!)
      .filter((l) => l !== r.location)
      .map((location) => ({
        monitor_id: r.monitor_id,
        location,
        reason: 'confirm',
        request_id: newId(),
        at: now,
      })),
  );
  await store.requestRuns(runs);
  return {
    accepted: input.results.length,
    duplicates: input.results.length - stored.length,
    confirmations: runs.length,
  };
};

/**
 * A result's id, derived rather than trusted: one per (monitor, location, scheduled time) or per run
 * request, so a replayed or retried result is stored once (the agent computes the same id).
 */
export const resultId = (
  monitorId: string,
  location: string,
  scheduledAt: Date,
  runRequestId: string | null,
) => `${monitorId}:${location}:${runRequestId ? `run:${runRequestId}` : scheduledAt.getTime()}`;

/** Causes that a single result can start or end; 'down' follows the monitor's flip instead. */
const CONDITION_CAUSES = ['slow', 'tls_expiry', 'domain_expiry'] as const;

const keyOf = (m: CatalogMonitor, cause: string): AlertKey => ({
  workspace_id: m.workspace_id,
  source_type: 'monitor',
  source_id: m.id,
  cause,
  dedup_key: '',
});
const keyString = (k: AlertKey) => `${k.source_id}|${k.cause}`;

/** Whether a monitor has a condition alert to decide at all: a response-time threshold, TLS or domain expiry. */
const hasConditions = (m: CatalogMonitor) =>
  m.response_time_threshold_ms !== null || m.ssl_cert_monitoring || m.monitor_type === 'domain';

/** The open condition alerts of these monitors, in one read: most results change none of them. */
const openAlertsOf = async (store: AlertStore, monitors: CatalogMonitor[]) => {
  const keys = monitors.flatMap((m) => {
    const causes: string[] = [];
    if (m.response_time_threshold_ms !== null) causes.push('slow');
    if (m.ssl_cert_monitoring) causes.push('tls_expiry');
    if (m.monitor_type === 'domain') causes.push('domain_expiry');
    return causes.map((c) => keyOf(m, c));
  });
  return new Set((await store.findOpenAlerts(keys)).map(keyString));
};

/**
 * The monitor-level ('*') rows of the monitors of a batch, moved as their verdicts say
 * (`monitorRowStatus` in evaluation.ts): every row that changes is written by compare-and-set, all of
 * them in one store step (one transaction: a batch of new monitors costs one write, not one each).
 * The row is also the monitor's `status` in the API (domain/monitors/monitor-status.ts). Only the replica
 * that wins a row's flip into or out of `down` raises or resolves the alert, so two replicas never
 * raise two; the first verdict `up`, or a return to pending, has no alert to raise or resolve.
 */
const flipAll = async (
  store: AlertStore & AlertHoldStore & MonitorStore & PolicyLookup & MaintenanceLookup,
  monitors: Map<string, CatalogMonitor>,
  latest: Map<string, CheckResultRecord>,
  statesOf: Map<string, MonitorLocationState[]>,
  verdicts: Map<string, Verdict>,
  now: Date,
) => {
  const writes: { next: MonitorLocationState; expectedVersion: number }[] = [];
  const before: MonitorLocationState[] = [];
  for (const id of latest.keys()) {
    const row = statesOf.get(id)?.find((s) => s.location === MONITOR_ROW) ?? initialState(id, MONITOR_ROW);
    const status = monitorRowStatus(row.status, verdicts.get(id)!);
    if (status === row.status) continue;
    before.push(row);
    writes.push({
      next: { ...row, status, last_result_at: now, version: row.version + 1 },
      expectedVersion: row.version,
    });
  }
  const won = await store.putMonitorStates(writes);
  const held: { workspace_id: string; type: 'monitor'; id: string }[] = [];
  for (const [i, row] of before.entries()) {
    const next = writes[i]!.next.status;
    if (!won[i] || (next !== 'down' && row.status !== 'down')) continue;
    const m = monitors.get(row.monitor_id)!;
    const r = latest.get(row.monitor_id)!;
    const v = verdicts.get(row.monitor_id)!;
    // A monitor with dependencies holds its alert: the dependency job decides it (never a resolve).
    if (next === 'down' && m.depends_on.length > 0) {
      held.push({ workspace_id: m.workspace_id, type: 'monitor', id: m.id });
      continue;
    }
    // Texts are built only for an alert actually raised: most results change none.
    await alertWhile(store, m, 'down', next === 'down', now, () => ({
      title: `${m.display_name} is down`,
      description: `Failing from ${v.failing.join(', ')} (${v.failing.length} of ${v.voting.length} reporting locations). Last error: ${r.error_message ?? 'none'}.`,
    }));
  }
  // One store step for every monitor of the batch whose alert waits on its dependencies.
  await holdAlerts(store, held, now);
};

/**
 * Raises the monitor's `down` alert after its hold (domain/dependencies/dependency-holds.ts) decided
 * so: its dependencies are up, or recovered while it stayed down.
 */
export const raiseHeldMonitor = (
  store: AlertStore & PolicyLookup & MaintenanceLookup,
  m: CatalogMonitor,
  reason: string,
  now: Date,
) =>
  alertWhile(store, m, 'down', true, now, () => ({
    title: `${m.display_name} is down`,
    description: reason,
  }));

/**
 * Opens or resolves the monitor's condition alerts (slow, TLS and domain expiry) from its verdict and
 * its newest result. `open` names the condition alerts known to be open (see `openAlertsOf`).
 */
const decideConditions = async (
  store: AlertStore & PolicyLookup & MaintenanceLookup,
  m: CatalogMonitor,
  r: CheckResultRecord,
  v: Verdict,
  open: Set<string>,
  now: Date,
) => {
  const condition = async (
    cause: (typeof CONDITION_CAUSES)[number],
    active: boolean,
    text: () => AlertText,
  ) => {
    if (active === open.has(keyString(keyOf(m, cause)))) return;
    await alertWhile(store, m, cause, active, now, text);
  };
  if (m.response_time_threshold_ms !== null) {
    await condition('slow', v.slow, () => ({
      title: `${m.display_name} is slow`,
      description: `Responses slower than ${m.response_time_threshold_ms} ms for ${m.failure_threshold} checks in a row.`,
      severity: 'warning',
    }));
  }
  const tls = tlsExpiry(m, r, now);
  if (tls.days !== null) {
    await condition('tls_expiry', tls.expiring, () => ({
      title: `TLS certificate of ${m.display_name} expires in ${tls.days} days`,
      description: `The certificate is valid until ${tls.at!.toISOString()}.`,
      severity: 'warning',
    }));
  }
  const domain = domainExpiry(m, r, now);
  if (domain.days !== null) {
    await condition('domain_expiry', domain.expiring, () => ({
      title: `Domain ${m.url} expires in ${domain.days} days`,
      description: `The registration expires on ${domain.at!.toISOString()}.`,
      severity: 'warning',
    }));
  }
};

interface AlertText {
  title: string;
  description: string;
  severity?: 'critical' | 'warning';
}

/** Keeps an alert open exactly while `active`: raises it (once) or resolves it as the system. */
const alertWhile = async (
  store: AlertStore & PolicyLookup & MaintenanceLookup,
  m: CatalogMonitor,
  cause: string,
  active: boolean,
  now: Date,
  lazyText: () => AlertText,
) => {
  const key = keyOf(m, cause);
  if (active) {
    const text = lazyText();
    await raiseAlert(
      store,
      {
        ...key,
        title: text.title,
        description: text.description,
        severity: text.severity ?? sourceSeverity(m),
        escalation_policy_id: m.escalation_policy_id,
        group_id: m.group_id,
        tags: m.tags,
      },
      now,
    );
    return;
  }
  const open = await store.findOpenAlert(key);
  if (open) await store.resolveAlert(m.workspace_id, open.id, { type: 'system' }, now);
};
