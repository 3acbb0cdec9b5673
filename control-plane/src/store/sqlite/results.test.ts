import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { result } from '../../../../test/contract/fixtures.js';
import type { MonitorLocationState } from '../../domain/types.js';
import { createSqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'lookout-results-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('recordResults writes each location state once per batch, as it is after its last result', async () => {
  const path = join(dir, 'once.db');
  const store = createSqliteStore({ path });
  await store.init();
  // Every row write to monitor_states, counted by triggers on the same file.
  const db = new Database(path);
  db.exec(`CREATE TABLE state_writes (location TEXT);
    CREATE TRIGGER sw_i AFTER INSERT ON monitor_states BEGIN INSERT INTO state_writes VALUES (new.location); END;
    CREATE TRIGGER sw_u AFTER UPDATE ON monitor_states BEGIN INSERT INTO state_writes VALUES (new.location); END;`);
  const at = (s: number) => new Date(Date.UTC(2026, 2, 1) + s * 1000);
  const rs = [
    result('ws', 'm1', { id: 'a', location: 'eu-west', scheduled_at: at(0) }),
    result('ws', 'm1', { id: 'b', location: 'us-east', scheduled_at: at(1) }),
    result('ws', 'm1', { id: 'c', location: 'eu-west', scheduled_at: at(2) }),
    result('ws', 'm1', { id: 'd', location: 'eu-west', scheduled_at: at(3) }),
  ];
  const step = (prev: MonitorLocationState | null, r: (typeof rs)[number]): MonitorLocationState => ({
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
  const out = await store.recordResults(rs, step);
  expect(out.stored).toEqual(['a', 'b', 'c', 'd']);
  const writes = db.prepare('SELECT location FROM state_writes ORDER BY location').pluck().all();
  expect(writes).toEqual(['eu-west', 'us-east']);
  const stored = db
    .prepare(
      "SELECT consecutive_successes, version, last_scheduled_at FROM monitor_states WHERE location = 'eu-west'",
    )
    .get();
  expect(stored).toEqual({ consecutive_successes: 3, version: 3, last_scheduled_at: at(3).getTime() });
  db.close();
  await store.close();
});
