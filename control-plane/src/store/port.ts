import type {
  Actor,
  AgentHealth,
  AgentSession,
  AgentToken,
  Alert,
  AlertSourceType,
  AlertStatus,
  ApiKey,
  CheckResultRecord,
  Delivery,
  EscalationPolicy,
  Heartbeat,
  HeartbeatState,
  Integration,
  MaintenanceScope,
  MaintenanceWindow,
  Monitor,
  MonitorChange,
  MonitorLocationState,
  MonitorType,
  NotificationChannel,
  Page,
  Ping,
  User,
  Workspace,
} from '../domain/types.js';

/**
 * What an adapter opened with `mustExist` throws (from its factory or `init`) when no store has been
 * made where it looked: `where` names the place (the SQLite file, or the MongoDB database and hosts,
 * never credentials). Opened without it, an adapter creates its store.
 */
export class StoreMissingError extends Error {
  readonly code = 'store_missing';
  constructor(readonly where: string) {
    super(`no Lookout store at ${where}`);
  }
}

/**
 * The storage port. Domain-shaped: every method is one business operation, atomic on its own,
 * so that several control-plane replicas on one store stay correct. Adapters: SQLite, MongoDB.
 * Both pass `store/contract.ts`.
 */
export interface Store {
  readonly kind: 'sqlite' | 'mongodb';
  /** Creates tables/indexes and runs migrations. Idempotent. */
  init(): Promise<void>;
  /** Cheap round trip for readiness. Throws when the store is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;

  // Workspaces and users
  /** Creates the workspace, its first admin and its default escalation policy together. Throws conflict on a taken subdomain. */
  createWorkspace(input: {
    workspace: Workspace;
    admin: User;
    defaultPolicy: EscalationPolicy;
  }): Promise<void>;
  getWorkspace(id: string): Promise<Workspace | null>;
  getWorkspaceBySubdomain(subdomain: string): Promise<Workspace | null>;
  listWorkspaces(): Promise<Workspace[]>;
  /** Throws conflict when the email is taken in the workspace. */
  createUser(user: User): Promise<void>;
  getUser(workspaceId: string, id: string): Promise<User | null>;
  getUserByEmail(workspaceId: string, email: string): Promise<User | null>;
  listUsers(workspaceId: string): Promise<User[]>;
  /** Returns false when no such user. Keys act with the new role from their next request. */
  setUserRole(workspaceId: string, id: string, role: User['role']): Promise<boolean>;

  // API keys
  /** Inserts a named key unless the user already has `maxActive` active (unrevoked, unexpired at `now`) named keys. */
  insertApiKey(key: ApiKey, limit: { maxActive: number; now: Date }): Promise<'inserted' | 'limit_reached'>;
  /** Revokes the user's current legacy key (if any) and inserts `key` in its place, atomically. */
  replaceLegacyKey(key: ApiKey, now: Date): Promise<void>;
  findApiKeyByHash(keyHash: string): Promise<ApiKey | null>;
  getApiKey(workspaceId: string, id: string): Promise<ApiKey | null>;
  listApiKeys(workspaceId: string, filter?: { userId?: string }): Promise<ApiKey[]>;
  /** Sets revoked_at if it is not set yet. Returns the key as it now is, or null if unknown. */
  revokeApiKey(workspaceId: string, id: string, now: Date): Promise<ApiKey | null>;
  recordApiKeyUse(id: string, at: Date, from: string | null): Promise<void>;

  // Escalation policies
  getEscalationPolicy(workspaceId: string, id: string): Promise<EscalationPolicy | null>;
  getDefaultEscalationPolicy(workspaceId: string): Promise<EscalationPolicy | null>;

  // Monitors
  /** Inserts unless the workspace already has `maxMonitors` monitors. */
  insertMonitor(monitor: Monitor, limit: { maxMonitors: number }): Promise<'inserted' | 'limit_reached'>;
  getMonitor(workspaceId: string, id: string): Promise<Monitor | null>;
  listMonitors(workspaceId: string, query: MonitorQuery): Promise<Page<Monitor>>;
  countMonitors(workspaceId: string): Promise<number>;
  /** Compare-and-set on `version`: stores `next` only if the stored version is `expectedVersion`. */
  updateMonitor(next: Monitor, expectedVersion: number): Promise<'updated' | 'conflict' | 'not_found'>;
  deleteMonitor(workspaceId: string, id: string): Promise<boolean>;

