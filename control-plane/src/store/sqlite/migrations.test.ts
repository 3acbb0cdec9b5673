import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sqliteContext } from './db.js';
import { migrate, migrations } from './migrations.js';
import * as tables from './tables.js';

type Row = Record<string, unknown>;

const open = () => {
  const db = new Database(':memory:');
  return { db, ctx: sqliteContext(db) };
};
const userTables = (db: Database.Database) =>
  (
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('schema_migrations', 'sqlite_sequence') ORDER BY name",
      )
      .all() as { name: string }[]
  ).map((t) => t.name);
const columnsOf = (db: Database.Database, table: string) =>
  (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; type: string; notnull: number }[]).map(
    (c) => ({ name: c.name, type: c.type, notnull: c.notnull }),
  );
const schema = (db: Database.Database) =>
  db
    .prepare(
      "SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY type, name",
    )
    .all();

/**
 * One row per table, every column set, as a database at that step could hold it. A table its
 * migration already filled (the one-row uptime_rollup_mark) keeps its row.
 */
const fillEveryTable = (db: Database.Database, step: number) => {
  const rows = new Map<string, Row>();
  for (const table of userTables(db)) {
    if (db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() !== 0) continue;
    const row: Row = {};
    for (const c of columnsOf(db, table))
      row[c.name] =
        c.type === 'INTEGER'
          ? c.name === 'id'
            ? 1
            : 1000 + step
          : c.type === 'BLOB'
            ? Buffer.from(`${table}-${c.name}-${step}`)
            : `${table}-${c.name}-${step}`;
    const cols = Object.keys(row);
    db.prepare(
      `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`,
    ).run(row);
    rows.set(table, row);
  }
  return rows;
};

/** Tables that triggers on other tables write (migration 36: monitor_status_counts). */
const KEPT_BY_TRIGGERS = new Set(['monitor_status_counts']);

afterEach(() => {
  vi.doUnmock('./tables.js');
  vi.resetModules();
});

