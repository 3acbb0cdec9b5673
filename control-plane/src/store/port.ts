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
  EscalationPolicy,
  Heartbeat,
  HeartbeatState,
  Monitor,
  MonitorLocationState,
  MonitorType,
  Page,
  Ping,
  User,
  Workspace,
} from '../domain/types.js';

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
  /** Compare-and-set on `version`. */
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
   * Stores a batch of pings in one durable write and moves each heartbeat's `last_ping_at` forward
   * (never back) and its state to up. Returns when the batch is durable.
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

  // Monitor state per location
  listMonitorStates(monitorId: string): Promise<MonitorLocationState[]>;
  /** Compare-and-set: writes `next` only if the stored version is `expectedVersion` (0: no row yet). */
  putMonitorState(next: MonitorLocationState, expectedVersion: number): Promise<boolean>;
  /**
   * Runs `step` over `items` in order, each on the current state of its (monitor, location) — null when
   * there is none — and stores what it returns (null: no change). Atomic as a whole in SQLite (one
   * transaction, one fsync for a whole batch of results); per item by compare-and-set in MongoDB, where
   * `step` may run again for an item that lost a race. Returns, per item, the state stored (or null).
   */
  applyMonitorStates(
    items: { monitor_id: string; location: string }[],
    step: (prev: MonitorLocationState | null, index: number) => MonitorLocationState | null,
  ): Promise<(MonitorLocationState | null)[]>;

  // Alerts
  /**
   * Inserts `alert` unless an unresolved alert with the same (workspace, source, cause, dedup key) exists,
   * in which case that one is returned with created=false.
   */
  raiseAlert(alert: Alert): Promise<{ alert: Alert; created: boolean }>;
  getAlert(workspaceId: string, id: string): Promise<Alert | null>;
  /** The unresolved alert for this source, cause and dedup key, if any. */
  findOpenAlert(
    key: Pick<Alert, 'workspace_id' | 'source_type' | 'source_id' | 'cause' | 'dedup_key'>,
  ): Promise<Alert | null>;
  listAlerts(workspaceId: string, query: AlertQuery): Promise<Page<Alert>>;
  /** Compare-and-set: resolves the alert only if it is not resolved yet. */
  resolveAlert(
    workspaceId: string,
    id: string,
    by: Actor,
    at: Date,
  ): Promise<{ outcome: 'resolved' | 'already_resolved' | 'not_found'; alert: Alert | null }>;
}

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
