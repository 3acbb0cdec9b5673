import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { createMonitorSlots, type MonitorSlots } from '../../domain/monitors/monitor-slots.js';
import { type Store, StoreMissingError } from '../port.js';
import { sqliteAckLinks } from './ack-links.js';
import { sqliteAgents } from './agents.js';
import { sqliteAlerts } from './alerts.js';
import { sqliteAudit } from './audit.js';
import { sqliteCalendarFeeds } from './calendar-feeds.js';
import { type Checkpointer, startCheckpointer } from './checkpointer.js';
import { sqliteContactMethods } from './contact-methods.js';
import { sqliteContext } from './db.js';
import { sqliteDependencies } from './dependencies.js';
import { sqliteGroups } from './groups.js';
import { sqliteHandoffNotices } from './handoff-notices.js';
import { sqliteHeartbeats } from './heartbeats.js';
import { sqliteIntegrations } from './integrations.js';
import { registerLatencyFunctions } from './latency-sql.js';
import { sqliteMailSettings } from './mail-settings.js';
import { sqliteMembers } from './members.js';
import { migrate } from './migrations.js';
import { monitorLevels } from './monitor-levels.js';
import { sqliteMonitorStatus } from './monitor-status.js';
import { sqliteMonitors } from './monitors.js';
import { sqliteNotificationGroups } from './notification-groups.js';
import { sqliteOAuth } from './oauth.js';
import { sqlitePasskeys } from './passkeys.js';
import { sqlitePasswordResets } from './password-resets.js';
import { sqlitePingKeys } from './ping-keys.js';
import { sqliteReportSchedules } from './report-schedules.js';
import { sqliteResults } from './results.js';
import { type RollupFlushOptions, sqliteRollups } from './rollups.js';
import { sqliteRouting } from './routing.js';
import { sqliteSamlReplay } from './saml-replay.js';
import { sqliteSchedulePolicies } from './schedule-policies.js';
import { sqliteSchedules } from './schedules.js';
import { sqliteScriptRuns } from './script-runs.js';
import { sqliteSecondFactors } from './second-factors.js';
import { sqliteSecrets } from './secrets.js';
import { sqliteSessions } from './sessions.js';
import { sqliteSignIns } from './sign-ins.js';
import { sqliteSso } from './sso.js';
import { type StateSnapshotOptions, sqliteStateBook } from './state-book.js';
import { sqliteStatusPages } from './status-pages.js';
import { sqliteStatusSubscribers } from './status-subscribers.js';
import { sqliteTenancy } from './tenancy.js';

export interface SqliteOptions {
  /** Path of the database file, or ':memory:'. */
  path: string;
  busyTimeoutMs?: number;
  /** Open only an existing file (StoreMissingError otherwise); by default the file is created. */
  mustExist?: boolean;
  /** How the uptime buckets are written behind ingestion (rollups.ts); tests drive it. */
  rollups?: RollupFlushOptions;
  /** How the location states are snapshotted behind ingestion (state-book.ts); tests drive it. */
  states?: StateSnapshotOptions;
  /**
   * When the write-ahead log is checkpointed from a worker thread (checkpointer.ts) instead of by the
   * commit that fills it: once `afterResults` results were stored since open (default 20,000; a small
   * store's checkpoints are small), every `everyMs` (default 5 s).
   */
  checkpoint?: { afterResults?: number; everyMs?: number };
  /**
   * The process's numbers for monitor ids (monitor-slots.ts), shared with the monitor catalog and the
   * agent streams so that 100,000 monitors cost one map of their ids; the store makes its own if none.
   */
  monitorSlots?: MonitorSlots;
}

/** Pages of log after which a commit checkpoints on the event loop (~40 MiB). */
const AUTOCHECKPOINT_PAGES = 10_000;
/** The same, while the checkpointer's thread does it: only if that thread falls far behind. */
const BACKSTOP_PAGES = 4 * AUTOCHECKPOINT_PAGES;

export interface SqliteStore extends Store {
  /** Closes the file as a crash would leave it: nothing waiting is written (tests). */
  closeAsIfCrashed(): Promise<void>;
  /** Checkpoints the checkpointer's thread has run (checkpointer.ts; tests). */
  readonly checkpoints: number;
  /** Row ids the recent index holds (recent-index.ts; tests). */
  readonly recentRows: number;
  /** Snapshots the location states and folds every recent result now, as the periodic flush does (tests, benches). */
  flushResults(): Promise<void>;
}

/**
 * The embedded store: one SQLite file in WAL mode with synchronous=FULL, so a committed write
 * survives a crash or power loss. Every read-then-write runs in an IMMEDIATE transaction, which
 * takes the file's write lock first: two processes on one file serialize instead of racing.
 * One file per port (tenancy.ts, monitors.ts, …) on one shared context (db.ts).
 */
