/** Records as the domain sees them. Times are Dates; ids are UUIDs. No transport or storage types here. */

import type { MonitorType } from '@lookout/shared';
import type { OnCallNoteJson } from './on-call-note.js';

export type Role = 'admin' | 'member' | 'viewer';
export const ROLES: readonly Role[] = ['admin', 'member', 'viewer'];

export interface Workspace {
  id: string;
  subdomain: string;
  name: string;
  plan: string;
  created_at: Date;
}

export interface User {
  id: string;
  workspace_id: string;
  email: string;
  role: Role;
  /** scrypt hash `scrypt$<salt>$<hash>`, null for users who sign in some other way. */
  password_hash: string | null;
  created_at: Date;
}

export type ApiKeyKind = 'named' | 'legacy';

export interface ApiKey {
  id: string;
  workspace_id: string;
  user_id: string;
  kind: ApiKeyKind;
  name: string;
  /** SHA-256 of the key value, hex. The value itself is never stored. */
  key_hash: string;
  last_four: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  /** Where the last use came from: client address and user agent. */
  last_used_from: string | null;
}

export { MONITOR_TYPES, type MonitorType } from '@lookout/shared'; // declared once, for the agent too

type BasicAuth = { type: 'basic'; username: string; password: string };
export type MonitorAuth = BasicAuth | { type: 'bearer'; token: string };

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/** How loud a failing monitor or heartbeat is: `critical` (the default) or `warning`. */
export const SEVERITIES = ['critical', 'warning'] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * A named group of monitors and heartbeats, one level deep (no group holds a group). A monitor or
 * heartbeat belongs to at most one (`group_id`). Names are unique in the workspace, ignoring case.
 */
