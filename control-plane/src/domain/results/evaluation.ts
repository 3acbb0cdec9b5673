import { effectiveIntervalSeconds, runningLocations } from '../monitors/monitor-runs.js';
import type { CatalogMonitor, CheckResultRecord, MonitorLocationState } from '../types.js';

/**
 * Check evaluation as pure functions: a result moves one location's counters; the locations together
 * decide whether the monitor is down. The store applies the outcome by compare-and-set.
 */

const DAY_MS = 86_400_000;

export const initialState = (monitorId: string, location: string): MonitorLocationState => ({
  monitor_id: monitorId,
  location,
  status: 'unknown',
  consecutive_failures: 0,
  consecutive_successes: 0,
  consecutive_slow: 0,
  last_result_at: null,
  last_scheduled_at: null,
  version: 0,
});

const isSlow = (m: CatalogMonitor, r: CheckResultRecord) =>
  r.ok && m.response_time_threshold_ms !== null && r.response_time_ms > m.response_time_threshold_ms;

/**
 * The location's next state after `r`, or null when `r` is older than what the state already counted
 * (a replay or an out-of-order arrival changes nothing). A location is down after `failure_threshold`
 * consecutive failures and up again after one success.
 */
export const applyResult = (
  m: CatalogMonitor,
  s: MonitorLocationState,
  r: CheckResultRecord,
): MonitorLocationState | null => {
  if (s.last_scheduled_at && r.scheduled_at.getTime() <= s.last_scheduled_at.getTime()) return null;
  const failures = r.ok ? 0 : s.consecutive_failures + 1;
  const successes = r.ok ? s.consecutive_successes + 1 : 0;
  let status = s.status;
  if (!r.ok && failures >= m.failure_threshold) status = 'down';
  if (r.ok) status = 'up';
  return {
    ...s,
    status,
    consecutive_failures: failures,
    consecutive_successes: successes,
    consecutive_slow: isSlow(m, r) ? s.consecutive_slow + 1 : 0,
    last_result_at: r.received_at,
    last_scheduled_at: r.scheduled_at,
    version: s.version + 1,
  };
};

/** A location votes only with a fresh result: within three intervals (plus the timeout) of now. */
export const isFresh = (m: CatalogMonitor, s: MonitorLocationState, now: Date) =>
  s.last_result_at !== null &&
  now.getTime() - s.last_result_at.getTime() <=
    3 * effectiveIntervalSeconds(m) * 1000 + m.timeout_seconds * 1000;

export interface Verdict {
  /**
   * The monitor's verdict, the one rule behind its `status` (domain/monitors/monitor-status.ts): `down` when
   * at least `quorum` voting locations are failing; else `up` when some voting location's own verdict
   * is a success (it has succeeded, and not failed `failure_threshold` times since); else `pending`:
   * nothing decided yet (no location has a success, and the failing ones are too few or below the
   * threshold). A monitor is never up without a successful check.
   */
  status: 'up' | 'down' | 'pending';
  down: boolean;
  slow: boolean;
  /** Locations that vote (fresh results), and those of them that are failing. */
  voting: string[];
  failing: string[];
  quorum: number;
}

/**
 * The monitor is down when at least `quorum` voting locations are down; quorum = min(2, voting
 * locations), at least 1. Locations without a fresh result are unknown and do not vote. It is slow when
 * any voting location saw `failure_threshold` consecutive slow successes.
 */
export const verdict = (m: CatalogMonitor, states: MonitorLocationState[], now: Date): Verdict => {
  const locations = runningLocations(m);
  const voting = states.filter((s) => locations.includes(s.location) && isFresh(m, s, now));
  const failing = voting.filter((s) => s.status === 'down');
  const quorum = Math.max(1, Math.min(2, voting.length));
  const down = voting.length > 0 && failing.length >= quorum;
  return {
    status: down ? 'down' : voting.some((s) => s.status === 'up') ? 'up' : 'pending',
    down,
    slow:
      m.response_time_threshold_ms !== null && voting.some((s) => s.consecutive_slow >= m.failure_threshold),
    voting: voting.map((s) => s.location),
    failing: failing.map((s) => s.location),
    quorum,
  };
};

/**
 * What the monitor-level ('*') row becomes after a verdict: its status is what the API shows
 * (domain/monitors/monitor-status.ts), and its flips into and out of `down` decide the monitor's alert.
 * `pending` leaves a `down` row down (its alert stays open until a check succeeds) and makes any other
 * row `unknown` (pending): a monitor is up only while a location's checks say so.
 */
export const monitorRowStatus = (
  row: MonitorLocationState['status'],
  v: Pick<Verdict, 'status'>,
): MonitorLocationState['status'] =>
  v.status === 'pending' ? (row === 'down' ? 'down' : 'unknown') : v.status;

/** The first failure at a location after successes: time to ask the other locations to check now. */
export const wantsConfirmation = (prev: MonitorLocationState, next: MonitorLocationState) =>
  next.consecutive_failures === 1 && prev.consecutive_failures === 0 && next.status !== 'down';

export interface ExpiryState {
  /** Days left, rounded down; null when the result carries no such date. */
  days: number | null;
  expiring: boolean;
  at: Date | null;
}

export const tlsExpiry = (m: CatalogMonitor, r: CheckResultRecord, now: Date): ExpiryState => {
  if (!m.ssl_cert_monitoring || !r.tls_valid_to) return { days: null, expiring: false, at: null };
  const days = Math.floor((r.tls_valid_to.getTime() - now.getTime()) / DAY_MS);
  return { days, expiring: days < m.ssl_cert_expiry_alert_days, at: r.tls_valid_to };
};

export const domainExpiry = (m: CatalogMonitor, r: CheckResultRecord, now: Date): ExpiryState => {
  if (m.monitor_type !== 'domain' || !r.domain_expires_at) return { days: null, expiring: false, at: null };
  const days = Math.floor((r.domain_expires_at.getTime() - now.getTime()) / DAY_MS);
  return { days, expiring: days < m.domain_expiry_alert_days, at: r.domain_expires_at };
};
