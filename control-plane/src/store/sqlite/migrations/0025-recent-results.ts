import { createTable, resultColumnNames, resultColumns } from './frozen-tables.js';

/**
 * Results stored the way they arrive (issue 27): appended to check_results_recent (no per-monitor
 * index; each row with its location's state), folded into check_results monitor by monitor with
 * the uptime flush (rollups.ts). The marks' row ids become the recent table's; its rows are those
 * after either mark (the log the state book replays, the results the buckets wait for), and of those
 * only the ones not yet in the buckets leave check_results. `folded_through`: the newest scheduled
 * time a flush may have folded (results.ts looks for a replayed result's first copy in check_results only up to
 * it). check_results is pruned by row id (fold order), so its received_at index goes.
 */
export default [
  createTable('check_results_recent', [
    'rid INTEGER PRIMARY KEY AUTOINCREMENT',
    ...resultColumns,
    'state_status TEXT',
    'state_failures INTEGER',
    'state_successes INTEGER',
    'state_slow INTEGER',
  ]),
  'CREATE UNIQUE INDEX check_results_recent_time ON check_results_recent (scheduled_at, id)',
  'CREATE UNIQUE INDEX check_results_recent_run ON check_results_recent (id) WHERE run_now_request_id IS NOT NULL',
  'ALTER TABLE uptime_rollup_mark ADD COLUMN folded_through INTEGER',
  `INSERT INTO check_results_recent (rid, ${resultColumnNames}, state_status, state_failures, state_successes, state_slow)
       SELECT rowid, ${resultColumnNames}, state_status, state_failures, state_successes, state_slow FROM check_results
       WHERE rowid > min((SELECT upto FROM uptime_rollup_mark), (SELECT upto FROM result_state_mark))`,
  `DELETE FROM check_results WHERE rowid > (SELECT upto FROM uptime_rollup_mark)
       AND NOT (rowid <= coalesce((SELECT flush_to FROM uptime_rollup_mark), 0)
         AND monitor_id <= coalesce((SELECT flush_done FROM uptime_rollup_mark), ''))`,
  `INSERT INTO sqlite_sequence (name, seq) SELECT 'check_results_recent', 0
       WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'check_results_recent')`,
  `UPDATE sqlite_sequence SET seq = max(seq, (SELECT upto FROM uptime_rollup_mark),
       (SELECT upto FROM result_state_mark), (SELECT coalesce(max(rowid), 0) FROM check_results))
       WHERE name = 'check_results_recent'`,
  `UPDATE uptime_rollup_mark SET waiting_from = NULL, folded_through = max(
       (SELECT coalesce(max(scheduled_at), 0) FROM check_results),
       (SELECT coalesce(max(scheduled_at), 0) FROM check_results_recent))`,
  'DROP INDEX check_results_received',
  'ALTER TABLE check_results DROP COLUMN state_status',
  'ALTER TABLE check_results DROP COLUMN state_failures',
  'ALTER TABLE check_results DROP COLUMN state_successes',
  'ALTER TABLE check_results DROP COLUMN state_slow',
];
