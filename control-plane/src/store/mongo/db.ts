import {
  type ClientSession,
  type Collection,
  type CreateIndexesOptions,
  type Db,
  type Document,
  type Filter,
  type IndexDirection,
  MongoClient,
  MongoServerError,
  type Sort,
} from 'mongodb';
import { entryOf, pendingAuditDraft, refusedResult } from '../../domain/audit/audit-scope.js';
import type { Page, PageQuery } from '../../domain/types.js';
import { decodeCursor, toPage } from '../cursor.js';
import { insertAuditDoc } from './audit.js';

/**
 * What every MongoDB port module shares: the client, the collections, transactions, the record ↔
 * document mapping, keyset paging, the duplicate-key test, the write-skew guard and index creation.
 * Records keep their UUID as `_id`. Writes and reads are majority (set on the client), writes
 * retryable; multi-document steps run in transactions, which need a replica set (init checks).
 */
export type Doc = Document & { _id: string };

export interface MongoOptions {
  uri: string;
  dbName?: string;
  serverSelectionTimeoutMs?: number;
  /**
   * Use only a database that already holds a Lookout store (its `workspaces` collection exists):
   * `init` throws StoreMissingError otherwise, before creating anything. By default `init` creates it.
   */
  mustExist?: boolean;
}

export const collectionsOf = (db: Db) => {
  const c = (name: string) => db.collection<Doc>(name);
  return {
    workspaces: c('workspaces'),
    users: c('users'),
    apiKeys: c('api_keys'),
    policies: c('escalation_policies'),
    channels: c('notification_channels'),
    windows: c('maintenance_windows'),
    monitors: c('monitors'),
    /** Groups of monitors and heartbeats; `name_key` (groupNameKey) is unique per workspace. */
    groups: c('groups'),
    monitorStates: c('monitor_states'),
    /** The feed: `_id` is the entry's seq. */
    monitorChanges: db.collection<Document & { _id: number }>('monitor_changes'),
    counters: c('counters'),
    results: c('check_results'),
    /** Hourly uptime buckets (domain/results/uptime.ts); `_id` is `monitor|location|hour ms`. */
    rollups: c('uptime_rollups'),
    /** Daily uptime buckets (UTC days); `_id` is `monitor|location|day ms`. */
    daily: c('uptime_daily'),
    heartbeats: c('heartbeats'),
    pings: c('pings'),
    alerts: c('alerts'),
    deliveries: c('deliveries'),
    integrations: c('integrations'),
    agentTokens: c('agent_tokens'),
    agentSessions: c('agent_sessions'),
    sessions: c('sessions'),
    /** Password reset links (domain/access/password-reset.ts), by token hash. */
    passwordResets: c('password_resets'),
    oauthRecords: c('oauth_records'),
    invitations: c('invitations'),
    signInDevices: c('sign_in_devices'),
    /** One document per user who has signed in or failed to; `_id` is the user's id. */
    signInActivity: c('sign_in_activity'),
    /** Workspace mail settings; `_id` is the workspace id. */
    mailSettings: c('mail_settings'),
    statusPages: c('status_pages'),
    incidents: c('status_incidents'),
    /** One-click acknowledge links (domain/alerts/ack-link-store.ts). */
    ackLinks: c('ack_links'),
    /** Grouped notifications waiting (domain/escalation/notification-group-store.ts). */
    notificationGroups: c('notification_groups'),
    notificationGroupItems: c('notification_group_items'),
    /** Users' contact methods (domain/contacts/contact-method-store.ts). */
    contactMethods: c('contact_methods'),
    /** Verification codes sent per destination, user and workspace and window; `_id` is the counter's key. */
    codeSendCounters: c('code_send_counters'),
    /** Workspace ping keys for slug pings; `_id` is the workspace id. */
    pingKeys: c('ping_keys'),
    subscribers: c('status_subscribers'),
    /** Incident updates waiting to be fanned out to subscribers; `_id` is the update id. */
    mailEvents: c('status_mail_events'),
    /** One document per subscriber mail to send; `_id` is its idempotency key. */
    mailOutbox: c('status_mail_outbox'),
    /** Confirmation mail per recipient (service-wide); `_id` is the SHA-256 of the normalised address. */
    recipientBudgets: c('status_recipient_budgets'),
    /** Alerts held back by dependencies (domain/alerts/alert-hold-store.ts); `_id` is workspace|type|source. */
    alertHolds: c('alert_holds'),
    /** Each source's dependency timeline, kept 30 days. */
    sourceEvents: c('source_events'),
    /** Calendar feeds' secret URLs, by token hash (domain/oncall/calendar-feed-store.ts). */
    calendarFeeds: c('calendar_feeds'),
    /** SAML assertions already accepted (domain/access/saml-replay-store.ts); `_id` workspace|issuer|id. */
    samlAssertions: c('saml_assertions'),
    /** On-call schedules (domain/oncall/schedule-store.ts); `name_key` unique per workspace. */
    schedules: c('schedules'),
    scheduleOverrides: c('schedule_overrides'),
    shiftOffers: c('shift_offers'),
    scheduleHistory: c('schedule_history'),
    /** Handoff notices (domain/oncall/handoff-notice-store.ts): settings, `_id` workspace:user. */
    handoffSettings: c('handoff_settings'),
    /** Each schedule's next notice due; `_id` workspace:schedule. */
    handoffCursors: c('handoff_cursors'),
    /** Notices sent; `_id` is the notice's key (unique: claimed once). */
    handoffNotices: c('handoff_notices'),
    /** Scripted checks' runs (domain/results/script-run-store.ts); `_id` is the result's id. */
    scriptRuns: c('script_runs'),
    /** Failed browser runs' screenshots, the image as BSON Binary; `_id` is the result's id. */
    scriptScreenshots: c('script_screenshots'),
    /** Workspace secrets (domain/secrets/secret-store.ts); `_id` is workspace:name. */
    secrets: c('secrets'),
    /** Workspace SSO settings (domain/access/sso.ts); `_id` is the workspace id. */
    ssoSettings: c('sso_settings'),
    /** The audit log (domain/audit/audit-store.ts); `changes` as JSON text. */
    auditLog: c('audit_log'),
    /** Users' TOTP factors (domain/access/second-factor-store.ts); `_id` is workspace:user. */
    totpFactors: c('totp_factors'),
    recoveryCodes: c('recovery_codes'),
    signInChallenges: c('sign_in_challenges'),
    /** The workspace's require_2fa; `_id` is the workspace id. */
    workspaceSecurity: c('workspace_security'),
    /** Users' passkeys (domain/access/passkey-store.ts); `credential_id` unique per workspace. */
    passkeys: c('passkeys'),
    /** Passkey challenges not yet taken; `_id` is the challenge's SHA-256. */
    passkeyChallenges: c('passkey_challenges'),
    /** Monthly SLA reports by mail (domain/reports/report-schedule-store.ts); `_id` is the workspace id. */
    reportSchedules: c('report_schedules'),
  };
};
export type Collections = ReturnType<typeof collectionsOf>;

