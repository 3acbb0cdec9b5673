import type { Weekday } from './types.js';

// The on-call records (domain/oncall/), re-exported by types.ts with the others.

/**
 * A part of the week a schedule layer covers (domain/oncall/): `days` are the days an interval STARTS
 * on; local times `HH:MM` in the schedule's time zone; `end` may be `24:00`; a `start` after its `end`
 * runs past midnight into the next day (as support hours).
 */
export interface ScheduleRestriction {
  days: Weekday[];
  start: string;
  end: string;
}

export type Rotation = 'daily' | 'weekly' | 'custom';

/**
 * One layer of an on-call schedule: `users` take turns in this order. Shift 0 runs from `starts_at` to
 * the first handoff after it, then one shift per handoff: `daily` at local `handoff` each day, `weekly`
 * at `handoff` on `handoff_day`, `custom` every `shift_seconds` of elapsed time from the first local
 * `handoff` after `starts_at`. With `restrictions` the layer covers only those parts of the week (the
 * rotation keeps counting outside them).
 */
export interface ScheduleLayer {
  name: string;
  users: string[];
  rotation: Rotation;
  /** For `custom` only, else null. */
  shift_seconds: number | null;
  handoff: string;
  /** For `weekly` only, else null. */
  handoff_day: Weekday | null;
  starts_at: Date;
  /** Empty: the layer covers all the time. */
  restrictions: ScheduleRestriction[];
}

/** An on-call schedule: ordered layers, a later layer winning where it covers the time. */
export interface Schedule {
  id: string;
  workspace_id: string;
  name: string;
  /** IANA name, canonical spelling. */
  timezone: string;
  layers: ScheduleLayer[];
  created_at: Date;
  updated_at: Date;
}

/** `user_id` on call over [starts_at, ends_at), beating every layer. */
export interface ScheduleOverride {
  id: string;
  workspace_id: string;
  schedule_id: string;
  user_id: string;
  starts_at: Date;
  ends_at: Date;
  /** Who made it (a user id), null for the system or an API key without a user. */
  created_by: string | null;
  /** The shift offer it came from, when a trade made it. */
  offer_id: string | null;
  created_at: Date;
}

/** A final shift: who is on call over [starts_at, ends_at), and why. */
export interface Shift {
  user_id: string;
  starts_at: Date;
  ends_at: Date;
  /** 1-based layer number and its name, or the override that placed the user. */
  source:
    | { kind: 'layer'; layer: number; layer_name: string }
    | { kind: 'override'; override_id: string; created_by: string | null };
}
