import type { Actor, Alert, Heartbeat, HeartbeatState, Page, PageQuery, Ping } from '../types.js';

export interface HeartbeatQuery extends PageQuery {
  /** Case-insensitive substring of display_name or slug (pickers search the whole set through it). */
  search?: string | undefined;
  /** Only heartbeats carrying this tag (the whole `key` or `key:value`, exactly). */
  tag?: string | undefined;
  /** Only heartbeats of this group; `none`: only heartbeats in no group. */
  group_id?: string | undefined;
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

/**
 * Heartbeats and their pings. The rules for what pings, deadline steps, resolves and edits do to a
 * heartbeat are in heartbeat-rules.ts; each adapter's fast path is held to them by
 * test/contract/heartbeat-rules.test.ts.
 *
 * Atomic across records, one store step each: a ping batch with the heartbeats it touches
 * (`recordPings`), and a deadline step with the alert it raises or resolves (`stepHeartbeat`). The
 * re-arm of a heartbeat whose alert a person resolves is part of AlertStore.resolveAlert.
 * Adapters: store/sqlite/heartbeats.ts, store/mongo/heartbeats.ts.
 */
export interface HeartbeatStore {
  /** 'slug_taken' (and nothing stored) when another heartbeat of the workspace has its slug. */
  insertHeartbeat(heartbeat: Heartbeat): Promise<'inserted' | 'slug_taken'>;
  getHeartbeat(workspaceId: string, id: string): Promise<Heartbeat | null>;
  /** Lookup by the ping URL's uuid alone (the ping carries no workspace). */
  findHeartbeat(id: string): Promise<Heartbeat | null>;
  /** Lookup by slug within a workspace (slug pings); indexed. */
  findHeartbeatBySlug(workspaceId: string, slug: string): Promise<Heartbeat | null>;
  /** How many heartbeats the workspace has (the plan's cap). */
  countHeartbeats(workspaceId: string): Promise<number>;
  listHeartbeats(workspaceId: string, query: HeartbeatQuery): Promise<Page<Heartbeat>>;
  /**
   * Compare-and-set on `version`. Leaves what pings and the deadline job own (state, last ping, run,
   * alert) as stored, and makes the heartbeat due at `next.updated_at` so the job re-evaluates it
   * (`afterEdit` in heartbeat-rules.ts).
   */
  updateHeartbeat(
    next: Heartbeat,
    expectedVersion: number,
  ): Promise<'updated' | 'conflict' | 'not_found' | 'slug_taken'>;
  deleteHeartbeat(workspaceId: string, id: string): Promise<boolean>;
  /**
   * Stores a batch of pings and, in the same atomic write, applies each (`pingTouches`, in order) to
   * its heartbeat by `touchPing` (heartbeat-rules.ts): success moves `last_ping_at` forward (never
   * back), the state to up and `due_at` to the next deadline; fail moves the state to down; start
   * records the run; with an open alert or a failure, `due_at` becomes now so the deadline job resolves
   * or raises it. One transaction; a ping of a heartbeat deleted meanwhile is dropped. Returns when the batch is durable.
   */
  recordPings(pings: Ping[]): Promise<void>;
  /** Newest first by ping time (`at`), paged. */
  listPings(workspaceId: string, heartbeatId: string, query: PageQuery): Promise<Page<Ping>>;

  /** Heartbeats whose `due_at` is at or before `at`, soonest first (indexed, no scan). */
  listDueHeartbeats(at: Date, limit: number): Promise<Heartbeat[]>;
  /**
   * One step of the deadline job, atomic as a whole: compare-and-set on `state_version` (any ping or
   * other step since the read makes it fail), then the new state and `due_at`, and with it either
   * `raise` (deduplicated like raiseAlert; the heartbeat's `alert_id` becomes the open alert's id) or
   * `resolve` (its `alert_id` alert is resolved if still unresolved, and `alert_id` cleared); the
   * heartbeat after is `afterStep` (heartbeat-rules.ts). Only the replica whose step wins raises or resolves.
   */
  stepHeartbeat(input: HeartbeatStep): Promise<{ stepped: boolean; alert: Alert | null; created: boolean }>;
}
