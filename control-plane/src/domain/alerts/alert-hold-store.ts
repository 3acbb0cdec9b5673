/**
 * Alerts held back by dependencies (issue 53): a monitor or heartbeat with `depends_on` that goes down
 * does not raise its alert at once; it gets a hold, and the dependency job (domain/dependencies/)
 * decides it: raise, keep it suppressed while a dependency is down, or wait until the dependencies have
 * been checked. At most one hold per source; it lives only while the source is down without an alert.
 *
 * Beside it, each source's timeline of what its dependencies did to its alert (`SourceEvent`), kept
 * SOURCE_EVENT_RETENTION_DAYS days.
 * Adapters: store/sqlite/dependencies.ts, store/mongo/dependencies.ts.
 */

export type HoldSourceType = 'monitor' | 'heartbeat';

export interface AlertHold {
  workspace_id: string;
  source_type: HoldSourceType;
  source_id: string;
  /**
   * `held`: waiting until the dependencies are checked; `suppressed`: a dependency is down;
   * `released`: the dependency recovered, waiting for the source's own next check.
   */
  state: 'held' | 'suppressed' | 'released';
  /** The dependency that is down (`suppressed`), else null. */
  suppressed_by: string | null;
  /** Since when the source waits: when it went down, or when its dependency recovered. */
  since: Date;
  /** The latest the hold may wait before raising; null until the job first decided it. */
  hold_until: Date | null;
  /** When the job looks at it next (indexed). */
  due_at: Date;
  /** Compare-and-set on it; 1 for a new hold. */
  version: number;
}

export type SourceEventKind = 'held' | 'suppressed' | 'released' | 'raised' | 'cleared';

/** One entry of a source's dependency timeline. */
export interface SourceEvent {
  id: string;
  workspace_id: string;
  source_type: HoldSourceType;
  source_id: string;
  at: Date;
  kind: SourceEventKind;
  /** The dependency it concerns, when one does. */
  dependency_id: string | null;
  message: string;
}

export const SOURCE_EVENT_RETENTION_DAYS = 30;
/** The detail pages show at most this many of a source's newest events. */
export const SOURCE_EVENTS_SHOWN = 50;

export interface AlertHoldStore {
  /**
   * Inserts each hold unless its source has one already (then nothing changes for it), with its event,
   * all in one step (a storm's flips in one batch of results cost one transaction). Returns how many
   * were inserted.
   */
  insertAlertHolds(items: { hold: AlertHold; event?: SourceEvent }[]): Promise<number>;
  /** The holds of these sources of the workspace (an indexed read; the API's `suppressed_by`). */
  getAlertHolds(workspaceId: string, sourceIds: string[]): Promise<AlertHold[]>;
  /** Holds whose `due_at` is at or before `at`, soonest first (indexed, no scan). */
  listDueAlertHolds(at: Date, limit: number): Promise<AlertHold[]>;
  /**
   * Compare-and-set on `version`: stores `next` (its version one more). With `event`, appends it in
   * the same step; with `countOn`, adds one to `held_back` of that source's unresolved alerts (the
   * dependency's alert counts the dependents it holds back) in the same step.
   */
  updateAlertHold(
    next: AlertHold,
    expectedVersion: number,
    extra?: { event?: SourceEvent; countOn?: { source_type: HoldSourceType; source_id: string } },
  ): Promise<boolean>;
  /** Compare-and-set on `version`: removes the hold, appending `event` in the same step. */
  deleteAlertHold(
    hold: Pick<AlertHold, 'workspace_id' | 'source_type' | 'source_id'>,
    expectedVersion: number,
    event?: SourceEvent,
  ): Promise<boolean>;
  /** The source's newest events first, at most `limit`. */
  listSourceEvents(
    workspaceId: string,
    sourceType: HoldSourceType,
    sourceId: string,
    limit: number,
  ): Promise<SourceEvent[]>;
  /** Deletes up to `limit` events older than `before`; returns how many. */
  pruneSourceEvents(before: Date, limit: number): Promise<number>;
}
