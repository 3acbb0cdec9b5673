import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtures } from '../../../../test/contract/fixtures.js';
import { STATUSES_BY_ID_SQL } from './monitor-status.js';
import { createSqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'lookout-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// The store contract runs against SQLite from test/contract/ (one suite per port).

describe('sqlite file shared by two processes', () => {
  it('runs migrations once and sees the other connection’s writes', async () => {
    const path = join(dir, 'shared.db');
    const a = createSqliteStore({ path });
    const b = createSqliteStore({ path });
    await Promise.all([a.init(), b.init()]);
    const ws = fixtures.workspace();
    await a.createWorkspace(ws);
    expect(await b.getWorkspaceBySubdomain(ws.workspace.subdomain)).toEqual(ws.workspace);
    const first = await a.raiseAlert(fixtures.alert(ws.workspace.id));
    const second = await b.raiseAlert(fixtures.alert(ws.workspace.id));
    expect([first.created, second.created]).toEqual([true, false]);
    expect(second.alert.id).toBe(first.alert.id);
    await a.close();
    await b.close();
  });
});

describe('sqlite query plans that must not grow with a workspace', () => {
  it('the statuses of a few monitors are read by primary key, not by walking the workspace’s index', async () => {
    const path = join(dir, 'plans.db');
    const store = createSqliteStore({ path });
    await store.init();
    await store.close();
    // No ANALYZE statistics, as in a real file: the plan is the one SQLite picks from the schema alone.
    const db = new Database(path, { readonly: true });
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${STATUSES_BY_ID_SQL}`)
      .all('["a"]', 'ws')
      .map((r) => (r as { detail: string }).detail);
    db.close();
    const outer = plan.find((d) => /\bm\b/.test(d) && /SEARCH|SCAN/.test(d));
    expect(outer).toMatch(/SEARCH m USING INDEX sqlite_autoindex_monitors_1 \(id=\?\)/);
  });
});

describe('monitors stored before the list sorted by name', () => {
  it('get their folded name when the store opens, every letter folded as the search folds it', async () => {
    const path = join(dir, 'name-keys.db');
    const store = createSqliteStore({ path });
    await store.init();
    const ws = fixtures.workspace();
    await store.createWorkspace(ws);
    const m = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, { display_name: 'Ärger API' });
    expect(await store.insertMonitor(m, { maxMonitors: 10 })).toBe('inserted');
    await store.close();
    // As a file migrated from before the order holds it: no folded name yet.
    const db = new Database(path);
    db.prepare('UPDATE monitors SET name_key = NULL').run();
    db.close();
    const again = createSqliteStore({ path });
    await again.init();
    await again.close();
    const check = new Database(path, { readonly: true });
    expect(check.prepare('SELECT name_key FROM monitors WHERE id = ?').pluck().get(m.id)).toBe('ärger api');
    check.close();
  });
});
