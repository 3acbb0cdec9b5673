import { AppError, newId } from '@lookout/shared';
import type { Monitor } from '../types.js';
import type { MonitorStore } from './monitor-store.js';

/**
 * When a monitor runs outside its schedule (its first check at once, "check now") and how often and
 * where it runs at all: the rules the agent service, the catalog and the API share.
 */
/**
 * The most monitors of one `POST /monitors/batch` whose first check is asked for at once; the rest
 * start on their phase slot, spread evenly over one interval (docs/decisions.md, "First check at once").
 */
export const FIRST_RUNS_PER_BATCH = 100;

/** The fields whose change makes an edited monitor check at once: what is checked, how and where. */
const CHECK_FIELDS = [
  'url',
  'http_method',
  'timeout_seconds',
  'expected_status_code',
  'required_keyword',
  'auth',
  'port',
  'request_headers',
  'request_body',
  'follow_redirects',
  'ssl_cert_monitoring',
  'check_locations',
  'dns_record_type',
  'dns_expected_values',
  'dns_resolver',
] as const satisfies readonly (keyof Monitor)[];

/** An edit that changes what is checked, how or where, or resumes the monitor (`paused: false`). */
export const changesTheCheck = (before: Monitor, after: Monitor) =>
  !after.paused &&
  (before.paused || CHECK_FIELDS.some((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f])));

/**
 * A new, changed or resumed monitor's first check, at once and in every location that runs it, instead
 * of at its phase slot up to an interval later: run requests through the monitor feed like "check now"
 * (reason `first`, which an agent runs only when it has a free place at once, so these never hold up
 * scheduled checks). After that the monitor keeps its wall-clock phase. Paused monitors run nothing.
 */
export const requestFirstRuns = async (
  store: Pick<MonitorStore, 'requestRuns'>,
  monitors: readonly Monitor[],
  now: Date,
) => {
  await store.requestRuns(
    monitors
      .filter((m) => !m.paused)
      .flatMap((m) =>
        runningLocations(m).map((location) => ({
          monitor_id: m.id,
          location,
          reason: 'first',
          request_id: newId(),
          at: now,
        })),
      ),
  );
};

/**
 * "Check now": asks every location that runs the monitor for a run at once, through the monitor feed
 * (run requests, like the confirmation runs of domain/results/check-results.ts; reason `test`, which the agent
 * service hands to the agent running it there). Each result comes back with its run request id.
 * A paused monitor runs nothing: conflict. Returns the locations asked.
 */
export const checkNow = async (
  store: Pick<MonitorStore, 'requestRuns'>,
  m: Monitor,
  now: Date,
): Promise<string[]> => {
  if (m.paused) throw new AppError('conflict', 'The monitor is paused; resume it to run checks.');
  const locations = runningLocations(m);
  await store.requestRuns(
    locations.map((location) => ({
      monitor_id: m.id,
      location,
      reason: 'test',
      request_id: newId(),
      at: now,
    })),
  );
  return locations;
};

/** Domain registrations change slowly: checked at most every 6 hours, from one region. */
export const DOMAIN_MIN_INTERVAL_SECONDS = 6 * 3600;

/** How often a monitor actually runs (domain checks are spaced out whatever the setting). */
export const effectiveIntervalSeconds = (m: Pick<Monitor, 'monitor_type' | 'check_interval_seconds'>) =>
  m.monitor_type === 'domain'
    ? Math.max(m.check_interval_seconds, DOMAIN_MIN_INTERVAL_SECONDS)
    : m.check_interval_seconds;

/**
 * How long after a failure a location checks again (0: not before its next slot). Domain checks keep
 * their spacing: registration data changes slowly and its servers limit how often they are asked.
 */
export const effectiveRetrySeconds = (
  m: Pick<Monitor, 'monitor_type' | 'check_interval_seconds' | 'retry_interval_seconds'>,
) => (m.monitor_type === 'domain' ? 0 : Math.min(m.retry_interval_seconds, m.check_interval_seconds));

/** The locations that run a monitor: all of check_locations, except domain checks, which run from the first. */
export const runningLocations = (m: Pick<Monitor, 'monitor_type' | 'check_locations'>): string[] =>
  m.monitor_type === 'domain' ? [...m.check_locations].sort().slice(0, 1) : m.check_locations;