  // Heartbeats
  insertHeartbeat(heartbeat: Heartbeat): Promise<void>;
  getHeartbeat(workspaceId: string, id: string): Promise<Heartbeat | null>;
  /** Lookup by the ping URL's uuid alone (the ping carries no workspace). */
  findHeartbeat(id: string): Promise<Heartbeat | null>;
  listHeartbeats(workspaceId: string, query: PageQuery): Promise<Page<Heartbeat>>;
  /**
   * Compare-and-set on `version`. Leaves what pings and the deadline job own (state, last ping, run,
   * alert) as stored, and makes the heartbeat due at `next.updated_at` so the job re-evaluates it.
   */
  updateHeartbeat(next: Heartbeat, expectedVersion: number): Promise<'updated' | 'conflict' | 'not_found'>;
  /** Compare-and-set on `state`: moves the heartbeat to `next` only if it is in `expected`. */
  transitionHeartbeat(
    workspaceId: string,
    id: string,
    expected: HeartbeatState,
    next: HeartbeatState,
    at: Date,
  ): Promise<boolean>;
  deleteHeartbeat(workspaceId: string, id: string): Promise<boolean>;
  /**
   * Stores a batch of pings in one durable write and applies each, in order, to its heartbeat:
   * success moves `last_ping_at` forward (never back), the state to up and `due_at` to the next
   * deadline; fail moves the state to down; start records the run; with an open alert or a failure,
   * `due_at` becomes now so the deadline job resolves or raises it (see sqlite/inbound.ts
   * touchHeartbeatSql for the exact rules). Returns when the batch is durable.
   */
  recordPings(pings: Ping[]): Promise<void>;
  listPings(workspaceId: string, heartbeatId: string, limit: number): Promise<Ping[]>;

  // Agents
  insertAgentToken(token: AgentToken): Promise<void>;
  findAgentTokenByHash(tokenHash: string): Promise<AgentToken | null>;
  listAgentTokens(): Promise<AgentToken[]>;
  revokeAgentToken(id: string, at: Date): Promise<boolean>;
  /**
   * Opens a new session for an instance, replacing any older one (its epoch grows by one). The older
   * session's stream notices through `getAgentSession` and ends as superseded.
   */
  registerAgent(input: Omit<AgentSession, 'epoch' | 'last_result_at' | 'health'>): Promise<AgentSession>;
  getAgentSession(instanceId: string): Promise<AgentSession | null>;
  /** Marks the session seen (and its health, and whether results arrived); false when the session is no longer current. */
  touchAgentSession(
    instanceId: string,
    sessionId: string,
    at: Date,
    update?: { health?: AgentHealth; resultsAt?: Date },
  ): Promise<boolean>;
  /** Ends a session (graceful disconnect) if it is still the current one. */
  endAgentSession(instanceId: string, sessionId: string): Promise<void>;
  listAgentSessions(region?: string): Promise<AgentSession[]>;

  /** Every monitor that runs in `region`: not paused, `region` in check_locations. Across workspaces. */
  listRegionMonitors(region: string): Promise<Monitor[]>;
  /** Monitors by id across workspaces (the agent service resolves results to monitors). */
  getMonitorsByIds(ids: string[]): Promise<Monitor[]>;
  /** All monitors of all workspaces in id order, `limit` after `afterId` (loading the monitor catalog). */
  scanMonitors(afterId: string | null, limit: number): Promise<Monitor[]>;

  // The monitor feed (see MonitorChange): how every replica learns of monitor changes and run requests.
  /** Entries with seq > `afterSeq`, oldest first, at most `limit`. */
  listMonitorChanges(afterSeq: number, limit: number): Promise<MonitorChange[]>;
  /** The newest seq (0 while the feed is empty). */
  latestMonitorChange(): Promise<number>;
  /** Appends 'run' entries: each asks the agent running the monitor in `location` to check it now. */
  requestRuns(runs: Omit<MonitorChange, 'seq' | 'kind'>[]): Promise<void>;
  /** Deletes up to `limit` entries older than `before`; the newest entry is always kept. */
  pruneMonitorChanges(before: Date, limit: number): Promise<number>;

