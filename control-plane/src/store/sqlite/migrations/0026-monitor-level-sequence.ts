/**
 * A sequence every insert, update or delete of a monitor-level ('*') row of monitor_states moves,
 * by trigger (whichever process or statement wrote it): a process's copy of those rows
 * (monitor-levels.ts) is good while the sequence is where it was when the copy was read.
 */
export default [
  'CREATE TABLE monitor_level_seq (id INTEGER PRIMARY KEY CHECK (id = 0), seq INTEGER NOT NULL) STRICT',
  'INSERT INTO monitor_level_seq (id, seq) VALUES (0, 0)',
  `CREATE TRIGGER monitor_level_insert AFTER INSERT ON monitor_states WHEN NEW.location = '*'
       BEGIN UPDATE monitor_level_seq SET seq = seq + 1; END`,
  `CREATE TRIGGER monitor_level_update AFTER UPDATE ON monitor_states
       WHEN OLD.location = '*' OR NEW.location = '*'
       BEGIN UPDATE monitor_level_seq SET seq = seq + 1; END`,
  `CREATE TRIGGER monitor_level_delete AFTER DELETE ON monitor_states WHEN OLD.location = '*'
       BEGIN UPDATE monitor_level_seq SET seq = seq + 1; END`,
];
