import type { Page, PageQuery, Schedule, ScheduleOverride } from '../types.js';

/** A span a user on call offers to someone else (a shift trade); taking or assigning it makes an override. */
export interface ShiftOffer {
  id: string;
  workspace_id: string;
  schedule_id: string;
  /** The offerer. */
  user_id: string;
  starts_at: Date;
  ends_at: Date;
  note: string | null;
  status: 'open' | 'taken' | 'assigned' | 'withdrawn';
  /** Who took it, or was assigned it. */
  taken_by: string | null;
  /** The override the trade made. */
  override_id: string | null;
  created_at: Date;
  /** When it was taken, assigned or withdrawn; null while open. */
  closed_at: Date | null;
}

export type ScheduleAction =
  | 'created'
  | 'updated'
  | 'override_added'
  | 'override_removed'
  | 'shift_offered'
  | 'shift_taken'
  | 'shift_assigned'
  | 'offer_withdrawn'
  | 'user_removed';

/** One line of a schedule's history: who did what, in words. */
export interface ScheduleHistoryEntry {
  id: string;
  workspace_id: string;
  schedule_id: string;
  at: Date;
  /** A user id; null for the system or an API key without a user. */
  actor_id: string | null;
  action: ScheduleAction;
  detail: string;
}

export interface ScheduleQuery extends PageQuery {
  /** Case-insensitive part of the name. */
  search?: string | undefined;
}

/** A schedule that removing a user rewrote, and the 1-based numbers of its layers left with no users. */
export interface ScheduleLeftByUser {
  id: string;
  name: string;
  empty_layers: number[];
}

/** The most overrides `listOverrides` answers (a window of at most 93 days holds far fewer). */
export const MAX_LISTED_OVERRIDES = 1000;
/** The most offers `listOffers` answers. */
export const MAX_LISTED_OFFERS = 200;
/** The most overrides of a schedule not yet ended (so `listOverrides` never drops one), and open offers. */
export const MAX_UPCOMING_OVERRIDES = 500;
export const MAX_OPEN_OFFERS = 100;

/**
 * On-call schedules with their overrides, shift offers and history. Every write carries the history
 * entry it appends, stored in the same atomic step. Names are unique per workspace ignoring case
 * (`scheduleNameKey` in schedules.ts is the key both adapters index). Adapters:
 * store/sqlite/schedules.ts, store/mongo/schedules.ts; contract test/contract/schedules.test.ts.
 */
export interface ScheduleStore {
  /** Inserts unless the name is taken or the workspace already has `maxSchedules` schedules. */
  insertSchedule(
    schedule: Schedule,
    entry: ScheduleHistoryEntry,
    limit: { maxSchedules: number },
  ): Promise<'inserted' | 'name_taken' | 'limit_reached'>;
  getSchedule(workspaceId: string, id: string): Promise<Schedule | null>;
  /** Newest first. */
  listSchedules(workspaceId: string, query: ScheduleQuery): Promise<Page<Schedule>>;
  /** All of the workspace's schedules (at most 200), by name. */
  listWorkspaceSchedules(workspaceId: string): Promise<Schedule[]>;
  /** Replaces name, time zone and layers; 'name_taken' (nothing stored) when another schedule has the name. */
  updateSchedule(
    next: Schedule,
    entry: ScheduleHistoryEntry,
  ): Promise<'updated' | 'not_found' | 'name_taken'>;
  /** Deletes the schedule with its overrides, offers and history. False when there was none. */
  deleteSchedule(workspaceId: string, id: string): Promise<boolean>;

  /** The users of the workspace among `ids` (their id and email; others and unknown ids left out). At most 1,000 ids. */
  getScheduleUsers(workspaceId: string, ids: string[]): Promise<{ id: string; email: string }[]>;