/** What a port module receives: the collections and a way to run a transaction. */
export interface MongoContext {
  col: Collections;
  /**
   * Runs `fn` in one transaction, retried whole on a transient error (a write conflict). The request's
   * pending audit draft (domain/audit/audit-scope.ts) is inserted with the same session unless `fn`'s
   * result says it changed nothing (`refusedResult`), so the entry commits, or aborts, with the change.
   */
  inTransaction<T>(fn: (session: ClientSession) => Promise<T>): Promise<T>;
}

export const connect = (opts: MongoOptions) => {
  const client = new MongoClient(opts.uri, {
    retryWrites: true,
    writeConcern: { w: 'majority' },
    readConcern: { level: 'majority' },
    serverSelectionTimeoutMS: opts.serverSelectionTimeoutMs ?? 10_000,
  });
  const db = client.db(opts.dbName ?? 'lookout');
  const ctx: MongoContext = {
    col: collectionsOf(db),
    inTransaction: async (fn) => {
      const draft = pendingAuditDraft();
      if (!draft) return client.withSession((session) => session.withTransaction(() => fn(session)));
      // Claimed at once: a second transaction of the same request started meanwhile leaves it alone.
      draft.claimed = true;
      let wrote = false;
      try {
        const result = await client.withSession((session) =>
          session.withTransaction(async () => {
            wrote = false;
            const r = await fn(session);
            if (!refusedResult(r)) {
              await insertAuditDoc(ctx.col, entryOf(draft), session);
              wrote = true;
            }
            return r;
          }),
        );
        if (wrote) draft.written = true;
        return result;
      } finally {
        draft.claimed = false;
      }
    },
  };
  return { client, db, ctx };
};

