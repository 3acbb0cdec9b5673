import { AppError } from '@lookout/shared';
import type Database from 'better-sqlite3';
import { entryOf, pendingAuditDraft } from '../../domain/audit/audit-scope.js';
import type { Page, PageQuery } from '../../domain/types.js';
import { decodeCursor, type PageOrder, toPage } from '../cursor.js';
import { insertAuditEntry } from './audit.js';
import { fromRow, type Table } from './tables.js';

type Row = Record<string, unknown>;

/**
 * What every SQLite port file works with: one connection, its statement cache, and the helpers written
 * once for all of them (reading rows as records, the IMMEDIATE transaction, keyset paging, turning a
 * unique-index violation into a conflict).
 */
export interface SqliteContext {
  db: Database.Database;
  /** A prepared statement, cached by its SQL text (prepared on first use, after migrations). */
  st(sql: string): Database.Statement;
  one<T>(t: Table, sql: string, ...params: unknown[]): T | null;
  many<T>(t: Table, sql: string, ...params: unknown[]): T[];
  /**
   * Runs `fn` in an IMMEDIATE transaction: the file's write lock is taken first, so every read-then-
   * write of two processes on one file serializes instead of racing. The outermost one also writes the
   * request's pending audit draft (domain/audit/audit-scope.ts) when `fn` changed any row, so the
   * entry commits, or rolls back, with the change.
   */
  immediate<T>(fn: () => T): T;
  /** Runs `fn`'s reads in one snapshot (a deferred transaction: one WAL read snapshot). */
  read<T>(fn: () => T): T;
  /** Newest-first keyset page over `t` with extra WHERE clauses, ordered by the date column `by`. */
  page<T extends { id: string }>(
    t: Table,
    where: string[],
    params: unknown[],
    q: PageQuery,
    by?: PageOrder,
  ): Page<T>;
  /** Runs `fn`; a unique-index violation becomes a `conflict` error with `message`. */
  unique<T>(fn: () => T, message: string): T;
}

const isUniqueViolation = (e: unknown) =>
  e instanceof Error && 'code' in e && (e as { code: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';

export const sqliteContext = (db: Database.Database): SqliteContext => {
  const statements = new Map<string, Database.Statement>();
  const st = (sql: string): Database.Statement => {
    let s = statements.get(sql);
    if (!s) {
      s = db.prepare(sql);
      statements.set(sql, s);
    }
    return s;
  };
  const many = <T>(t: Table, sql: string, ...params: unknown[]): T[] =>
    (st(sql).all(...params) as Row[]).map((r) => fromRow<T>(t, r));
  return {
    db,
    st,
    many,
    one<T>(t: Table, sql: string, ...params: unknown[]): T | null {
      const row = st(sql).get(...params) as Row | undefined;
      return row ? fromRow<T>(t, row) : null;
    },
    immediate: <T>(fn: () => T): T => {
      const draft = db.inTransaction ? undefined : pendingAuditDraft();
      if (!draft) return db.transaction(fn).immediate();
      const changes = st('SELECT total_changes() n');
      let wrote = false;
      const result = db
        .transaction(() => {
          const before = (changes.get() as { n: number }).n;
          const r = fn();
          if ((changes.get() as { n: number }).n > before) {
            insertAuditEntry(st, entryOf(draft));
            wrote = true;
          }
          return r;
        })
        .immediate();
      // Marked only once committed: a rolled-back step leaves the draft for the step that succeeds.
      if (wrote) draft.written = true;
      return result;
    },
    read: <T>(fn: () => T): T => db.transaction(fn).deferred(),
    page<T extends { id: string }>(
      t: Table,
      where: string[],
      params: unknown[],
      q: PageQuery,
      by: PageOrder = 'created_at',
    ): Page<T> {
      const cur = decodeCursor(q.cursor);
      const w = [...where];
      const p = [...params];
      if (cur) {
        w.push(`(${by} < ? OR (${by} = ? AND id < ?))`);
        p.push(cur.t, cur.t, cur.id);
      }
      const sql = `SELECT * FROM ${t.name} WHERE ${w.join(' AND ')} ORDER BY ${by} DESC, id DESC LIMIT ?`;
      return toPage(
        many<T>(t, sql, ...p, q.limit + 1),
        q.limit,
        (r) => (r as unknown as Record<typeof by, Date>)[by],
      );
    },
    unique<T>(fn: () => T, message: string): T {
      try {
        return fn();
      } catch (e) {
        if (isUniqueViolation(e)) throw new AppError('conflict', message);
        throw e;
      }
    },
  };
};

/**
 * An IMMEDIATE transaction of derived data (uptime buckets, the location states' snapshot), committed
 * without an fsync of its own (synchronous = NORMAL, WAL: never corrupt; a power loss may drop it, and
 * the mark it moves with it, so the next pass writes the same again). The next results' commit (FULL)
 * makes it durable.
 */
export const withoutFsync = <T>(
  { db, immediate }: Pick<SqliteContext, 'db' | 'immediate'>,
  fn: () => T,
): T => {
  db.pragma('synchronous = NORMAL');
  try {
    return immediate(fn);
  } finally {
    db.pragma('synchronous = FULL');
  }
};