  // Check results
  /** Stores results whose id is new; returns the ids stored now (the rest were stored before). */
  insertResults(results: CheckResultRecord[]): Promise<string[]>;
  listResults(workspaceId: string, monitorId: string, query: ResultQuery): Promise<Page<CheckResultRecord>>;
  /** Count of results and of successful ones in [since, until). */
  countResults(
    workspaceId: string,
    monitorId: string,
    since: Date,
    until: Date,
  ): Promise<{ total: number; ok: number }>;
  /** Deletes up to `limit` results older than `before`; returns how many. */
  pruneResults(before: Date, limit: number): Promise<number>;

  /**
   * Ingestion in one step: stores the results whose id is new and, for each one stored, in order, runs
   * `step` on the current state of its (monitor, location) — null when there is none — and stores what
   * it returns (null: no change). One transaction (one fsync) on SQLite; on MongoDB the states change by
   * compare-and-set, so `step` may run again for an item that lost a race. Returns the ids stored now
   * and every location state (the '*' row included) of the monitors those results belong to, after.
   */
  recordResults(
    results: CheckResultRecord[],
    step: (prev: MonitorLocationState | null, result: CheckResultRecord) => MonitorLocationState | null,
  ): Promise<{ stored: string[]; states: MonitorLocationState[] }>;

  // Monitor state per location
  listMonitorStates(monitorId: string): Promise<MonitorLocationState[]>;
  /** Compare-and-set: writes `next` only if the stored version is `expectedVersion` (0: no row yet). */
  putMonitorState(next: MonitorLocationState, expectedVersion: number): Promise<boolean>;

  // Alerts
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
  /** Compare-and-set: resolves the alert only if it is not resolved yet. */
  resolveAlert(
    workspaceId: string,
    id: string,
    by: Actor,
    at: Date,
  ): Promise<{ outcome: 'resolved' | 'already_resolved' | 'not_found'; alert: Alert | null }>;

  // Alert routing: acknowledgement, escalation, channels, deliveries, maintenance (store/routing docs)
  /** Compare-and-set: open → acknowledged (stops the escalation). */
  acknowledgeAlert(
    workspaceId: string,
    id: string,
    by: Actor,
    at: Date,
  ): Promise<{
    outcome: 'acknowledged' | 'already_acknowledged' | 'already_resolved' | 'not_found';
    alert: Alert | null;
  }>;
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

  listEscalationPolicies(workspaceId: string): Promise<EscalationPolicy[]>;
  /** When `policy.is_default`, the workspace's previous default stops being one, atomically. */
  insertEscalationPolicy(policy: EscalationPolicy): Promise<void>;
  /** Replaces the policy; false when it does not exist. Same default rule as insert. */
  updateEscalationPolicy(policy: EscalationPolicy): Promise<boolean>;
  /** Refuses the default policy and one that monitors or heartbeats still use. */
  deleteEscalationPolicy(
    workspaceId: string,
    id: string,
  ): Promise<'deleted' | 'not_found' | 'is_default' | 'in_use'>;

  insertChannel(channel: NotificationChannel): Promise<void>;
  getChannel(workspaceId: string, id: string): Promise<NotificationChannel | null>;
  listChannels(workspaceId: string): Promise<NotificationChannel[]>;
  /** Replaces the channel; false when it does not exist. */
  updateChannel(channel: NotificationChannel): Promise<boolean>;
  /** Refuses a channel that an escalation policy still notifies. */
  deleteChannel(workspaceId: string, id: string): Promise<'deleted' | 'not_found' | 'in_use'>;

  insertDelivery(delivery: Delivery): Promise<void>;
  /** Oldest first. */
  listDeliveries(
    workspaceId: string,
    filter: { alert_id?: string; channel_id?: string; limit: number },
  ): Promise<Delivery[]>;
  /** Whether an attempt with this idempotency key succeeded. */
  hasSentDelivery(idempotencyKey: string): Promise<boolean>;

