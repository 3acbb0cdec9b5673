/** Whose shifts a calendar feed lists: one schedule's, or one user's across every schedule. */
export type CalendarFeedKind = 'schedule' | 'user';

/**
 * A calendar feed's secret URL, as stored (domain/oncall/calendar-feeds.ts). Only the SHA-256 of its
 * token is kept; the token itself is shown once, in the URL, and never stored or logged. At most one
 * per subject: a new one replaces the old.
 */
export interface CalendarFeed {
  id: string;
  workspace_id: string;
  kind: CalendarFeedKind;
  /** The schedule's id (kind `schedule`) or the user's (kind `user`). */
  subject_id: string;
  token_hash: string;
  /** The user who made the URL (the subscriber for a user feed), null for a key without a user. */
  created_by: string | null;
  created_at: Date;
  /** When a calendar last read it, written at most once an hour (FEED_USE_RESOLUTION_MS). */
  last_used_at: Date | null;
}

/** Calendar feeds. Adapters: store/sqlite/calendar-feeds.ts, store/mongo/calendar-feeds.ts. */
export interface CalendarFeedStore {
  /**
   * Stores `feed` as its subject's one feed, deleting (revoking) the one it had, in one step: no
   * moment where both work or neither exists for a reader of the new one.
   */
  replaceCalendarFeed(feed: CalendarFeed): Promise<void>;
  /** The feed whose token hashes to `tokenHash` (one read through a unique index), or null. */
  findCalendarFeed(tokenHash: string): Promise<CalendarFeed | null>;
  /** The subject's feed, or null. */
  getCalendarFeed(
    workspaceId: string,
    kind: CalendarFeedKind,
    subjectId: string,
  ): Promise<CalendarFeed | null>;
  /** Deletes (revokes) the subject's feed; false when it had none. */
  deleteCalendarFeed(workspaceId: string, kind: CalendarFeedKind, subjectId: string): Promise<boolean>;
  /**
   * Sets `last_used_at` to `at` when it is null or before `staleBefore` (a compare-and-set: replicas
   * reading one feed together write it once); true when it wrote.
   */
  touchCalendarFeed(id: string, at: Date, staleBefore: Date): Promise<boolean>;
  /**
   * Retention: deletes up to `limit` feeds last read (or, never read, made) before `unusedBefore`,
   * which also frees those of deleted schedules and departed users; returns how many.
   */
  pruneCalendarFeeds(unusedBefore: Date, limit: number): Promise<number>;
}
