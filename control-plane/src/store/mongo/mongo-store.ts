import { AppError } from '@lookout/shared';
import {
  type ClientSession,
  type Collection,
  type Document,
  type Filter,
  MongoClient,
  MongoServerError,
} from 'mongodb';
import type { AlertKey, AlertQuery } from '../../domain/alert-store.js';
import type { MonitorQuery } from '../../domain/monitor-store.js';
import type { ResultQuery } from '../../domain/result-store.js';
import type {
  AgentSession,
  AgentToken,
  Alert,
  ApiKey,
  CheckResultRecord,
  EscalationPolicy,
  Heartbeat,
  Monitor,
  MonitorChange,
  MonitorLocationState,
  Page,
  PageQuery,
  Ping,
  User,
  Workspace,
} from '../../domain/types.js';
import { decodeCursor, encodeCursor, type PageOrder, toPage } from '../cursor.js';
import { openKey } from '../open-key.js';
import { pingTouches } from '../ping-touches.js';
import type { Store } from '../port.js';
import { mongoInbound, mongoInboundIndexes, mongoPingTouch, mongoPingTouchFilter } from './inbound.js';
import { mongoMemberIndexes, mongoMembers } from './members.js';
import { mongoMonitorStatus } from './monitor-status.js';
import { mongoRouting, mongoRoutingIndexes } from './routing.js';
import { mongoSessionIndexes, mongoSessions } from './sessions.js';

/**
 * The production store: MongoDB through the official driver. Majority writes and reads, retryable
 * writes, indexes created at start. Records keep their UUID as `_id`. Operations that must be atomic
 * across documents (workspace creation, per-user key cap, plan cap, legacy key swap) run in
 * transactions, which need a replica set (a single-node one is fine). The caps bump a counter on the
 * owning document first, so two concurrent transactions conflict and one retries, instead of both
 * passing the count (write skew).
 */
export interface MongoOptions {
  uri: string;
  dbName?: string;
  serverSelectionTimeoutMs?: number;
}

type Doc = Document & { _id: string };

/** Internal fields never returned to the domain. */
const INTERNAL = ['open_key', 'key_writes', 'monitor_writes'];

const toDoc = (record: { id: string } & object): Doc => {
  const { id, ...rest } = record as { id: string } & Record<string, unknown>;
  return { _id: id, ...rest };
};

const fromDoc = <T>(doc: Document | null): T | null => {
  if (!doc) return null;
  const { _id, ...rest } = doc;
  for (const k of INTERNAL) delete rest[k];
  return { id: _id, ...rest } as T;
};