  insertMaintenanceWindow(window: MaintenanceWindow): Promise<void>;
  getMaintenanceWindow(workspaceId: string, id: string): Promise<MaintenanceWindow | null>;
  /** Latest start first. */
  listMaintenanceWindows(workspaceId: string): Promise<MaintenanceWindow[]>;
  deleteMaintenanceWindow(workspaceId: string, id: string): Promise<boolean>;
  /** A window covering `at` for the whole workspace or for this monitor/heartbeat, if any. */
  findActiveMaintenanceWindow(
    workspaceId: string,
    source: { type: MaintenanceScope | string; id: string },
    at: Date,
  ): Promise<MaintenanceWindow | null>;

  // Heartbeat deadlines and inbound integrations (store/sqlite/inbound.ts, store/mongo/inbound.ts)
  /** Heartbeats whose `due_at` is at or before `at`, soonest first (indexed, no scan). */
  listDueHeartbeats(at: Date, limit: number): Promise<Heartbeat[]>;
  /**
   * One step of the deadline job, atomic as a whole: compare-and-set on `state_version` (any ping or
   * other step since the read makes it fail), then the new state and `due_at`, and with it either
   * `raise` (deduplicated like raiseAlert; the heartbeat's `alert_id` becomes the open alert's id) or
   * `resolve` (its `alert_id` alert is resolved if still unresolved, and `alert_id` cleared).
   * Only the replica whose step wins raises or resolves.
   */
  stepHeartbeat(input: HeartbeatStep): Promise<{ stepped: boolean; alert: Alert | null; created: boolean }>;
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

  /** Throws conflict when the key hash is taken (never in practice: keys are random). */
  insertIntegration(integration: Integration): Promise<void>;
  getIntegration(workspaceId: string, id: string): Promise<Integration | null>;
  findIntegrationByKeyHash(keyHash: string): Promise<Integration | null>;
  listIntegrations(workspaceId: string, query: PageQuery): Promise<Page<Integration>>;
  /** Replaces name, policy, key hash and updated_at; false when it does not exist. */
  updateIntegration(integration: Integration): Promise<boolean>;
  deleteIntegration(workspaceId: string, id: string): Promise<boolean>;
}

export interface HeartbeatStep {
  workspace_id: string;
  id: string;
  expected_state_version: number;
  next: { state: HeartbeatState; due_at: Date | null };
  at: Date;
  raise?: Alert;
  resolve?: Actor;
}

/** What makes alerts the same: at most one is unresolved per key. */
export type AlertKey = Pick<Alert, 'workspace_id' | 'source_type' | 'source_id' | 'cause' | 'dedup_key'>;

export interface PageQuery {
  cursor?: string | undefined;
  limit: number;
}

export interface MonitorQuery extends PageQuery {
  monitor_type?: MonitorType | undefined;
  paused?: boolean | undefined;
  /** Case-insensitive substring of display_name or url. */
  search?: string | undefined;
}

export interface ResultQuery extends PageQuery {
  location?: string | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
}

export interface AlertQuery extends PageQuery {
  status?: AlertStatus[] | undefined;
  source_type?: AlertSourceType | undefined;
  source_id?: string | undefined;
  /** created_at >= since */
  since?: Date | undefined;
  /** created_at < until */
  until?: Date | undefined;
}

/** The alert-routing part of the port (acknowledge, escalation, channels, deliveries, maintenance). */
export type RoutingMethods = Pick<
  Store,
  | 'acknowledgeAlert'
  | 'listDueEscalations'
  | 'claimEscalation'
  | 'advanceEscalation'
  | 'listEscalationPolicies'
  | 'insertEscalationPolicy'
  | 'updateEscalationPolicy'
  | 'deleteEscalationPolicy'
  | 'insertChannel'
  | 'getChannel'
  | 'listChannels'
  | 'updateChannel'
  | 'deleteChannel'
  | 'insertDelivery'
  | 'listDeliveries'
  | 'hasSentDelivery'
  | 'insertMaintenanceWindow'
  | 'getMaintenanceWindow'
  | 'listMaintenanceWindows'
  | 'deleteMaintenanceWindow'
  | 'findActiveMaintenanceWindow'
>;

/** The inbound part of the port (heartbeat deadlines, integrations). */
export type InboundMethods = Pick<
  Store,
  | 'listDueHeartbeats'
  | 'stepHeartbeat'
  | 'refreshOpenAlert'
  | 'insertIntegration'
  | 'getIntegration'
  | 'findIntegrationByKeyHash'
  | 'listIntegrations'
  | 'updateIntegration'
  | 'deleteIntegration'
>;
