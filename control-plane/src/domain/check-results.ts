import type { Store } from '../store/port.js';
import { raiseAlert } from './alerts.js';
import {
  applyResult,
  domainExpiry,
  initialState,
  tlsExpiry,
  verdict,
  wantsConfirmation,
} from './evaluation.js';
import { runningLocations } from './monitors.js';
import type { CheckResultRecord, Monitor, MonitorLocationState } from './types.js';

/** Pseudo-location of the monitor-level status row: flips of it decide alerts, by compare-and-set. */
const MONITOR_ROW = '*';

export type IncomingResult = Omit<
  CheckResultRecord,
  'workspace_id' | 'location' | 'instance_id' | 'received_at'
>;

export interface IngestOutcome {
  /** Stored now, or stored before (a replay): the agent may forget all of these. */
  accepted: number;
  duplicates: number;
  /** Monitors whose other locations should check right away (a first failure somewhere). */
  confirmations: { monitor: Monitor; locations: string[] }[];
}

/**
 * Stores a batch of results from one agent and evaluates each new one. Results of monitors deleted
 * meanwhile are accepted and dropped. Safe with several control-plane replicas: every state change
 * is a compare-and-set, and alerts follow only the replica that won the monitor's flip.
 */
export const ingestResults = async (
  store: Store,
  input: { region: string; instanceId: string; results: IncomingResult[] },
  now: Date,
): Promise<IngestOutcome> => {
  const monitors = new Map(
    (await store.getMonitorsByIds([...new Set(input.results.map((r) => r.monitor_id))])).map((m) => [
      m.id,
      m,
    ]),
  );
  const records: CheckResultRecord[] = input.results.flatMap((r) => {
    const m = monitors.get(r.monitor_id);
    return m
      ? [
          {
            ...r,
            workspace_id: m.workspace_id,
            location: input.region,
            instance_id: input.instanceId,
            received_at: now,
          },
        ]
      : [];
  });
  const stored = new Set(await store.insertResults(records));
  const fresh = records
    .filter((r) => stored.has(r.id))
    .sort((a, b) => a.scheduled_at.getTime() - b.scheduled_at.getTime());

  // Every location's counters move in one store step (one transaction on SQLite), results in order.
  const confirm = new Array<boolean>(fresh.length).fill(false);
  await store.applyMonitorStates(
    fresh.map((r) => ({ monitor_id: r.monitor_id, location: r.location })),
    (prev, i) => {
      const r = fresh[i]!;
      const before = prev ?? initialState(r.monitor_id, r.location);
      const next = applyResult(monitors.get(r.monitor_id)!, before, r);
      confirm[i] = next !== null && wantsConfirmation(before, next);
      return next;
    },
  );

  // Then each monitor touched decides its alerts once, from all its locations and its newest result.
  const latest = new Map<string, CheckResultRecord>();
  for (const r of fresh) latest.set(r.monitor_id, r);
  for (const [id, r] of latest) await decideAlerts(store, monitors.get(id)!, r, now);

  const confirmations: IngestOutcome['confirmations'] = [];
  fresh.forEach((r, i) => {
    if (!confirm[i]) return;
    const m = monitors.get(r.monitor_id)!;
    const locations = runningLocations(m).filter((l) => l !== r.location);
    if (locations.length > 0) confirmations.push({ monitor: m, locations });
  });
  return { accepted: input.results.length, duplicates: input.results.length - stored.size, confirmations };
};

/** Opens or resolves the monitor's alerts from the state of all its locations and its newest result. */
export const decideAlerts = async (store: Store, m: Monitor, r: CheckResultRecord, now: Date) => {
  const states = await store.listMonitorStates(m.id);
  const v = verdict(
    m,
    states.filter((s) => s.location !== MONITOR_ROW),
    now,
  );
  await flip(store, m, states, 'down', v.down, now, {
    title: `${m.display_name} is down`,
    description: `Failing from ${v.failing.join(', ')} (${v.failing.length} of ${v.voting.length} reporting locations). Last error: ${r.error_message ?? 'none'}.`,
  });
  if (m.response_time_threshold_ms !== null) {
    await alertWhile(store, m, 'slow', v.slow, now, {
      title: `${m.display_name} is slow`,
      description: `Responses slower than ${m.response_time_threshold_ms} ms for ${m.failure_threshold} checks in a row.`,
      severity: 'warning',
    });
  }
  const tls = tlsExpiry(m, r, now);
  if (tls.days !== null) {
    await alertWhile(store, m, 'tls_expiry', tls.expiring, now, {
      title: `TLS certificate of ${m.display_name} expires in ${tls.days} days`,
      description: `The certificate is valid until ${tls.at!.toISOString()}.`,
      severity: 'warning',
    });
  }
  const domain = domainExpiry(m, r, now);
  if (domain.days !== null) {
    await alertWhile(store, m, 'domain_expiry', domain.expiring, now, {
      title: `Domain ${m.url} expires in ${domain.days} days`,
      description: `The registration expires on ${domain.at!.toISOString()}.`,
      severity: 'warning',
    });
  }
};

interface AlertText {
  title: string;
  description: string;
  severity?: 'critical' | 'warning';
}

/**
 * Monitor-level up/down flips by compare-and-set on the '*' row: only the replica that wins the flip
 * raises (or resolves) the alert, so two replicas never raise two.
 */
const flip = async (
  store: Store,
  m: Monitor,
  states: MonitorLocationState[],
  cause: string,
  down: boolean,
  now: Date,
  text: AlertText,
) => {
  const row = states.find((s) => s.location === MONITOR_ROW) ?? initialState(m.id, MONITOR_ROW);
  const wasDown = row.status === 'down';
  if (down === wasDown) return;
  const next: MonitorLocationState = {
    ...row,
    status: down ? 'down' : 'up',
    last_result_at: now,
    version: row.version + 1,
  };
  if (!(await store.putMonitorState(next, row.version))) return;
  await alertWhile(store, m, cause, down, now, text);
};

/** Keeps an alert open exactly while `active`: raises it (once) or resolves it as the system. */
const alertWhile = async (
  store: Store,
  m: Monitor,
  cause: string,
  active: boolean,
  now: Date,
  text: AlertText,
) => {
  const key = {
    workspace_id: m.workspace_id,
    source_type: 'monitor' as const,
    source_id: m.id,
    cause,
    dedup_key: '',
  };
  if (active) {
    await raiseAlert(
      store,
      {
        ...key,
        title: text.title,
        description: text.description,
        severity: text.severity ?? 'critical',
        escalation_policy_id: m.escalation_policy_id,
      },
      now,
    );
    return;
  }
  const open = await store.findOpenAlert(key);
  if (open) await store.resolveAlert(m.workspace_id, open.id, { type: 'system' }, now);
};
