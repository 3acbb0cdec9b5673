import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtures, result } from '../../../../test/contract/fixtures.js';
import { ingestResults } from '../../domain/results/check-results.js';
import type { Monitor } from '../../domain/types.js';
import { createSqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'lookout-monitors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const opened = async (name: string) => {
  const path = join(dir, name);
  const store = createSqliteStore({ path });
  await store.init();
  const ws = fixtures.workspace();
  await store.createWorkspace(ws);
  const make = () => fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id);
  // A second connection on the same file, as another process would have.
  const raw = new Database(path);
  return { path, store, ws, make, raw };
};

/**
 * Transactions committed to the WAL since it was last truncated: frames whose header carries the
 * database size (only a transaction's last frame does), with the salts of the current WAL.
 */
const commitsInWal = (path: string) => {
  const wal = readFileSync(`${path}-wal`);
  if (wal.length < 32) return 0;
  const pageSize = wal.readUInt32BE(8);
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salts[0] || wal.readUInt32BE(at + 12) !== salts[1]) break;
    if (wal.readUInt32BE(at + 4) !== 0) commits++;
  }
  return commits;
};

describe('SQLite monitors', () => {
  it('the plan cap reads the workspace’s counter, kept with every create and delete, never a count of its monitors', async () => {
    const { store, ws, make, raw } = await opened('cap.db');
    const count = () =>
      raw.prepare('SELECT monitor_count FROM workspaces WHERE id = ?').pluck().get(ws.workspace.id);
    const a = make();
    expect(await store.insertMonitor(a, { maxMonitors: 10 })).toBe('inserted');
    expect(await store.insertMonitor(make(), { maxMonitors: 10 })).toBe('inserted');
    expect(count()).toBe(2);
    expect(await store.deleteMonitor(ws.workspace.id, a.id)).toBe(true);
    expect(count()).toBe(1);
    // The counter alone decides: one monitor stored, but a counter at the cap refuses the next one.
    raw.prepare('UPDATE workspaces SET monitor_count = 10 WHERE id = ?').run(ws.workspace.id);
    expect(await store.insertMonitor(make(), { maxMonitors: 10 })).toBe('limit_reached');
    raw.prepare('UPDATE workspaces SET monitor_count = 1 WHERE id = ?').run(ws.workspace.id);
    expect(await store.insertMonitor(make(), { maxMonitors: 10 })).toBe('inserted');
    expect(count()).toBe(2);
    // A workspace that does not exist has no room.
    expect(
      await store.insertMonitor(fixtures.monitor('no-such-workspace', ws.defaultPolicy.id), {
        maxMonitors: 10,
      }),
    ).toBe('limit_reached');
    raw.close();
    await store.close();
  });

  it('the first verdicts of a batch of new monitors commit together, not one transaction each', async () => {
    const { path, store, ws, make, raw } = await opened('first-verdicts.db');
    const monitors: Monitor[] = [];
    for (let i = 0; i < 50; i++) {
      const m = make();
      await store.insertMonitor(m, { maxMonitors: 100 });
      monitors.push(m);
    }
    raw.pragma('wal_checkpoint(TRUNCATE)');
    expect(commitsInWal(path)).toBe(0);
    const now = new Date();
    await ingestResults(
      {
        store,
        catalog: { resolve: async () => new Map(monitors.map((m) => [m.id, m])) },
      },
      {
        region: 'eu-west',
        instanceId: 'eu-1',
        results: monitors.map((m) =>
          result(ws.workspace.id, m.id, { scheduled_at: now, started_at: now, tls_valid_to: null }),
        ),
      },
      now,
    );
    // Every monitor has its first verdict (up), written with the others.
    const up = raw.prepare("SELECT count(*) FROM monitor_states WHERE location = '*' AND status = 'up'");
    expect(up.pluck().get()).toBe(50);
    // The results with their location states, then the 50 monitor-level rows: two commits.
    expect(commitsInWal(path)).toBe(2);
    raw.close();
    await store.close();
  });
});
