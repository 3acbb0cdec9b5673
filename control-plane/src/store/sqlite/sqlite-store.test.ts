import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtures, storeContract } from '../contract.js';
import { createSqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'lookout-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

storeContract('sqlite', async () => createSqliteStore({ path: join(dir, `store-${n++}.db`) }), {
  at: (key, opts) => createSqliteStore({ path: join(dir, key, 'lookout.db'), ...opts }),
  drop: async (key) => rmSync(join(dir, key), { recursive: true, force: true }),
});

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