const isDuplicate = (e: unknown) => e instanceof MongoServerError && e.code === 11000;
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const createMongoStore = (opts: MongoOptions): Store => {
  const client = new MongoClient(opts.uri, {
    retryWrites: true,
    writeConcern: { w: 'majority' },
    readConcern: { level: 'majority' },
    serverSelectionTimeoutMS: opts.serverSelectionTimeoutMs ?? 10_000,
  });
  const db = client.db(opts.dbName ?? 'lookout');
  const col = (name: string): Collection<Doc> => db.collection<Doc>(name);
  const workspaces = col('workspaces');
  const users = col('users');
  const apiKeys = col('api_keys');
  const policies = col('escalation_policies');
  const monitors = col('monitors');
  const heartbeats = col('heartbeats');
  const pings = col('pings');
  const alerts = col('alerts');
  const agentTokens = col('agent_tokens');
  const agentSessions = col('agent_sessions');
  const results = col('check_results');
  const monitorStates = col('monitor_states');
  const monitorChanges = db.collection<Document & { _id: number }>('monitor_changes');
  const counters = col('counters');

  const inTransaction = <T>(fn: (session: ClientSession) => Promise<T>): Promise<T> =>
    client.withSession((session) => session.withTransaction(() => fn(session)));

  /**
   * Appends entries to the monitor feed inside `session`'s transaction. Every writer bumps the one
   * counter document, so feed transactions conflict and serialize: seq order is commit order, no gaps.
   */
  const appendChanges = async (session: ClientSession, entries: Omit<MonitorChange, 'seq'>[]) => {
    const c = await counters.findOneAndUpdate(
      { _id: 'monitor_changes' },
      { $inc: { seq: entries.length } },
      { upsert: true, returnDocument: 'after', session },
    );
    const last = (c?.seq as number) ?? entries.length;
    await monitorChanges.insertMany(
      entries.map((e, i) => ({ _id: last - entries.length + 1 + i, ...e })),
      { session },
    );
  };
  const changedEntry = (monitorId: string): Omit<MonitorChange, 'seq'> => ({
    monitor_id: monitorId,
    kind: 'changed',
    location: null,
    reason: null,
    request_id: null,
    at: new Date(),
  });

  /** Newest-first keyset page on (created_at, _id). */
  const page = async <T extends { id: string }>(
    c: Collection<Doc>,
    filter: Filter<Doc>,
    q: PageQuery,
    /** The date field the list is ordered by. */
    by: PageOrder = 'created_at',
  ): Promise<Page<T>> => {
    const cur = decodeCursor(q.cursor);
    const f: Filter<Doc> = cur
      ? {
          $and: [
            filter,
            {
              $or: [{ [by]: { $lt: new Date(cur.t) } }, { [by]: new Date(cur.t), _id: { $lt: cur.id } }],
            },
          ],
        }
      : filter;
    const docs = await c
      .find(f)
      .sort({ [by]: -1, _id: -1 })
      .limit(q.limit + 1)
      .toArray();
    return toPage(
      docs.map((d) => fromDoc<T>(d)!),
      q.limit,
      (r) => (r as unknown as Record<typeof by, Date>)[by],
    );
  };

  const activeKeyFilter = (workspaceId: string, userId: string, now: Date): Filter<Doc> => ({
    workspace_id: workspaceId,
    user_id: userId,
    kind: 'named',
    revoked_at: null,
    $or: [{ expires_at: null }, { expires_at: { $gt: now } }],
  });

  const store: Store = {
    kind: 'mongodb',
    ...mongoRouting({ col, inTransaction, toDoc, fromDoc, page }),
    ...mongoInbound({ col, inTransaction, toDoc, fromDoc, page }),
    ...mongoSessions({ col, inTransaction, toDoc, fromDoc, page }),
    ...mongoMembers({ col, inTransaction, toDoc, fromDoc, page }),
    ...mongoMonitorStatus({ col, inTransaction, toDoc, fromDoc, page }),

    async init() {
      await client.connect();
      await Promise.all([
        workspaces.createIndex({ subdomain: 1 }, { unique: true }),
        users.createIndex({ workspace_id: 1, email: 1 }, { unique: true }),
        apiKeys.createIndex({ key_hash: 1 }, { unique: true }),
        apiKeys.createIndex({ workspace_id: 1, user_id: 1, kind: 1 }),
        policies.createIndex({ workspace_id: 1, is_default: 1 }),
        monitors.createIndex({ workspace_id: 1, created_at: -1, _id: -1 }),
        monitors.createIndex({ check_locations: 1, paused: 1 }),
        heartbeats.createIndex({ workspace_id: 1, created_at: -1, _id: -1 }),
        pings.createIndex({ heartbeat_id: 1, at: -1 }),
        alerts.createIndex({ workspace_id: 1, created_at: -1, _id: -1 }),
        alerts.createIndex({ workspace_id: 1, status: 1, created_at: -1 }),
        alerts.createIndex(
          { open_key: 1 },
          { unique: true, partialFilterExpression: { open_key: { $type: 'string' } } },
        ),
        agentTokens.createIndex({ token_hash: 1 }, { unique: true }),
        agentSessions.createIndex({ region: 1 }),
        results.createIndex({ monitor_id: 1, scheduled_at: -1 }),
        results.createIndex({ received_at: 1 }),
        monitorStates.createIndex({ monitor_id: 1 }),
        monitorChanges.createIndex({ at: 1 }),
        ...mongoRoutingIndexes({ col }),
        ...mongoMemberIndexes({ col }),
        ...mongoInboundIndexes({ col }),
        ...mongoSessionIndexes({ col }),
      ]);
      // The feed's counter exists before any transaction bumps it (an upsert racing inside two
      // transactions would fail one of them with a duplicate key instead of a retryable conflict).
      await counters.updateOne({ _id: 'monitor_changes' }, { $setOnInsert: { seq: 0 } }, { upsert: true });
    },
    async ping() {
      await client.db('admin').command({ ping: 1 });
    },
    async close() {
      await client.close();
    },

    async createWorkspace({ workspace, admin, defaultPolicy }) {
      try {
        await inTransaction(async (session) => {
          await workspaces.insertOne(toDoc(workspace), { session });
          await users.insertOne(toDoc(admin), { session });
          await policies.insertOne(toDoc(defaultPolicy), { session });
        });
      } catch (e) {
        if (isDuplicate(e)) throw new AppError('conflict', `Subdomain "${workspace.subdomain}" is taken.`);
        throw e;
      }
    },
    async getWorkspace(id) {
      return fromDoc<Workspace>(await workspaces.findOne({ _id: id }));
    },
    async getWorkspaceBySubdomain(subdomain) {
      return fromDoc<Workspace>(await workspaces.findOne({ subdomain }));
    },
    async listWorkspaces() {
      return (await workspaces.find({}).sort({ created_at: 1, _id: 1 }).toArray()).map(
        (d) => fromDoc<Workspace>(d)!,
      );
    },

    async createUser(user) {
      try {
        await users.insertOne(toDoc(user));
      } catch (e) {
        if (isDuplicate(e)) throw new AppError('conflict', `A user with email ${user.email} exists.`);
        throw e;
      }
    },
    async getUser(workspaceId, id) {
      return fromDoc<User>(await users.findOne({ workspace_id: workspaceId, _id: id }));
    },
    async getUserByEmail(workspaceId, email) {
      return fromDoc<User>(await users.findOne({ workspace_id: workspaceId, email }));
    },
    async listUsers(workspaceId, q) {
      return page<User>(users, { workspace_id: workspaceId }, q);
    },
    async setUserRole(workspaceId, id, role) {
      return (
        (await users.updateOne({ workspace_id: workspaceId, _id: id }, { $set: { role } })).matchedCount === 1
      );
    },

    async insertApiKey(key, { maxActive, now }) {
      return inTransaction(async (session) => {
        // Serialize key creation per user: concurrent transactions conflict on this write.
        await users.updateOne({ _id: key.user_id }, { $inc: { key_writes: 1 } }, { session });
        const n = await apiKeys.countDocuments(activeKeyFilter(key.workspace_id, key.user_id, now), {
          session,
        });
        if (n >= maxActive) return 'limit_reached' as const;
        await apiKeys.insertOne(toDoc(key), { session });
        return 'inserted' as const;
      });
    },
    async replaceLegacyKey(key, now) {
      await inTransaction(async (session) => {
        await apiKeys.updateMany(
          { workspace_id: key.workspace_id, user_id: key.user_id, kind: 'legacy', revoked_at: null },
          { $set: { revoked_at: now } },
          { session },
        );
        await apiKeys.insertOne(toDoc(key), { session });
      });
    },
    async findApiKeyByHash(keyHash) {
      return fromDoc<ApiKey>(await apiKeys.findOne({ key_hash: keyHash }));
    },
    async getApiKey(workspaceId, id) {
      return fromDoc<ApiKey>(await apiKeys.findOne({ workspace_id: workspaceId, _id: id }));
    },
    async listApiKeys(workspaceId, q) {
      const f: Filter<Doc> = { workspace_id: workspaceId };
      if (q.userId !== undefined) f.user_id = q.userId;
      if (q.kind !== undefined) f.kind = q.kind;
      return page<ApiKey>(apiKeys, f, q);
    },
    async revokeApiKey(workspaceId, id, now) {
      await apiKeys.updateOne(
        { workspace_id: workspaceId, _id: id, revoked_at: null },
        { $set: { revoked_at: now } },
      );
      return store.getApiKey(workspaceId, id);
    },
    async recordApiKeyUse(id, at, from) {
      await apiKeys.updateOne(
        { _id: id, $or: [{ last_used_at: null }, { last_used_at: { $lt: at } }] },
        { $set: { last_used_at: at, last_used_from: from } },
      );
    },

    async getEscalationPolicy(workspaceId, id) {
      return fromDoc<EscalationPolicy>(await policies.findOne({ workspace_id: workspaceId, _id: id }));
    },
    async getDefaultEscalationPolicy(workspaceId) {
      return fromDoc<EscalationPolicy>(
        await policies.findOne({ workspace_id: workspaceId, is_default: true }),
      );
    },

    async insertMonitor(monitor, { maxMonitors }) {
      return inTransaction(async (session) => {
        await workspaces.updateOne(
          { _id: monitor.workspace_id },
          { $inc: { monitor_writes: 1 } },
          { session },
        );
        const n = await monitors.countDocuments({ workspace_id: monitor.workspace_id }, { session });
        if (n >= maxMonitors) return 'limit_reached' as const;
        await monitors.insertOne(toDoc(monitor), { session });
        await appendChanges(session, [changedEntry(monitor.id)]);
        return 'inserted' as const;
      });
    },
    async getMonitor(workspaceId, id) {
      return fromDoc<Monitor>(await monitors.findOne({ workspace_id: workspaceId, _id: id }));
    },
    async listMonitors(workspaceId, q: MonitorQuery) {
      const f: Filter<Doc> = { workspace_id: workspaceId };
      if (q.monitor_type) f.monitor_type = q.monitor_type;
      if (q.paused !== undefined) f.paused = q.paused;
      if (q.search) {
        const re = new RegExp(escapeRegex(q.search), 'i');
        f.$or = [{ display_name: re }, { url: re }];
      }
      return page<Monitor>(monitors, f, q);
    },
    async countMonitors(workspaceId) {
      return monitors.countDocuments({ workspace_id: workspaceId });
    },
    async updateMonitor(next, expectedVersion) {
      const updated = await inTransaction(async (session) => {
        const r = await monitors.replaceOne(
          { _id: next.id, workspace_id: next.workspace_id, version: expectedVersion },
          toDoc(next),
          { session },
        );
        if (r.matchedCount === 1) await appendChanges(session, [changedEntry(next.id)]);
        return r.matchedCount === 1;
      });
      if (updated) return 'updated';
      return (await store.getMonitor(next.workspace_id, next.id)) ? 'conflict' : 'not_found';
    },
    async deleteMonitor(workspaceId, id) {
      return inTransaction(async (session) => {
        const gone =
          (await monitors.deleteOne({ workspace_id: workspaceId, _id: id }, { session })).deletedCount === 1;
        if (gone) await appendChanges(session, [changedEntry(id)]);
        return gone;
      });
    },

    async insertHeartbeat(heartbeat) {
      await heartbeats.insertOne(toDoc(heartbeat));
    },
    async getHeartbeat(workspaceId, id) {
      return fromDoc<Heartbeat>(await heartbeats.findOne({ workspace_id: workspaceId, _id: id }));
    },
    async findHeartbeat(id) {
      return fromDoc<Heartbeat>(await heartbeats.findOne({ _id: id }));
    },
    async listHeartbeats(workspaceId, q) {
      return page<Heartbeat>(heartbeats, { workspace_id: workspaceId }, q);
    },
    async updateHeartbeat(next, expectedVersion) {
      // State, last ping, deadline, run and alert belong to pings and the deadline job, not to edits;
      // an edit makes the heartbeat due now, so the job re-evaluates it with the new period and grace.
      const {
        _id,
        last_ping_at: _l,
        state: _s,
        due_at: _d,
        started_at: _st,
        start_rid: _r,
        alert_id: _a,
        state_version: _v,
        rearmed_at: _ra,
        ...fields
      } = toDoc(next);
      const r = await heartbeats.updateOne(
        { _id: next.id, workspace_id: next.workspace_id, version: expectedVersion },
        { $set: { ...fields, due_at: next.updated_at }, $inc: { state_version: 1 } },
      );
      if (r.matchedCount === 1) return 'updated';
      return (await store.getHeartbeat(next.workspace_id, next.id)) ? 'conflict' : 'not_found';
    },
    async transitionHeartbeat(workspaceId, id, expected, next, at) {
      const r = await heartbeats.updateOne(
        { workspace_id: workspaceId, _id: id, state: expected },
        { $set: { state: next, updated_at: at }, $inc: { state_version: 1 } },
      );
      return r.modifiedCount === 1;
    },
    async deleteHeartbeat(workspaceId, id) {
      const gone = (await heartbeats.deleteOne({ workspace_id: workspaceId, _id: id })).deletedCount === 1;
      if (gone) await pings.deleteMany({ heartbeat_id: id });
      return gone;
    },
    async recordPings(batch) {
      if (batch.length === 0) return;
      await pings.insertMany(batch.map(toDoc), { ordered: false });
      // In arrival order: a start and its finish in one batch must apply in that order.
      await heartbeats.bulkWrite(
        pingTouches(batch).map((t) => ({
          updateOne: { filter: mongoPingTouchFilter(t), update: mongoPingTouch(t) },
        })),
        { ordered: true },
      );
    },
    async listPings(workspaceId, heartbeatId, q) {
      return page<Ping>(pings, { workspace_id: workspaceId, heartbeat_id: heartbeatId }, q, 'at');
    },

    async insertAgentToken(token) {
      await agentTokens.insertOne(toDoc(token));
    },
    async findAgentTokenByHash(tokenHash) {
      return fromDoc<AgentToken>(await agentTokens.findOne({ token_hash: tokenHash }));
    },
    async listAgentTokens() {
      return (await agentTokens.find({}).sort({ created_at: 1, _id: 1 }).toArray()).map(
        (d) => fromDoc<AgentToken>(d)!,
      );
    },
    async revokeAgentToken(id, at) {
      return (
        (await agentTokens.updateOne({ _id: id, revoked_at: null }, { $set: { revoked_at: at } }))
          .modifiedCount === 1
      );
    },
    async registerAgent(input) {
      const { instance_id, ...rest } = input;
      const doc = await agentSessions.findOneAndUpdate(
        { _id: instance_id },
        { $set: { ...rest, last_result_at: null, health: null }, $inc: { epoch: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      return sessionOf(doc!);
    },
    async getAgentSession(instanceId) {
      const d = await agentSessions.findOne({ _id: instanceId });
      return d ? sessionOf(d) : null;
    },
    async touchAgentSession(instanceId, sessionId, at, update = {}) {
      const set: Document = { last_seen_at: at };
      if (update.health) set.health = update.health;
      if (update.resultsAt) set.last_result_at = update.resultsAt;
      return (
        (await agentSessions.updateOne({ _id: instanceId, session_id: sessionId }, { $set: set }))
          .matchedCount === 1
      );
    },
    async endAgentSession(instanceId, sessionId) {
      await agentSessions.deleteOne({ _id: instanceId, session_id: sessionId });
    },
    async listAgentSessions(region) {
      const f: Filter<Doc> = region === undefined ? {} : { region };
      return (await agentSessions.find(f).sort({ region: 1, _id: 1 }).toArray()).map(sessionOf);
    },

    async listRegionMonitors(region) {
      return (await monitors.find({ check_locations: region, paused: false }).toArray()).map(
        (d) => fromDoc<Monitor>(d)!,
      );
    },
    async getMonitorsByIds(ids) {
      if (ids.length === 0) return [];
      return (await monitors.find({ _id: { $in: ids } }).toArray()).map((d) => fromDoc<Monitor>(d)!);
    },
    async scanMonitors(afterId, limit) {
      return (
        await monitors
          .find({ _id: { $gt: afterId ?? '' } })
          .sort({ _id: 1 })
          .limit(limit)
          .toArray()
      ).map((d) => fromDoc<Monitor>(d)!);
    },

    async listMonitorChanges(afterSeq, limit) {
      const docs = await monitorChanges
        .find({ _id: { $gt: afterSeq } })
        .sort({ _id: 1 })
        .limit(limit)
        .toArray();
      return docs.map(({ _id, ...rest }) => ({ ...(rest as Omit<MonitorChange, 'seq'>), seq: _id }));
    },
    async latestMonitorChange() {
      const [last] = await monitorChanges.find({}).sort({ _id: -1 }).limit(1).toArray();
      return last?._id ?? 0;
    },
    async requestRuns(runs) {
      if (runs.length === 0) return;
      await inTransaction((session) =>
        appendChanges(
          session,
          runs.map((r) => ({ ...r, kind: 'run' as const })),
        ),
      );
    },
    async pruneMonitorChanges(before, limit) {
      const [last] = await monitorChanges.find({}).sort({ _id: -1 }).limit(1).toArray();
      if (!last) return 0;
      const seqs = (
        await monitorChanges
          .find({ at: { $lt: before }, _id: { $lt: last._id } }, { projection: { _id: 1 } })
          .sort({ _id: 1 })
          .limit(limit)
          .toArray()
      ).map((d) => d._id);
      if (seqs.length === 0) return 0;
      return (await monitorChanges.deleteMany({ _id: { $in: seqs } })).deletedCount;
    },

    async insertResults(batch) {
      if (batch.length === 0) return [];
      const fresh: string[] = [];
      // Upsert with $setOnInsert: a replayed id matches and changes nothing; new ones are inserted.
      const r = await results.bulkWrite(
        batch.map((rec) => {
          const { _id, ...fields } = toDoc(rec);
          return { updateOne: { filter: { _id }, update: { $setOnInsert: fields }, upsert: true } };
        }),
        { ordered: true },
      );
      const upserted = r.upsertedIds as Record<number, string>;
      batch.forEach((rec, i) => {
        if (upserted[i] !== undefined) fresh.push(rec.id);
      });
      return fresh;
    },
    async listResults(workspaceId, monitorId, q: ResultQuery) {
      const f: Filter<Doc> = { workspace_id: workspaceId, monitor_id: monitorId };
      if (q.location) f.location = q.location;
      if (q.since || q.until) {
        f.scheduled_at = {
          ...(q.since ? { $gte: q.since } : {}),
          ...(q.until ? { $lt: q.until } : {}),
        };
      }
      const cur = decodeCursor(q.cursor);
      const filter: Filter<Doc> = cur
        ? {
            $and: [
              f,
              {
                $or: [
                  { scheduled_at: { $lt: new Date(cur.t) } },
                  { scheduled_at: new Date(cur.t), _id: { $lt: cur.id } },
                ],
              },
            ],
          }
        : f;
      const docs = await results
        .find(filter)
        .sort({ scheduled_at: -1, _id: -1 })
        .limit(q.limit + 1)
        .toArray();
      const rows = docs.map((d) => fromDoc<CheckResultRecord>(d)!);
      const data = rows.slice(0, q.limit);
      const last = data[data.length - 1];
      return {
        data,
        next_cursor: rows.length > q.limit && last ? encodeCursor(last.scheduled_at, last.id) : null,
      };
    },
    async countResults(workspaceId, monitorId, since, until) {
      const [r] = await results
        .aggregate<{ total: number; ok: number }>([
          {
            $match: {
              workspace_id: workspaceId,
              monitor_id: monitorId,
              scheduled_at: { $gte: since, $lt: until },
            },
          },
          { $group: { _id: null, total: { $sum: 1 }, ok: { $sum: { $cond: ['$ok', 1, 0] } } } },
        ])
        .toArray();
      return { total: r?.total ?? 0, ok: r?.ok ?? 0 };
    },
    async pruneResults(before, limit) {
      const ids = (
        await results
          .find({ received_at: { $lt: before } }, { projection: { _id: 1 } })
          .limit(limit)
          .toArray()
      ).map((d) => d._id);
      if (ids.length === 0) return 0;
      return (await results.deleteMany({ _id: { $in: ids } })).deletedCount;
    },

    async listMonitorStates(monitorId) {
      return (await monitorStates.find({ monitor_id: monitorId }).sort({ location: 1 }).toArray()).map(
        (d) => {
          const { _id, ...rest } = d;
          return rest as unknown as MonitorLocationState;
        },
      );
    },
    async recordResults(batch, step) {
      if (batch.length === 0) return { stored: [], states: [] };
      const stored = new Set(await store.insertResults(batch));
      for (const r of batch) {
        if (!stored.has(r.id)) continue;
        for (let attempt = 0; attempt < 8; attempt++) {
          const doc = await monitorStates.findOne({ _id: `${r.monitor_id}|${r.location}` });
          const prev = doc ? (({ _id, ...rest }) => rest as unknown as MonitorLocationState)(doc) : null;
          const next = step(prev, r);
          if (!next || (await store.putMonitorState(next, prev?.version ?? 0))) break;
        }
      }
      const touched = [...new Set(batch.map((r) => r.monitor_id))];
      const states = (
        await monitorStates
          .find({ monitor_id: { $in: touched } })
          .sort({ monitor_id: 1, location: 1 })
          .toArray()
      ).map(({ _id, ...rest }) => rest as unknown as MonitorLocationState);
      return { stored: batch.filter((r) => stored.has(r.id)).map((r) => r.id), states };
    },
    async putMonitorState(next, expectedVersion) {
      const _id = `${next.monitor_id}|${next.location}`;
      if (expectedVersion === 0) {
        try {
          await monitorStates.insertOne({ _id, ...next });
          return true;
        } catch (e) {
          if (isDuplicate(e)) return false;
          throw e;
        }
      }
      return (
        (await monitorStates.replaceOne({ _id, version: expectedVersion }, { _id, ...next })).matchedCount ===
        1
      );
    },

    async raiseAlert(alert) {
      const key = openKey(alert);
      for (let attempt = 0; attempt < 3; attempt++) {
        const existing = await alerts.findOne({ open_key: key });
        if (existing) return { alert: fromDoc<Alert>(existing)!, created: false };
        try {
          await alerts.insertOne({
            ...toDoc(alert),
            ...(alert.status === 'resolved' ? {} : { open_key: key }),
          });
          return { alert, created: true };
        } catch (e) {
          if (!isDuplicate(e)) throw e;
        }
      }
      throw new AppError('conflict', 'Could not raise the alert; try again.');
    },
    async getAlert(workspaceId, id) {
      return fromDoc<Alert>(await alerts.findOne({ workspace_id: workspaceId, _id: id }));
    },
    async findOpenAlert(key) {
      return fromDoc<Alert>(await alerts.findOne({ open_key: openKey(key) }));
    },
    async findOpenAlerts(keys: AlertKey[]) {
      if (keys.length === 0) return [];
      return (await alerts.find({ open_key: { $in: keys.map(openKey) } }).toArray()).map(
        (d) => fromDoc<Alert>(d)!,
      );
    },
    async listAlerts(workspaceId, q: AlertQuery) {
      const f: Filter<Doc> = { workspace_id: workspaceId };
      if (q.status?.length) f.status = { $in: q.status };
      if (q.source_type) f.source_type = q.source_type;
      if (q.source_id) f.source_id = q.source_id;
      if (q.since || q.until) {
        f.created_at = { ...(q.since ? { $gte: q.since } : {}), ...(q.until ? { $lt: q.until } : {}) };
      }
      return page<Alert>(alerts, f, q);
    },
    async resolveAlert(workspaceId, id, by, at) {
      // One transaction: the resolve and the re-arming of its source (see port.ts) commit together.
      const updated = await inTransaction(async (session) => {
        const doc = await alerts.findOneAndUpdate(
          { workspace_id: workspaceId, _id: id, status: { $ne: 'resolved' } },
          {
            $set: {
              status: 'resolved',
              resolved_at: at,
              resolved_by: by,
              updated_at: at,
              escalation_due_at: null,
            },
            $unset: { open_key: '' },
          },
          { returnDocument: 'after', session },
        );
        const alert = fromDoc<Alert>(doc);
        if (alert?.source_type === 'monitor' && alert.cause === 'down') {
          await monitorStates.updateOne(
            { _id: `${alert.source_id}|*`, status: 'down' },
            { $set: { status: 'unknown' }, $inc: { version: 1 } },
            { session },
          );
        }
        if (alert?.source_type === 'heartbeat') {
          await heartbeats.updateOne(
            { _id: alert.source_id, workspace_id: workspaceId, alert_id: id },
            [
              {
                $set: {
                  alert_id: null,
                  rearmed_at: {
                    $cond: [{ $eq: ['$state', 'down'] }, at, { $ifNull: ['$rearmed_at', null] }],
                  },
                  due_at: at,
                  state_version: { $add: [{ $ifNull: ['$state_version', 0] }, 1] },
                },
              },
            ],
            { session },
          );
        }
        return alert;
      });
      if (updated) return { outcome: 'resolved', alert: updated };
      const alert = await store.getAlert(workspaceId, id);
      return alert ? { outcome: 'already_resolved', alert } : { outcome: 'not_found', alert: null };
    },
  };
  return store;
};

const sessionOf = (d: Document): AgentSession => {
  const { _id, ...rest } = d;
  return { instance_id: _id, ...rest } as AgentSession;
};