export const createSqliteStore = (opts: SqliteOptions): SqliteStore => {
  const mustExist = opts.mustExist === true && opts.path !== ':memory:';
  if (!mustExist && opts.path !== ':memory:') mkdirSync(dirname(opts.path), { recursive: true });
  const busyTimeoutMs = opts.busyTimeoutMs ?? 5000;
  let db: Database.Database;
  try {
    // better-sqlite3 creates a missing file unless told that it must exist.
    db = new Database(opts.path, { fileMustExist: mustExist });
  } catch (e) {
    if (mustExist && !existsSync(opts.path)) throw new StoreMissingError(`${resolve(opts.path)} (SQLite)`);
    throw e;
  }
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma('foreign_keys = ON');
  // 16 MiB of page cache (the default is 2 MiB), used as pages are touched. Against 64 MiB the
  // dashboard's reads and the flush were level (store --reads, 4 and 5 rounds) and the control plane's
  // RSS at 100,000 monitors ~50 MB lower (docs/benchmarks.md, "History": issue 27's tenth round; in the
  // third round, before the ring index, 16 MiB had slowed the dashboard's list).
  db.pragma('cache_size = -16384');
  // Checkpoint the WAL every ~40 MiB instead of ~4 MiB: hot pages (the newest entries of each
  // monitor's results, the location states) are rewritten by every batch, and a longer interval
  // copies each of them back into the database once per checkpoint instead of once per commit.
  db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  // Temporary tables and sorts in memory: the flush's chunk table (rollups.ts), a few thousand rows.
  db.pragma('temp_store = MEMORY');
  // SQLite's lower() folds ASCII only; list searches (`q`) fold every letter, as MongoDB's /…/i does.
  db.function('fold_case', { deterministic: true }, (s: unknown) =>
    typeof s === 'string' ? s.toLowerCase() : s,
  );
  // The response-time histograms of the daily buckets, built and merged in SQL (rollups.ts).
  registerLatencyFunctions(db);

  const ctx = sqliteContext(db);
  const heartbeats = sqliteHeartbeats(ctx, { path: opts.path, busyTimeoutMs });
  // One number per monitor id for the in-memory tables of monitors (monitor-slots.ts).
  const monitors = opts.monitorSlots ?? createMonitorSlots();
  const book = sqliteStateBook(ctx, opts.states, monitors);
  const rollups = sqliteRollups(ctx, book, opts.rollups);
  const levels = monitorLevels(ctx, monitors);
  const results = sqliteResults(ctx, rollups, book, levels);
  let checkpointer: Checkpointer | null = null;
  /** Set by close: a batch finishing meanwhile starts no thread that close would not stop. */
  let closing = false;
  let stored = 0;
  const checkpointAfter = opts.checkpoint?.afterResults ?? 20_000;
  const recordResults: typeof results.recordResults = async (batch, step) => {
    const out = await results.recordResults(batch, step);
    stored += out.stored.length;
    if (checkpointer === null && !closing && stored >= checkpointAfter && opts.path !== ':memory:') {
      db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
      checkpointer = startCheckpointer(
        { path: opts.path, busyTimeoutMs, everyMs: opts.checkpoint?.everyMs ?? 5000 },
        () => {
          if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
        },
      );
    }
    return out;
  };
  return {
    kind: 'sqlite',
    async init() {
      migrate(ctx);
      // Monitors stored before the list's order (migration 36) get their folded name once.
      ctx.immediate(() =>
        ctx.st('UPDATE monitors SET name_key = fold_case(display_name) WHERE name_key IS NULL').run(),
      );
      book.start();
      await rollups.start();
    },
    async ping() {
      ctx.st('SELECT 1').get();
    },
    get recentRows() {
      return book.recent.size;
    },
    get checkpoints() {
      return checkpointer?.runs ?? 0;
    },
    flushResults: () => rollups.foldAll(),
    async close() {
      closing = true;
      try {
        if (db.open) {
          await rollups.stop();
          await book.stop();
        }
      } finally {
        await checkpointer?.close();
        await heartbeats.close();
        if (db.open) db.close();
      }
    },
    async closeAsIfCrashed() {
      closing = true;
      rollups.abandon();
      book.abandon();
      await checkpointer?.close();
      await heartbeats.close();
      db.close();
    },
    ...sqliteTenancy(ctx),
    ...sqliteMonitors(ctx, levels),
    ...sqliteGroups(ctx),
    ...results,
    recordResults,
    ...heartbeats.port,
    ...sqliteAlerts(ctx),
    ...sqliteRouting(ctx),
    ...sqliteIntegrations(ctx),
    ...sqliteAgents(ctx),
    ...sqliteSessions(ctx),
    ...sqlitePasswordResets(ctx),
    ...sqliteSignIns(ctx),
    ...sqlitePasskeys(ctx),
    ...sqliteOAuth(ctx),
    ...sqliteMembers(ctx),
    ...sqliteMonitorStatus(ctx, book),
    ...sqliteMailSettings(ctx),
    ...sqliteStatusPages(ctx, book),
    ...sqliteAckLinks(ctx),
    ...sqliteDependencies(ctx),
    ...sqliteContactMethods(ctx),
    ...sqlitePingKeys(ctx),
    ...sqliteStatusSubscribers(ctx),
    ...sqliteNotificationGroups(ctx),
    ...sqliteCalendarFeeds(ctx),
    ...sqliteSamlReplay(ctx),
    ...sqliteSchedules(ctx),
    ...sqliteHandoffNotices(ctx),
    ...sqliteSchedulePolicies(ctx),
    ...sqliteScriptRuns(ctx),
    ...sqliteSso(ctx),
    ...sqliteSecrets(ctx),
    ...sqliteAudit(ctx),
    ...sqliteSecondFactors(ctx),
    ...sqliteReportSchedules(ctx),
  };
};