describe('SQLite migrations', () => {
  it('a database left at any earlier migration migrates to the latest schema, and its rows survive', () => {
    const fresh = open();
    migrate(fresh.ctx);
    for (let step = 0; step < migrations.length; step++) {
      const { db, ctx } = open();
      migrate(ctx, migrations.slice(0, step));
      const before = fillEveryTable(db, step);
      migrate(ctx);
      expect(schema(db), `from step ${step}`).toEqual(schema(fresh.db));
      for (const table of userTables(db))
        expect(columnsOf(db, table), `${table} from step ${step}`).toEqual(columnsOf(fresh.db, table));
      for (const [table, row] of before) {
        const cols = Object.keys(row);
        if (table === 'check_results' && !before.has('check_results_recent')) {
          // A result already in the uptime buckets stays (without the state its row carried, which
          // the snapshot holds); one still waiting for them moves to the recent results (issue 27).
          const kept = db.prepare('SELECT * FROM check_results').all() as Row[];
          const moved = db.prepare('SELECT * FROM check_results_recent').all() as Row[];
          expect(kept.length + moved.length, `check_results from step ${step}`).toBe(1);
          const [now] = [...kept, ...moved];
          const expected = Object.fromEntries(cols.filter((c) => c in now!).map((c) => [c, row[c]]));
          expect(now, `check_results from step ${step}`).toMatchObject(expected);
          if (moved.length === 1) expect(Object.keys(expected)).toEqual(cols);
          continue;
        }
        const rows = db.prepare(`SELECT ${cols.join(', ')} FROM ${table}`).all();
        // A table kept by triggers on another (the monitors' counts per status) also has the rows
        // those triggers added for the other table's filled row.
        if (KEPT_BY_TRIGGERS.has(table)) expect(rows, `${table} from step ${step}`).toContainEqual(row);
        else expect(rows, `${table} from step ${step}`).toEqual([row]);
      }
      db.close();
    }
    // Every step migrates a database of its own: seconds on a loaded 2-core box.
  }, 30_000);

  it('a database from before the monitor counter gets each workspace’s count from its monitors', () => {
    const { db, ctx } = open();
    const step = migrations.findIndex((sqls) => sqls.some((sql) => sql.includes('ADD COLUMN monitor_count')));
    expect(step).toBeGreaterThan(0);
    migrate(ctx, migrations.slice(0, step));
    const insertWorkspace = db.prepare('INSERT INTO workspaces (id, subdomain) VALUES (?, ?)');
    for (const ws of ['a', 'b', 'c']) insertWorkspace.run(ws, ws);
    const insertMonitor = db.prepare('INSERT INTO monitors (id, workspace_id) VALUES (?, ?)');
    for (const [id, ws] of [
      ['m1', 'a'],
      ['m2', 'a'],
      ['m3', 'a'],
      ['m4', 'b'],
    ])
      insertMonitor.run(id, ws);
    migrate(ctx);
    expect(db.prepare('SELECT id, monitor_count FROM workspaces ORDER BY id').all()).toEqual([
      { id: 'a', monitor_count: 3 },
      { id: 'b', monitor_count: 1 },
      { id: 'c', monitor_count: 0 },
    ]);
    db.close();
  });

  it('a custom domain stored before proofs existed becomes pending, with a token of its own', () => {
    const { db, ctx } = open();
    const step = migrations.findIndex((sqls) => sqls.some((sql) => sql.includes('custom_domain_token TEXT')));
    expect(step).toBeGreaterThan(0);
    migrate(ctx, migrations.slice(0, step));
    const insert = db.prepare(
      `INSERT INTO status_pages (id, workspace_id, name, slug, custom_domain, visibility, cookie_secret,
         auto_draft_incidents, components, created_at, updated_at) VALUES (?, 'w', 'P', ?, ?, 'public', 'k', 0, '[]', 0, 0)`,
    );
    insert.run('p1', 'a', 'status.a.test');
    insert.run('p2', 'b', 'status.b.test');
    insert.run('p3', 'c', null);
    migrate(ctx);
    const rows = db
      .prepare(
        'SELECT id, custom_domain_token t, custom_domain_status s, custom_domain_failures f FROM status_pages ORDER BY id',
      )
      .all() as { id: string; t: string | null; s: string | null; f: number }[];
    expect(rows.map((r) => [r.id, r.s, r.f])).toEqual([
      ['p1', 'pending', 0],
      ['p2', 'pending', 0],
      ['p3', null, 0],
    ]);
    expect(rows[0]!.t).toMatch(/^[0-9a-f]{32}$/);
    expect(rows[1]!.t).toMatch(/^[0-9a-f]{32}$/);
    expect(rows[0]!.t).not.toBe(rows[1]!.t);
    expect(rows[2]!.t).toBeNull();
    db.close();
  });

  it('monitors from before the retry interval get the default: 15 s, or their interval when shorter', () => {
    const { db, ctx } = open();
    const step = migrations.findIndex((sqls) =>
      sqls.some((sql) => sql.includes('ADD COLUMN retry_interval_seconds')),
    );
    expect(step).toBeGreaterThan(0);
    migrate(ctx, migrations.slice(0, step));
    const insert = db.prepare(
      'INSERT INTO monitors (id, workspace_id, check_interval_seconds) VALUES (?, ?, ?)',
    );
    insert.run('m60', 'a', 60);
    insert.run('m10', 'a', 10);
    migrate(ctx);
    expect(db.prepare('SELECT id, retry_interval_seconds FROM monitors ORDER BY id').all()).toEqual([
      { id: 'm10', retry_interval_seconds: 10 },
      { id: 'm60', retry_interval_seconds: 15 },
    ]);
    db.close();
  });

  it('an agent session from before agents declared check types runs the first protocol’s types', () => {
    const { db, ctx } = open();
    const step = migrations.findIndex((sqls) => sqls.some((sql) => sql.includes('ADD COLUMN check_types')));
    expect(step).toBeGreaterThan(0);
    migrate(ctx, migrations.slice(0, step));
    db.prepare(
      "INSERT INTO agent_sessions (instance_id, region, session_id, epoch) VALUES ('a', 'eu-west', 's', 1)",
    ).run();
    migrate(ctx);
    const row = ctx.one<{ check_types: string[] }>(tables.agentSessions, 'SELECT * FROM agent_sessions');
    expect(row?.check_types).toEqual(['http', 'api', 'dns', 'tcp', 'domain']);
    db.close();
  });

  it('the migrated schema has every column of the table layouts the adapter reads and writes', () => {
    const { db, ctx } = open();
    migrate(ctx);
    const layouts = Object.values(tables).filter(
      (t): t is tables.Table => typeof t === 'object' && t !== null && 'columns' in t,
    );
    expect(layouts.length).toBeGreaterThan(10);
    for (const t of layouts) {
      const have = new Set(columnsOf(db, t.name).map((c) => c.name));
      expect(
        Object.keys(t.columns).filter((c) => !have.has(c)),
        `${t.name}: columns without a migration`,
      ).toEqual([]);
    }
  });

  it('adding a column is one new migration at the end: shipped migrations never follow the live layouts', async () => {
    // A developer adds a monitor field: the layout gains a column, and one migration adds it.
    vi.doMock('./tables.js', async (importOriginal) => {
      const t = await importOriginal<typeof tables>();
      return { ...t, monitors: { ...t.monitors, columns: { ...t.monitors.columns, added_later: 'text' } } };
    });
    const edited = await import('./migrations.js');
    const next = [...edited.migrations, ['ALTER TABLE monitors ADD COLUMN added_later TEXT']];
    for (let step = 0; step <= edited.migrations.length; step++) {
      const { db, ctx } = open();
      edited.migrate(ctx, next.slice(0, step));
      edited.migrate(ctx, next);
      expect(
        columnsOf(db, 'monitors').filter((c) => c.name === 'added_later'),
        `from step ${step}`,
      ).toHaveLength(1);
      db.close();
    }
    // Every step migrates a database of its own: seconds on a loaded 2-core box.
  }, 30_000);

  it('the 31 migrations shipped before they were split into files keep their SQL byte for byte', () => {
    // SHA-256 of JSON.stringify of the list as the single migrations.ts held it (commit fff7035).
    const shipped = JSON.stringify(migrations.slice(0, 31));
    expect(createHash('sha256').update(shipped).digest('hex')).toBe(
      'f89489b750d023f76c817e3fb09f7deb73b72f60858f81b2bb7998cb85a55355',
    );
  });

  it('a migration’s number is its position: file NNNN-… is entry NNNN of the list, none missing', async () => {
    const files = readdirSync(new URL('./migrations/', import.meta.url))
      .filter((f) => /^\d{4}-[a-z0-9-]+\.ts$/.test(f))
      .sort();
    expect(files.map((f) => Number(f.slice(0, 4)))).toEqual(migrations.map((_, i) => i + 1));
    for (const [i, file] of files.entries()) {
      const { default: statements } = await import(`./migrations/${file.replace(/\.ts$/, '.js')}`);
      expect(statements, file).toStrictEqual(migrations[i]);
    }
  });
});
