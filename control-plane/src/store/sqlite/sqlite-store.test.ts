import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtures } from '../../../../test/contract/fixtures.js';
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
