import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { sqliteContext } from './db.js';
import { migrate } from './migrations.js';
import { sqliteStateBook } from './state-book.js';

/** The SQL texts a context ran, in order (every statement goes through `st`). */
const counting = () => {
  const ctx = sqliteContext(new Database(':memory:'));
  migrate(ctx);
  const ran: string[] = [];
  const st = (sql: string) => {
    ran.push(sql);
    return ctx.st(sql);
  };
  return { ctx: { ...ctx, st }, raw: ctx, ran };
};
const loadsSnapshot = (sql: string) => sql.includes('FROM monitor_states');

it('a book whose log the flush emptied loads the snapshot once, not on every read after', () => {
  const { ctx, raw, ran } = counting();
  raw.db.exec(`INSERT INTO monitor_states VALUES ('m1', 'eu', 'down', 3, 0, 0, 1000, 900, 7)`);
  // As a flush leaves the file: rows up to 42 folded, their states in the snapshot, all deleted.
  raw.db.exec('UPDATE uptime_rollup_mark SET upto = 42');
  raw.db.exec('UPDATE result_state_mark SET upto = 42');
  const book = sqliteStateBook(ctx);
  for (let i = 0; i < 3; i++) book.catchUp();
  expect(ran.filter(loadsSnapshot)).toHaveLength(1);
  expect(book.get('m1', 'eu')).toMatchObject({ status: 'down', consecutive_failures: 3, version: 7 });
  // A later flush moves the marks past what this book saw: the snapshot is loaded again, once.
  raw.db.exec(`UPDATE monitor_states SET consecutive_failures = 5, version = 9 WHERE monitor_id = 'm1'`);
  raw.db.exec('UPDATE uptime_rollup_mark SET upto = 50');
  raw.db.exec('UPDATE result_state_mark SET upto = 50');
  for (let i = 0; i < 3; i++) book.catchUp();
  expect(ran.filter(loadsSnapshot)).toHaveLength(2);
  expect(book.get('m1', 'eu')).toMatchObject({ consecutive_failures: 5, version: 9 });
});