  /** The overrides overlapping [from, to), by starts_at, at most MAX_LISTED_OVERRIDES. */
  listOverrides(workspaceId: string, scheduleId: string, from: Date, to: Date): Promise<ScheduleOverride[]>;
  /** The user's overrides in any schedule of the workspace overlapping [from, to), by starts_at (bounded). */
  listUserOverrides(workspaceId: string, userId: string, from: Date, to: Date): Promise<ScheduleOverride[]>;
  getOverride(workspaceId: string, scheduleId: string, id: string): Promise<ScheduleOverride | null>;
  /**
   * Stores the override unless the schedule is gone ('not_found') or already has `maxUpcoming`
   * overrides not ended at `entry.at` ('limit_reached'; counted in the step that inserts).
   */
  insertOverride(
    override: ScheduleOverride,
    entry: ScheduleHistoryEntry,
    limit?: { maxUpcoming: number },
  ): Promise<'inserted' | 'not_found' | 'limit_reached'>;
  /** False when there was no such override. */
  deleteOverride(
    workspaceId: string,
    scheduleId: string,
    id: string,
    entry: ScheduleHistoryEntry,
  ): Promise<boolean>;

  appendHistory(entry: ScheduleHistoryEntry): Promise<void>;
  /** Newest first (by `at`). */
  listHistory(workspaceId: string, scheduleId: string, query: PageQuery): Promise<Page<ScheduleHistoryEntry>>;

  /** As insertOverride, `maxOpen` counting the schedule's open offers. */
  insertOffer(
    offer: ShiftOffer,
    entry: ScheduleHistoryEntry,
    limit?: { maxOpen: number },
  ): Promise<'inserted' | 'not_found' | 'limit_reached'>;
  getOffer(workspaceId: string, scheduleId: string, id: string): Promise<ShiftOffer | null>;
  /** Newest first, at most MAX_LISTED_OFFERS; all statuses unless `status`. */
  listOffers(workspaceId: string, scheduleId: string, status?: ShiftOffer['status']): Promise<ShiftOffer[]>;
  /**
   * Take or assign, ONE atomic step: the offer moves from `open` to `status` (compare-and-set) with
   * `taken_by` = the override's user and `override_id`, the override is inserted and the entry
   * appended. 'not_open' (nothing stored) when it was no longer open; 'not_found' when there is none.
   */
  closeOffer(input: {
    workspaceId: string;
    scheduleId: string;
    offerId: string;
    status: 'taken' | 'assigned';
    override: ScheduleOverride;
    entry: ScheduleHistoryEntry;
  }): Promise<'closed' | 'not_open' | 'not_found'>;
  /** open → withdrawn (compare-and-set) with the entry; 'not_open' when it was no longer open. */
  withdrawOffer(
    workspaceId: string,
    scheduleId: string,
    offerId: string,
    entry: ScheduleHistoryEntry,
  ): Promise<'withdrawn' | 'not_open' | 'not_found'>;

  /**
   * Retention: deletes overrides that ended before `overridesBefore`, closed offers closed before
   * `offersBefore` and history entries before `historyBefore`, at most `limit` of each kind.
   */
  pruneSchedules(
    cut: { overridesBefore: Date; offersBefore: Date; historyBefore: Date },
    limit: number,
  ): Promise<number>;
}

/** The most schedules one workspace holds. */
export const MAX_SCHEDULES = 200;
/** The longest override or offered span (the overlap query's index range leans on it). */
export const MAX_OVERRIDE_DAYS = 31;

/** The key a name is unique by: Unicode-normalised, lower case. */
export const scheduleNameKey = (name: string) => name.normalize('NFKC').toLowerCase();

/** Layers as stored in JSON (dates as ISO strings) back to records. */
export const reviveLayers = (layers: unknown): Schedule['layers'] =>
  (layers as (Omit<Schedule['layers'][number], 'starts_at'> & { starts_at: string | Date })[]).map((l) => ({
    ...l,
    starts_at: new Date(l.starts_at),
  }));
