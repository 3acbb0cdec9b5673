import type { Shift } from './types.js';

/**
 * What a step found in one schedule it names, when it fired: who was on call and why (their layer or
 * the override), or nobody. Kept on the alert's escalation for its timeline.
 */
export interface OnCallNote {
  at: Date;
  step: number;
  round: number;
  /** Null on the note that the last step of the last round reached nobody. */
  schedule_id: string | null;
  /** The schedule's name then; null when it was deleted (or no schedule). */
  schedule_name: string | null;
  /** Null: nobody was on call. */
  user_id: string | null;
  /** Their email then. */
  user_email: string | null;
  source: Shift['source'] | null;
  /** The override's author's email, when an override placed them. */
  override_by: string | null;
  /** In words: "on call in Primary (layer 2, Weekdays)", "nobody on call in Primary". */
  text: string;
}

/** An OnCallNote as stored (inside the alert's escalation JSON, newest MAX_ON_CALL_NOTES): `at` ISO. */
export type OnCallNoteJson = Omit<OnCallNote, 'at'> & { at: string };
