/** A user's handoff notices: whether they get them, and how long before a shift starts. */
export interface HandoffSettings {
  workspace_id: string;
  user_id: string;
  enabled: boolean;
  /** 5…10080. */
  lead_minutes: number;
  updated_at: Date;
}

/** One notice sent (claimed): its key is unique, so each is sent once across replicas and restarts. */
export interface HandoffNotice {
  /** `<schedule id>:<user id>:<shift start ms>:<kind>` (handoff-notices.ts `noticeKey`). */
  key: string;
  workspace_id: string;
  schedule_id: string;
  user_id: string;
  shift_starts_at: Date;
  kind: 'before' | 'start';
  sent_at: Date;
}

/** A schedule's "next notice due" cursor: the job looks only at schedules whose time has come. */
export interface HandoffCursor {
  workspace_id: string;
  schedule_id: string;
  due_at: Date;
}

/**
 * Handoff notices (domain/oncall/handoff-notices.ts): per-user settings, one cursor per schedule (when
 * its next notice is due; indexed), and the notices sent (kept HANDOFF_NOTICE_RETENTION_DAYS). Adapters:
 * store/sqlite/handoff-notices.ts, store/mongo/handoff-notices.ts; contract test/contract/handoff-notices.test.ts.
 */
export interface HandoffNoticeStore {
  /** Null: never set (the defaults apply). */
  getHandoffSettings(workspaceId: string, userId: string): Promise<HandoffSettings | null>;
  /** Inserts or replaces. */
  putHandoffSettings(settings: HandoffSettings): Promise<void>;
  /** Inserts or moves the schedule's cursor to `dueAt` (whatever it was). */
  setHandoffCursor(cursor: HandoffCursor): Promise<void>;
  /** Moves every cursor of the workspace that is due later than `dueAt` to `dueAt` (a user's lead changed). */
  advanceHandoffCursors(workspaceId: string, dueAt: Date): Promise<void>;
  /** The cursors due at `now` or before, soonest first. */
  listDueHandoffCursors(now: Date, limit: number): Promise<HandoffCursor[]>;
  /** Compare-and-set: moves the cursor from `dueAt` to `leaseUntil`; false when another replica moved it first. */
  claimHandoffCursor(
    workspaceId: string,
    scheduleId: string,
    dueAt: Date,
    leaseUntil: Date,
  ): Promise<boolean>;
  deleteHandoffCursor(workspaceId: string, scheduleId: string): Promise<void>;
  /** Records the notice unless its key is already recorded: true when this call recorded it (send it). */
  claimHandoffNotice(notice: HandoffNotice): Promise<boolean>;
  /** Retention: deletes notices sent before `before`, at most `limit`; returns how many. */
  pruneHandoffNotices(before: Date, limit: number): Promise<number>;
}