/**
 * Fields the adapter keeps on documents for itself, never returned to the domain: the open alert
 * key, the write-skew guard (`guard`; `key_writes` and `monitor_writes` are its former names), the
 * delivery insertion order, a workspace's count of monitors (the plan cap, monitors.ts) and a group's
 * name key (groups.ts).
 */
const INTERNAL = [
  'name_key',
  'open_key',
  'guard',
  'key_writes',
  'monitor_writes',
  'delivery_seq',
  'monitor_count',
  // The monitor list's order, kept on the monitor by the store (monitor-status.ts; name_key above).
  'verdict',
  'status_changed_at',
];

export const toDoc = (record: { id: string } & object): Doc => {
  const { id, ...rest } = record as { id: string } & Record<string, unknown>;
  return { _id: id, ...rest };
};

export const fromDoc = <T>(doc: Document | null): T | null => {
  if (!doc) return null;
  const { _id, ...rest } = doc;
  for (const k of INTERNAL) delete rest[k];
  return { id: _id, ...rest } as T;
};

export const fromDocs = <T>(docs: Document[]): T[] => docs.map((d) => fromDoc<T>(d)!);

/** `s` as a regular expression matching it literally (a case-insensitive search). */
export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const isDuplicate = (e: unknown) => e instanceof MongoServerError && e.code === 11000;

/**
 * A duplicate key on the index of exactly these fields: the server names the index's key in
 * `keyPattern` (and the values in `keyValue`); older servers only in the message (`index: <name>`).
 */
export const isDuplicateOn = (e: unknown, fields: string[]) => {
  if (!isDuplicate(e)) return false;
  const pattern = (e as MongoServerError).keyPattern as Record<string, unknown> | undefined;
  if (pattern) return Object.keys(pattern).join(',') === fields.join(',');
  return (e as MongoServerError).message.includes(`index: ${fields.map((f) => `${f}_1`).join('_')} `);
};

/**
 * Runs a transaction whose inserts may race another writer's: a key inserted after the
 * transaction's snapshot can surface as a duplicate key (not a retried write conflict). The
 * transaction then aborted whole, so it runs again, and sees the other write; a few times at most.
 * `retry` says which duplicates are such a race (by default every one).
 */
export const retryOnDuplicate = async <T>(
  fn: () => Promise<T>,
  attempts = 5,
  retry: (e: unknown) => boolean = isDuplicate,
): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (!retry(e) || attempt >= attempts) throw e;
    }
  }
};

/**
 * Snapshot isolation lets two transactions that read each other's records but write different
 * documents both commit (write skew). Each such transaction bumps this counter on one document they
 * share first, so they conflict and one is retried, seeing the other's writes.
 */
export const bumpGuard = (c: Collection<Doc>, id: string, session: ClientSession) =>
  c.updateOne({ _id: id }, { $inc: { guard: 1 } }, { session });

/**
 * A compare-and-set edit of a workspace's record: in one transaction that bumps the workspace's guard
 * first, `write` reports whether the expected version matched; otherwise the record either exists
 * at another version (conflict) or not at all.
 */
export const editRecord = async (
  { col, inTransaction }: MongoContext,
  c: Collection<Doc>,
  record: { id: string; workspace_id: string },
  write: (session: ClientSession) => Promise<boolean>,
): Promise<'updated' | 'conflict' | 'not_found'> => {
  const updated = await inTransaction(async (session) => {
    await bumpGuard(col.workspaces, record.workspace_id, session);
    return write(session);
  });
  if (updated) return 'updated';
  const found = await c.findOne(
    { workspace_id: record.workspace_id, _id: record.id },
    { projection: { _id: 1 } },
  );
  return found ? 'conflict' : 'not_found';
};

/** Deletes a workspace's record and, only if it was there, what goes with it, in one transaction. */
export const deleteRecord = (
  { inTransaction }: MongoContext,
  c: Collection<Doc>,
  workspaceId: string,
  id: string,
  withIt: (session: ClientSession) => Promise<unknown>,
) =>
  inTransaction(async (session) => {
    const gone = (await c.deleteOne({ workspace_id: workspaceId, _id: id }, { session })).deletedCount === 1;
    if (gone) await withIt(session);
    return gone;
  });

