/**
 * The retry interval after a failure (issue 51): monitors made before it get the default, 15 s or
 * their interval when that is shorter (domain/monitors/monitors.ts, DEFAULT_RETRY_INTERVAL_SECONDS).
 */
export default [
  'ALTER TABLE monitors ADD COLUMN retry_interval_seconds INTEGER',
  'UPDATE monitors SET retry_interval_seconds = min(15, check_interval_seconds)',
];
