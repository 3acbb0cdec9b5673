// The location step the store benches store results with (store-child.js, store-reads-child.js): every
// result a success, counted. Evaluation itself is not what they measure.
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