/** Deletes up to `limit` documents matching `filter`, in `sort` order if given; returns how many. */
export const deleteSome = async <D extends Document>(
  c: Collection<D>,
  filter: Document,
  limit: number,
  sort?: Sort,
) => {
  const ids = (await runQuery(c, { filter, limit, ...(sort ? { sort } : {}) })).map((d) => d._id);
  if (ids.length === 0) return 0;
  return (await c.deleteMany({ _id: { $in: ids } } as Filter<D>)).deletedCount;
};

/** A find with its sort and limit, as the adapter runs it and as the contract explains it. */
export interface Query {
  filter: Document;
  sort?: Sort;
  limit?: number;
}

/** The cursor for a query: what runQuery reads, and what the contract explains. */
export const cursorOf = <D extends Document>(c: Collection<D>, q: Query, session?: ClientSession) => {
  let cursor = c.find(q.filter as Filter<D>, session ? { session } : {});
  if (q.sort) cursor = cursor.sort(q.sort);
  if (q.limit !== undefined) cursor = cursor.limit(q.limit);
  return cursor;
};

export const runQuery = <D extends Document>(c: Collection<D>, q: Query, session?: ClientSession) =>
  cursorOf(c, q, session).toArray();

/**
 * A newest-first keyset page on (`by`, _id): `limit + 1` documents after the cursor. Each paged list
 * has an index ending in (…, by: -1, _id: -1) after its equality fields, so the page is read in
 * index order, never sorted in memory. "After the cursor (t, id)" is written as one range on `by`
 * (at or before t) that the index scan starts from, less the rows of instant t at or above id (a
 * filter on the few rows of that instant): a `$or` of the two cases could be planned as two scans
 * merged or sorted, or as a scan of the whole list from its newest row.
 */
export const pageQuery = (filter: Filter<Doc>, q: PageQuery, by = 'created_at'): Query => {
  const cur = decodeCursor(q.cursor);
  const t = cur ? new Date(cur.t) : null;
  return {
    filter: cur
      ? { $and: [filter, { [by]: { $lte: t } }, { $nor: [{ [by]: t, _id: { $gte: cur.id } }] }] }
      : filter,
    sort: { [by]: -1, _id: -1 },
    limit: q.limit + 1,
  };
};

export const page = async <T extends { id: string }>(
  c: Collection<Doc>,
  filter: Filter<Doc>,
  q: PageQuery,
  by = 'created_at',
): Promise<Page<T>> =>
  toPage(
    fromDocs<T>(await runQuery(c, pageQuery(filter, q, by))),
    q.limit,
    (r) => (r as unknown as Record<string, Date>)[by]!,
  );

/**
 * An index the adapter needs. Unchanged indexes keep their default names (creating one that exists
 * under another name fails); changed ones get a new name, and `replaces` names the ones they
 * supersede, dropped once the new one exists.
 */
export interface IndexDecl {
  on: keyof Collections;
  key: Record<string, IndexDirection>;
  options?: CreateIndexesOptions;
  replaces?: string[];
}

/** MongoDB error codes for a missing index or collection: a superseded index already dropped. */
const GONE = new Set([26, 27]);

/** Creates every index (idempotent), then drops the superseded ones (safe while replicas race). */
export const ensureIndexes = async (col: Collections, decls: IndexDecl[]) => {
  const on = (d: IndexDecl) => col[d.on] as unknown as Collection<Document>;
  await Promise.all(decls.map((d) => on(d).createIndex(d.key, d.options ?? {})));
  for (const d of decls)
    for (const name of d.replaces ?? [])
      await on(d)
        .dropIndex(name)
        .catch((e: unknown) => {
          if (!(e instanceof MongoServerError && GONE.has(Number(e.code)))) throw e;
        });
};

/**
 * Transactions need a replica set (or a sharded cluster); a standalone mongod accepts every other
 * command and fails only at the first transaction. `hello` says which it is.
 */
export const requireReplicaSet = (hello: Document) => {
  if (typeof hello.setName === 'string' && hello.setName !== '') return;
  if (hello.msg === 'isdbgrid') return;
  throw new Error(
    'MongoDB is a standalone server, but Lookout needs a replica set (it uses transactions). ' +
      'Start mongod with --replSet <name> and run rs.initiate() once (a single-node replica set is ' +
      'enough), then point LOOKOUT_MONGODB_URI at it.',
  );
};
