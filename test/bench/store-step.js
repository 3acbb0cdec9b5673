// The location step the store benches store results with (store-child.js, store-reads-child.js): every
// result a success, counted. Evaluation itself is not what they measure. And how they flush.
export const upStep = (prev, r) => ({
  monitor_id: r.monitor_id,
  location: r.location,
  status: 'up',
  consecutive_failures: 0,
  consecutive_successes: (prev?.consecutive_successes ?? 0) + 1,
  consecutive_slow: 0,
  last_result_at: r.received_at,
  last_scheduled_at: r.scheduled_at,
  version: (prev?.version ?? 0) + 1,
});

/** A location step that counts: failures and successes in a row, as ingestion moves a location's state. */
export const countingStep = (prev, r) => ({
  monitor_id: r.monitor_id,
  location: r.location,
  status: r.ok ? 'up' : 'down',
  consecutive_failures: r.ok ? 0 : (prev?.consecutive_failures ?? 0) + 1,
  consecutive_successes: r.ok ? (prev?.consecutive_successes ?? 0) + 1 : 0,
  consecutive_slow: 0,
  last_result_at: r.received_at,
  last_scheduled_at: r.scheduled_at,
  version: (prev?.version ?? 0) + 1,
});

/**
 * The fold of every waiting result, now: the store's own `flushResults`, or on a tree from before it
 * (an A side of `--vs`) a prune with nothing to delete, which flushed first then.
 */
export const flushResults = (store) =>
  store.flushResults ? store.flushResults() : store.pruneResults(new Date(0), 1);
