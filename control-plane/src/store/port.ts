import type { AgentStore } from '../domain/agent-store.js';
import type { AlertStore } from '../domain/alert-store.js';
import type { HeartbeatStore } from '../domain/heartbeat-store.js';
import type { IntegrationStore } from '../domain/integration-store.js';
import type { MonitorStore } from '../domain/monitor-store.js';
import type { ResultStore } from '../domain/result-store.js';
import type { RoutingStore } from '../domain/routing-store.js';
import type { TenancyStore } from '../domain/tenancy-store.js';

/** Opening, probing and closing a store, whatever its records. */
export interface StoreLifecycle {
  readonly kind: 'sqlite' | 'mongodb';
  /** Creates tables/indexes and runs migrations. Idempotent. */
  init(): Promise<void>;
  /** Cheap round trip for readiness. Throws when the store is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A whole store: one port per aggregate, each declared in the domain that uses it
 * (`domain/*-store.ts`), each domain-shaped (every method is one business operation, atomic on its
 * own, so that several control-plane replicas on one store stay correct). Domain functions take only
 * the ports they use; the process wiring (main.ts, the CLI, tests) holds the whole store. Adapters:
 * SQLite (`store/sqlite/`) and MongoDB (`store/mongo/`), one file per port, both held to the contract
 * suites.
 */
export type Store = StoreLifecycle &
  TenancyStore &
  MonitorStore &
  ResultStore &
  HeartbeatStore &
  AlertStore &
  RoutingStore &
  IntegrationStore &
  AgentStore &
  MongoCarryover;

/**
 * TRANSITIONAL: delete with the MongoDB adapter's per-port split. Methods no production code calls,
 * removed from the ports and the SQLite adapter; store/mongo/mongo-store.ts (one object typed `Store`)
 * still defines them, and its recordResults calls its own insertResults, which the SQLite adapter
 * serves here from recordResults. Nothing else may call these.
 */
interface MongoCarryover {
  listWorkspaces?(): Promise<unknown[]>;
  countMonitors?(workspaceId: string): Promise<number>;
  listMonitorStates?(monitorId: string): Promise<unknown[]>;
  transitionHeartbeat?(
    workspaceId: string,
    id: string,
    expected: string,
    next: string,
    at: Date,
  ): Promise<boolean>;
  endAgentSession?(instanceId: string, sessionId: string): Promise<void>;
  insertResults(results: Parameters<ResultStore['recordResults']>[0]): Promise<string[]>;
}

/** TRANSITIONAL: the slice store/mongo/routing.ts builds; delete with the MongoDB split (SQLite no longer uses it). */
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

/** TRANSITIONAL: the slice store/mongo/inbound.ts builds; delete with the MongoDB split (SQLite no longer uses it). */
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
