/**
 * A run-now result's id derives from its request, not from its time: a request run twice (its
 * monitor moved between agents while it waited) gives two results with one id and two times, which
 * the (monitor_id, scheduled_at, id) index let in. Unique ids for those (a partial index: scheduled
 * results, whose id holds their time, never enter it); a duplicate already stored goes first.
 */
export default [
  `DELETE FROM check_results WHERE run_now_request_id IS NOT NULL AND rowid NOT IN
       (SELECT min(rowid) FROM check_results WHERE run_now_request_id IS NOT NULL GROUP BY id)`,
  'CREATE UNIQUE INDEX check_results_run ON check_results (id) WHERE run_now_request_id IS NOT NULL',
];