export interface Group {
  id: string;
  workspace_id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

export interface Monitor {
  id: string;
  workspace_id: string;
  display_name: string;
  monitor_type: MonitorType;
  url: string;
  http_method: string | null;
  check_interval_seconds: number;
  timeout_seconds: number;
  expected_status_code: number;
  required_keyword: string | null;
  auth: MonitorAuth | null;
  port: number | null;
  request_headers: Record<string, string>;
  request_body: string | null;
  follow_redirects: boolean;
  ssl_cert_monitoring: boolean;
  ssl_cert_expiry_alert_days: number;
  domain_expiry_alert_days: number;
  response_time_threshold_ms: number | null;
  failure_threshold: number;
  /**
   * Seconds between re-checks at a location after a failure there, until `failure_threshold` decides
   * (then, and after a success, the monitor keeps its interval again). At most the interval.
   */
  retry_interval_seconds: number;
  escalation_policy_id: string;
  check_locations: string[];
  dns_record_type: DnsRecordType | null;
  dns_expected_values: string[];
  dns_resolver: string | null;
  /**
   * Ids of monitors, heartbeats (or groups) of the workspace this monitor depends on: while one of them
   * is down, this monitor's failure raises no alert (domain/dependencies/). At most MAX_DEPENDS_ON.
   */
  depends_on: string[];
  paused: boolean;
  /** The group it belongs to (one at most), or null. */
  group_id: string | null;
  /** `key` or `key:value` labels (domain/monitors/labels.ts), at most 20, no repeats. */
  tags: string[];
  severity: Severity;
  /** The type's fields that are not first-protocol columns (domain/checks/), and a sealed `sealed_url`. */
  settings: Readonly<Record<string, unknown>>;
  created_at: Date;
  updated_at: Date;
  /** Bumped on every change; updates are compare-and-set on it. Agents compare it too. */
  version: number;
}

/**
 * A monitor as the replica's catalog holds it (domain/monitors/monitor-catalog.ts): everything that
 * runs, evaluates and alerts on it, without its creation and update times (two Dates, ~200 bytes a
 * monitor that nothing reading the catalog looks at). A Monitor is one.
 */
export type CatalogMonitor = Omit<Monitor, 'created_at' | 'updated_at'>;

/**
 * One entry of the monitor feed: every insert, update or delete of a monitor appends a 'changed'
 * entry in the same transaction; confirmation and "test now" runs append 'run' entries. Sequence
 * numbers grow by one with no gaps, so a reader that finds a gap knows entries were pruned.
 */
export interface MonitorChange {
  seq: number;
  monitor_id: string;
  kind: 'changed' | 'run';
  /** For runs: the location asked to run, why, and the id its result will carry. */
  location: string | null;
  reason: string | null;
  request_id: string | null;
  at: Date;
}

export type HeartbeatState = 'new' | 'up' | 'late' | 'down' | 'paused';

export interface Heartbeat {
  /** Also the secret part of the ping URL. */
  id: string;
  workspace_id: string;
  display_name: string;
  /** Expected time between pings; ignored while `schedule` is set (kept for switching back). */
  period_seconds: number;
  /** A cron schedule (five fields or @hourly/@daily/@weekly/@monthly) read in `timezone`; null: by period. */
  schedule: string | null;
  /** IANA time zone of `schedule` (canonical name), default UTC. */
  timezone: string;
  /** Name in slug pings (`/hb/ping/{ping_key}/{slug}`): `[a-z0-9-]`, unique in the workspace; optional. */
  slug: string | null;
  grace_seconds: number;
  state: HeartbeatState;
  last_ping_at: Date | null;
  escalation_policy_id: string;
  /** What this heartbeat depends on, as a monitor's `depends_on`. */
  depends_on: string[];
  paused: boolean;
  /** As on monitors: the group, the tags and the severity. */
  group_id: string | null;
  tags: string[];
  severity: Severity;
  created_at: Date;
  updated_at: Date;
  version: number;
  /**
   * When the deadline job must next look at this heartbeat (going late, going down, a run overrunning
   * its grace, an alert to raise or resolve); null when nothing is pending. Indexed: the job reads only
   * due heartbeats. Written by pings and by the job, never by edits (an edit sets it to now).
   */
  due_at: Date | null;
  /** When the current run began (`/start`) and has not finished yet; its run id, if it gave one. */
  started_at: Date | null;
  start_rid: string | null;
  /** The open alert this heartbeat raised (missed deadline or failure), until a success resolves it. */
  alert_id: string | null;
  /** Bumped by every ping and every job step: the job's compare-and-set is on it. */
  state_version: number;
  /**
   * When someone resolved this heartbeat's alert while it was still down (POST /alerts/resolve); null
   * otherwise. Until the next success or fail, the heartbeat owes a ping within one period + grace of
   * it, and a run it starts must end within the grace: missing either raises a new alert (spec 3.2).
   * Cleared by a success or fail ping and by the alert the job raises.
   */
  rearmed_at: Date | null;
  /** How long the last run took: from its `/start` to the success or fail that ended it; null if none. */
  last_duration_ms: number | null;
}

export type PingKind = 'success' | 'start' | 'fail';

export interface Ping {
  id: string;
  heartbeat_id: string;
  workspace_id: string;
  kind: PingKind;
  /** When the job says it finished (client timestamp), else when the ping arrived. */
  at: Date;
  received_at: Date;
  source: string | null;
  /** Run id (`?rid=`), pairing a start with its finish. */
  rid: string | null;
  /** The job's exit status when sent as `/{0-255}`. */
  exit_status: number | null;
  /** The request body (e.g. the job's output), UTF-8, at most PING_BODY_MAX_BYTES. */
  body: string | null;
}

export const INTEGRATION_KINDS = ['webhook', 'alertmanager', 'grafana', 'pagerduty'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

/** An inbound alert source. Its service key is shown once; only the SHA-256 is kept. */
export interface Integration {
  id: string;
  workspace_id: string;
  name: string;
  kind: IntegrationKind;
  key_hash: string;
  key_last_four: string;
  escalation_policy_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export type AlertStatus = 'open' | 'acknowledged' | 'resolved';
export type AlertSourceType = 'monitor' | 'heartbeat' | 'integration' | 'region';

export type Actor =
  | { type: 'user'; user_id: string; api_key_id: string | null }
  | { type: 'system' }
  | { type: 'integration'; integration_id: string }
  /** A one-click acknowledge link (domain/alerts/ack-links.ts): the recipient it was made for, and how it reached them. */
  | { type: 'link'; user_id: string | null; channel_id: string | null; via: ChannelType; recipient: string };

export interface Alert {
  id: string;
  workspace_id: string;
  source_type: AlertSourceType;
  source_id: string;
  cause: string;
  dedup_key: string;
  title: string;
  description: string | null;
  severity: 'critical' | 'warning' | 'info';
  status: AlertStatus;
  escalation_policy_id: string | null;
  created_at: Date;
  updated_at: Date;
  acknowledged_at: Date | null;
  acknowledged_by: Actor | null;
  resolved_at: Date | null;
  resolved_by: Actor | null;
  /** Where the escalation stands; null when the alert has no policy. */
  escalation: EscalationProgress | null;
  /**
   * When the scheduler should next look at this alert (the next step, or the end of a claim's lease);
   * null when nothing more will be sent. Once acknowledged or resolved: when its follow-ups (the
   * recovery notice) are due, until they were sent.
   */
  escalation_due_at: Date | null;
  /**
   * How many dependents this alert's source holds back (domain/dependencies/): each dependent that
   * failed while it was down and raised no alert of its own adds one. 0 (or absent on older records).
   */
  held_back?: number;
}

/** An alert's position in its escalation policy. Changed only by compare-and-set (see store port). */
export interface EscalationProgress {
  policy_id: string;
  /** Index of the next step to run. */
  step: number;
  /** How many times the policy has been run through already (0 on the first pass). */
  round: number;
  /** Token of the replica holding the due step (or follow-up); the lease ends at `escalation_due_at`. */
  claim: string | null;
  /** Set when the alert was raised inside a maintenance window: recorded, never escalated. */
  suppressed_by: { window_id: string; name: string } | null;
  /** True once every step of every round has been sent. */
  finished: boolean;
  /**
   * A `warning` alert outside its policy's support hours: the step waits until they begin (ISO time;
   * domain/escalation/support-hours.ts). Null or absent otherwise.
   */
  deferred_until?: string | null;
  /** What steps found in the schedules they name, for the timeline (on-call-note.ts). */
  on_call?: OnCallNoteJson[];
}

export interface EscalationStep {
  wait_minutes: number;
  notify_user_ids: string[];
  notify_channel_ids: string[];
  /** Schedules whose on-call user is notified; absent on older steps (read as []: `stepSchedules`). */
  notify_schedule_ids?: string[];
}

export interface EscalationPolicy {
  id: string;
  workspace_id: string;
  name: string;
  is_default: boolean;
  steps: EscalationStep[];
  repeat: number;
  /** When `warning` alerts may notify (domain/escalation/support-hours.ts); null: at any time. */
  support_hours: SupportHours | null;
  created_at: Date;
  updated_at: Date;
}

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

/** Local times `HH:MM` in `timezone`; `start` after `end` runs past midnight into the next day. */
export interface SupportHours {
  timezone: string;
  days: Weekday[];
  start: string;
  end: string;
}

export type {
  Rotation,
  Schedule,
  ScheduleLayer,
  ScheduleOverride,
  ScheduleRestriction,
  Shift,
} from './schedule-types.js';

/** A notification kind (`email`, `webhook`, `slack`, `discord`, …): one module each in notify/kinds/. */
export type ChannelType = string;

/**
 * The kind's settings in the service's own words (notify/kinds/<type>.ts declares them), with `type`.
 * Secret fields hold a sealed value and its hint (channel-kinds.ts `StoredSecret`).
 */
export type ChannelConfig = { type: ChannelType } & Record<string, unknown>;

/** Where notifications go besides users' email addresses. */
export interface NotificationChannel {
  id: string;
  workspace_id: string;
  name: string;
  type: ChannelType;
  config: ChannelConfig;
  /** Webhooks: the HMAC signing secret (needed to sign, so kept; shown once at creation). */
  secret: string | null;
  created_at: Date;
  updated_at: Date;
}

export type DeliveryOutcome = 'sent' | 'retrying' | 'failed';

/** One attempt to deliver one notification: the delivery log. */
export interface Delivery {
  id: string;
  workspace_id: string;
  /** Null for test notifications. */
  alert_id: string | null;
  channel_id: string | null;
  /** Set when a user was notified (by email). */
  user_id: string | null;
  kind: ChannelType;
  /** The address or the URL's origin, never a secret. */
  target: string;
  step: number | null;
  round: number | null;
  attempt: number;
  outcome: DeliveryOutcome;
  /** True when retrying cannot help (a 4xx, a refused address). */
  permanent: boolean;
  status_code: number | null;
  error: string | null;
  /** alert:policy:round:step:target — a step re-run after a crash skips targets already sent. */
  idempotency_key: string | null;
  /**
   * The service's id of the message it accepted (Telegram `message_id`, Discord message id, Matrix
   * `event_id`), so that what follows the alert can reply to it or edit it. Null when none was given.
   */
  remote_id?: string | null;
  test: boolean;
  at: Date;
}

export const MAINTENANCE_SCOPES = ['workspace', 'monitor', 'heartbeat', 'tag', 'group'] as const;
export type MaintenanceScope = (typeof MAINTENANCE_SCOPES)[number];

/**
 * Alerts raised inside a window are recorded but not escalated. A window is one-off (`starts_at` to
 * `ends_at`) or recurring (`schedule` in `timezone`, each occurrence lasting `duration_seconds`;
 * `ends_at` null, `starts_at` the moment it began to recur): domain/maintenance/cover.ts.
 */
export interface MaintenanceWindow {
  id: string;
  workspace_id: string;
  name: string;
  scope_type: MaintenanceScope;
  /** The monitor, heartbeat or group id, or the tag; null for the whole workspace. */
  scope_id: string | null;
  starts_at: Date;
  ends_at: Date | null;
  schedule: string | null;
  timezone: string | null;
  duration_seconds: number | null;
  created_at: Date;
}

/** What a workspace's active maintenance windows cover at one moment (`coverAt`, maintenance/cover.ts). */
export interface MaintenanceCover {
  workspace: boolean; // a workspace-wide window is active
  monitorIds: string[];
  heartbeatIds: string[];
  groupIds: string[]; // every monitor/heartbeat whose group_id is here is covered
  tags: string[]; // every monitor/heartbeat carrying one of these tags is covered
}
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/** A region-scoped credential for agents. Only its hash is stored. */
export interface AgentToken {
  id: string;
  region: string;
  name: string;
  token_hash: string;
  created_at: Date;
  revoked_at: Date | null;
}

/** One run of one monitor in one location. `id` is deterministic, so replays are stored once. */
export interface CheckResultRecord {
  id: string;
  workspace_id: string;
  monitor_id: string;
  monitor_version: number;
  location: string;
  instance_id: string;
  scheduled_at: Date;
  started_at: Date;
  received_at: Date;
  ok: boolean;
  error_kind: string | null;
  error_message: string | null;
  response_time_ms: number;
  status_code: number | null;
  timings: {
    dns_ms: number;
    connect_ms: number;
    tls_ms: number;
    first_byte_ms: number;
    total_ms: number;
  } | null;
  tls_valid_to: Date | null;
  domain_expires_at: Date | null;
  dns_records: string[];
  run_now_request_id: string | null;
  /**
   * A maintenance window covered the monitor at `scheduled_at` when the result came in (decided at
   * ingestion, never rewritten: docs/decisions.md); absent = false.
   */
  in_maintenance?: boolean;
}

/** Per monitor and location: consecutive counters, changed only by compare-and-set on `version`. */
export interface MonitorLocationState {
  monitor_id: string;
  location: string;
  status: 'up' | 'down' | 'unknown';
  consecutive_failures: number;
  consecutive_successes: number;
  consecutive_slow: number;
  last_result_at: Date | null;
  last_scheduled_at: Date | null;
  version: number;
}

/** A page request: `limit` items after the opaque `cursor` of the previous page. */
export interface PageQuery {
  cursor?: string | undefined;
  limit: number;
}
