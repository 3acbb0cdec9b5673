/**
 * Scenarios written for the MongoDB adapter's desk-checked defects (docs/decisions.md, "MongoDB"
 * under Storage; the defects themselves are in that file's history). Those that hold for every
 * adapter run on each (SQLite always; MongoDB when LOOKOUT_MONGODB_URI names a replica set, see
 * mongo-scenarios.test.ts); those about MongoDB itself (query plans, index migrations, write skew
 * under snapshot isolation) run only there, and only there can they fail.
 */
import { randomUUID } from 'node:crypto';
import type { ClientSession, Collection, Db, Document } from 'mongodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  Alert,
  CheckResultRecord,
  Delivery,
  Integration,
  MonitorLocationState,
  Ping,
} from '../../control-plane/src/domain/types.js';
import {
  alertsBetweenQuery,
  deliveriesQuery,
  dueEscalationsQuery,
  dueFollowUpsQuery,
  openAlertsQuery,
  sentDeliveryQuery,
} from '../../control-plane/src/store/mongo/alerts.js';
import {
  bumpGuard,
  collectionsOf,
  cursorOf,
  type Query,
  toDoc,
} from '../../control-plane/src/store/mongo/db.js';
import { dueHeartbeatsQuery, pingsPageQuery } from '../../control-plane/src/store/mongo/heartbeats.js';
import { feedQuery } from '../../control-plane/src/store/mongo/monitors.js';
import { resultsPageQuery } from '../../control-plane/src/store/mongo/results.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { fixtures } from './fixtures.js';

/** Every rollup bucket there is. */
const ALL_TIME = { from: new Date(0), to: new Date('2100-01-01T00:00:00Z') };

/** One adapter under test: a store, more stores on the same data (other replicas), and for MongoDB the database. */
export interface ScenarioTarget {
  store: Store;
  /** Another store on the same database or file, as a second control-plane replica opens it (not initialized). */
  peer(): Store;
  /** MongoDB only: the database the stores use. */
  mongo?: Db;
  /**
   * Another database, as the versions before uptime rollups left it: `results` stored, in no bucket.
   * The current version's first start on it died part-way through putting them in buckets (after
   * `chunks` steps where its work has steps); returns a store on it as the next start opens it (not
   * initialized), closed with the others.
   */
  beforeRollups(results: CheckResultRecord[], chunks: number): Promise<Store>;
  /** Closes the database's stores (peers included) and removes the database. */
  dispose(): Promise<void>;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

const checkResult = (ws: string, monitorId: string, location: string, s: number): CheckResultRecord => ({
  ...{ id: randomUUID(), workspace_id: ws, monitor_id: monitorId, monitor_version: 1, location },
  ...{ instance_id: 'agent-1', scheduled_at: at(s), started_at: at(s), received_at: at(s), ok: false },
  ...{ error_kind: 'timeout', error_message: 'timed out', response_time_ms: 10_000, status_code: null },
  ...{
    timings: null,
    tls_valid_to: null,
    domain_expires_at: null,
    dns_records: [],
    run_now_request_id: null,
  },
});

const ping = (hb: { id: string; workspace_id: string }, s: number): Ping => ({
  ...{ id: randomUUID(), heartbeat_id: hb.id, workspace_id: hb.workspace_id, kind: 'success' },
  ...{ at: at(s), received_at: at(s), source: null, rid: null, exit_status: null, body: null },
});

/** A step that counts the results it sees in `consecutive_failures` (and versions each state). */
const countStep = (prev: MonitorLocationState | null, r: CheckResultRecord): MonitorLocationState => ({
  ...{ monitor_id: r.monitor_id, location: r.location, status: 'down', consecutive_successes: 0 },
  ...{ consecutive_failures: (prev?.consecutive_failures ?? 0) + 1, consecutive_slow: 0 },
  ...{ last_result_at: r.received_at, last_scheduled_at: r.scheduled_at, version: (prev?.version ?? 0) + 1 },
});

/** Every `stage` and `indexName` in an explained plan, however nested (classic, SBE, sharded). */
const planParts = (plan: unknown, out = { stages: [] as string[], indexes: [] as string[] }) => {
  if (Array.isArray(plan)) for (const p of plan) planParts(p, out);
  else if (plan && typeof plan === 'object')
    for (const [k, v] of Object.entries(plan)) {
      if (k === 'stage' && typeof v === 'string') out.stages.push(v);
      else if (k === 'indexName' && typeof v === 'string') out.indexes.push(v);
      else planParts(v, out);
    }
  return out;
};

/** The query (as the adapter runs it) is answered from an index: no collection scan, and no in-memory sort. */
const expectIndexed = async (c: Collection<Document>, q: Query, index?: string) => {
  const explained = await cursorOf(c, q).explain('queryPlanner');
  const { stages, indexes } = planParts(explained.queryPlanner?.winningPlan);
  expect(stages).not.toContain('COLLSCAN');
  expect(stages.some((s) => /IXSCAN|IDHACK/.test(s))).toBe(true);
  if (q.sort) expect(stages).not.toContain('SORT');
  if (index) expect(indexes).toContain(index);
};

export const mongoScenarios = (
  name: string,
  open: () => Promise<ScenarioTarget>,
  opts: { mongodb: boolean } = { mongodb: false },
) => {
  describe(`MongoDB adapter scenarios: ${name}`, () => {
    let t: ScenarioTarget;
    let store: Store;
    let ws: ReturnType<typeof fixtures.workspace>;
    let wsId: string;

    beforeEach(async () => {
      t = await open();
      store = t.store;
      await store.init();
      ws = fixtures.workspace();
      wsId = ws.workspace.id;
      await store.createWorkspace(ws);
    });
    afterEach(async () => {
      await t.dispose();
    });

    const peer = async () => {
      const p = t.peer();
      await p.init();
      return p;
    };

    it('raises one alert among many concurrent raisers on two replicas, and none of them fails', async () => {
      const other = await peer();
      const out = await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 ? other : store).raiseAlert(fixtures.alert(wsId))),
      );
      expect(out.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(out.map((r) => r.alert.id)).size).toBe(1);
    });

    it('records results concurrently on two replicas without losing a single state step', async () => {
      const other = await peer();
      const n = 24;
      await Promise.all(
        Array.from({ length: n }, (_, i) =>
          (i % 2 ? other : store).recordResults([checkResult(wsId, 'm-race', 'eu-west', i)], countStep),
        ),
      );
      // A batch whose step changes nothing still reports the monitor's states as they are.
      const { states } = await store.recordResults([checkResult(wsId, 'm-race', 'us-east', 0)], () => null);
      const eu = states.find((s) => s.location === 'eu-west');
      expect([eu?.consecutive_failures, eu?.version]).toEqual([n, n]);
      // Every result counted once in the uptime rollups, whichever replica stored it.
      expect(await store.sumRollups(wsId, 'm-race', ALL_TIME.from, ALL_TIME.to)).toEqual({
        total: n + 1,
        ok: 0,
      });
    });

    it('records results and their state steps all or nothing: a failed step leaves the batch to replay whole', async () => {
      const batch = [0, 1, 2].map((s) => checkResult(wsId, 'm-crash', 'eu-west', s));
      let calls = 0;
      const failing = (prev: MonitorLocationState | null, r: CheckResultRecord) => {
        if (++calls === 2) throw new Error('the process died here');
        return countStep(prev, r);
      };
      await expect(store.recordResults(batch, failing)).rejects.toThrow('the process died here');
      expect(await store.sumRollups(wsId, 'm-crash', ALL_TIME.from, ALL_TIME.to)).toEqual({
        total: 0,
        ok: 0,
      });
      const replay = await store.recordResults(batch, countStep);
      expect(replay.stored).toEqual(batch.map((r) => r.id));
      expect(replay.states.map((s) => [s.location, s.consecutive_failures, s.version])).toEqual([
        ['eu-west', 3, 3],
      ]);
      expect((await store.listResults(wsId, 'm-crash', { limit: 10 })).data).toHaveLength(3);
      expect(await store.sumRollups(wsId, 'm-crash', ALL_TIME.from, ALL_TIME.to)).toEqual({
        total: 3,
        ok: 0,
      });
    });

    it('keeps no pings of a deleted or unknown heartbeat, and the rest of the batch whole', async () => {
      const live = fixtures.heartbeat(wsId, ws.defaultPolicy.id);
      const gone = fixtures.heartbeat(wsId, ws.defaultPolicy.id);
      await store.insertHeartbeat(live);
      await store.insertHeartbeat(gone);
      expect(await store.deleteHeartbeat(wsId, gone.id)).toBe(true);
      const unknown = { id: randomUUID(), workspace_id: wsId };
      await store.recordPings([ping(gone, 10), ping(live, 20), ping(unknown, 30)]);
      expect((await store.listPings(wsId, live.id, { limit: 10 })).data.map((p) => p.at)).toEqual([at(20)]);
      expect((await store.getHeartbeat(wsId, live.id))?.last_ping_at).toEqual(at(20));
      expect((await store.listPings(wsId, gone.id, { limit: 10 })).data).toEqual([]);
      expect((await store.listPings(wsId, unknown.id, { limit: 10 })).data).toEqual([]);
      // Pings racing the delete on another replica: whichever commits first, none is left behind.
      const other = await peer();
      for (let round = 0; round < 5; round++) {
        const hb = fixtures.heartbeat(wsId, ws.defaultPolicy.id, { last_ping_at: at(100) });
        await store.insertHeartbeat(hb);
        // An old ping (it moves nothing on the heartbeat) and a new one.
        await Promise.all([
          other.recordPings([ping(hb, 50), ping(hb, 200)]),
          store.deleteHeartbeat(wsId, hb.id),
        ]);
        expect((await store.listPings(wsId, hb.id, { limit: 10 })).data).toEqual([]);
      }
    });

    it('swaps the legacy key concurrently on two replicas and keeps exactly one active', async () => {
      const other = await peer();
      const keys = Array.from({ length: 10 }, () => fixtures.apiKey(wsId, ws.admin.id, { kind: 'legacy' }));
      await Promise.all(keys.map((k, i) => (i % 2 ? other : store).replaceLegacyKey(k, T0)));
      const legacy = await store.listApiKeys(wsId, { limit: 50, kind: 'legacy' });
      expect(legacy.data).toHaveLength(10);
      expect(legacy.data.filter((k) => k.revoked_at === null)).toHaveLength(1);
    });

    it('goes on numbering the feed after its highest entry, also when its counter is missing', async () => {
      const run = { monitor_id: 'm-feed', location: 'eu-west', reason: 'manual', request_id: 'r', at: T0 };
      await store.requestRuns([run, run, run]);
      const last = await store.latestMonitorChange();
      // A counter lost or behind (a restore, an older version): init seeds it from the entries.
      await t.mongo?.collection<{ _id: string }>('counters').deleteOne({ _id: 'monitor_changes' });
      await store.init();
      await store.requestRuns([run]);
      expect((await store.listMonitorChanges(0, 100)).map((e) => e.seq).slice(-4)).toEqual([
        last - 2,
        last - 1,
        last,
        last + 1,
      ]);
    });

    it('puts results stored before uptime rollups existed into buckets once, also when the first start died part-way', async () => {
      const monitors = ['m-old-a', 'm-old-b', 'm-old-c'];
      const rs = monitors.flatMap((m, i) =>
        ['eu-west', 'us-east'].flatMap((location) =>
          [0, 1800, 3600, 5400].map((s, j) => ({
            ...checkResult(wsId, m, location, s),
            ok: (i + j) % 3 !== 0,
            response_time_ms: 100 + j,
          })),
        ),
      );
      const next = await t.beforeRollups(rs, 1);
      const sums = () =>
        Promise.all(monitors.map((m) => next.sumRollups(wsId, m, ALL_TIME.from, ALL_TIME.to)));
      const expected = monitors.map((m) => {
        const mine = rs.filter((r) => r.monitor_id === m);
        return { total: mine.length, ok: mine.filter((r) => r.ok).length };
      });
      await next.init();
      expect(await sums()).toEqual(expected);
      // Done is done: another start, and new results, count each result once.
      await next.init();
      await next.recordResults([{ ...checkResult(wsId, 'm-old-a', 'eu-west', 7200), ok: true }], () => null);
      expect(await sums()).toEqual([{ total: 9, ok: expected[0]!.ok + 1 }, expected[1], expected[2]]);
    });

    it('lists deliveries of the same instant in the order they were written', async () => {
      const alert = fixtures.alert(wsId);
      const channel = randomUUID();
      // Ids in descending order, so that an id tiebreak would reverse them.
      const ids = ['f', 'c', 'a', '7', '3'].map((h) => `${h.repeat(8)}-0000-4000-8000-000000000000`);
      const delivery = (id: string, key: string | null): Delivery => ({
        ...{
          id,
          workspace_id: wsId,
          alert_id: alert.id,
          channel_id: channel,
          user_id: null,
          kind: 'webhook',
        },
        ...{ target: 'https://hooks.example', step: 0, round: 0, attempt: 1, outcome: 'sent' },
        ...{ permanent: false, status_code: 200, error: null, idempotency_key: key, test: false, at: T0 },
      });
      for (const [i, id] of ids.entries())
        await store.insertDelivery(delivery(id, i === 2 ? 'k-sent' : null));
      expect((await store.listDeliveries(wsId, { alert_id: alert.id, limit: 10 })).map((d) => d.id)).toEqual(
        ids,
      );
      expect((await store.listDeliveries(wsId, { channel_id: channel, limit: 10 })).map((d) => d.id)).toEqual(
        ids,
      );
      expect(await store.hasSentDelivery('k-sent')).toBe(true);
      expect(await store.hasSentDelivery('k-other')).toBe(false);
    });

    // The rest is MongoDB's own; its target registers it always (skipped where no replica set is set).
    if (!opts.mongodb) return;

    describe('MongoDB only', () => {
      const db = () => t.mongo!;
      const col = () => collectionsOf(db()) as unknown as Record<string, Collection<Document>>;

      it('answers the hot queries from indexes: open alerts, due heartbeats and escalations, feed, result and ping pages', async () => {
        const hb = fixtures.heartbeat(wsId, ws.defaultPolicy.id, { due_at: at(60) });
        await store.insertHeartbeat(hb);
        await store.recordPings([ping(hb, 1), ping(hb, 2), ping(hb, 3)]);
        const open: Alert[] = [];
        for (let i = 0; i < 4; i++) {
          const a = fixtures.alert(wsId, {
            dedup_key: `k${i}`,
            escalation: {
              policy_id: ws.defaultPolicy.id,
              step: 0,
              round: 0,
              claim: null,
              suppressed_by: null,
              finished: false,
            },
            escalation_due_at: at(i),
          });
          await store.raiseAlert(a);
          open.push(a);
        }
        await store.resolveAlert(wsId, open[0]!.id, { type: 'system' }, at(5));
        await store.recordResults(
          [0, 1, 2].map((s) => checkResult(wsId, 'm-x', 'eu-west', s)),
          countStep,
        );
        await store.requestRuns([
          { monitor_id: 'm-x', location: 'eu-west', reason: 'manual', request_id: 'r', at: T0 },
        ]);
        await store.insertDelivery({
          ...{ id: randomUUID(), workspace_id: wsId, alert_id: open[1]!.id, channel_id: null, user_id: null },
          ...{
            kind: 'webhook',
            target: 'x',
            step: 0,
            round: 0,
            attempt: 1,
            outcome: 'sent',
            permanent: false,
          },
          ...{ status_code: 200, error: null, idempotency_key: 'k', test: false, at: T0 },
        });

        const c = col();
        await expectIndexed(c.alerts!, openAlertsQuery([open[1]!]), 'open_key_exists');
        await expectIndexed(c.alerts!, openAlertsQuery(open), 'open_key_exists');
        await expectIndexed(c.heartbeats!, dueHeartbeatsQuery(at(3600), 100));
        await expectIndexed(c.alerts!, dueEscalationsQuery(at(3600), 100));
        await expectIndexed(c.alerts!, dueFollowUpsQuery(at(3600), 100));
        await expectIndexed(c.monitorChanges!, feedQuery(0, 100));
        await expectIndexed(c.results!, resultsPageQuery(wsId, 'm-x', { limit: 2 }));
        await expectIndexed(c.results!, resultsPageQuery(wsId, 'm-x', { limit: 2, location: 'eu-west' }));
        await expectIndexed(c.pings!, pingsPageQuery(wsId, hb.id, { limit: 2 }));
        await expectIndexed(c.deliveries!, deliveriesQuery(wsId, { alert_id: open[1]!.id, limit: 10 }));
        await expectIndexed(c.deliveries!, sentDeliveryQuery('k'), 'idempotency_key_set');
        // A report's alerts of some monitors over a period (listAlertsBetween): merged in index order.
        await expectIndexed(
          c.alerts!,
          alertsBetweenQuery(wsId, 'monitor', ['m-x', 'm-y'], at(0), at(3600), 100),
          'workspace_id_1_source_type_1_source_id_1_created_at_-1__id_-1',
        );
        // A later page (keyset cursor) is read in index order too: an index scan, no in-memory sort.
        const results = 'monitor_id_1_scheduled_at_-1__id_-1';
        const cursor = (await store.listResults(wsId, 'm-x', { limit: 1 })).next_cursor!;
        await expectIndexed(c.results!, resultsPageQuery(wsId, 'm-x', { limit: 1, cursor }), results);
        await expectIndexed(
          c.results!,
          resultsPageQuery(wsId, 'm-x', { limit: 1, cursor, location: 'eu-west' }),
          results,
        );
        await expectIndexed(
          c.results!,
          resultsPageQuery(wsId, 'm-x', { limit: 1, cursor, since: at(0), until: at(3) }),
          results,
        );
        const pingCursor = (await store.listPings(wsId, hb.id, { limit: 1 })).next_cursor!;
        await expectIndexed(
          c.pings!,
          pingsPageQuery(wsId, hb.id, { limit: 1, cursor: pingCursor }),
          'heartbeat_id_1_at_-1__id_-1',
        );
      });

      it('gives monitors stored before the retry interval the default at init: 15 s, or a shorter interval', async () => {
        const often = fixtures.monitor(wsId, ws.defaultPolicy.id, { check_interval_seconds: 10 });
        const usual = fixtures.monitor(wsId, ws.defaultPolicy.id, { check_interval_seconds: 60 });
        const set = fixtures.monitor(wsId, ws.defaultPolicy.id, { retry_interval_seconds: 30 });
        for (const m of [often, usual, set]) await store.insertMonitor(m, { maxMonitors: 10 });
        // As an older version stored them (SQLite's counterpart: migrations.test.ts).
        await col().monitors!.updateMany({ _id: { $in: [often.id, usual.id] } } as Document, {
          $unset: { retry_interval_seconds: '' },
        });
        await store.init();
        const retry = async (id: string) => (await store.getMonitor(wsId, id))?.retry_interval_seconds;
        expect([await retry(often.id), await retry(usual.id), await retry(set.id)]).toEqual([10, 15, 30]);
      });

      it('gives monitors stored before check types had settings an empty settings record at init, once', async () => {
        const old = fixtures.monitor(wsId, ws.defaultPolicy.id);
        const ping = fixtures.monitor(wsId, ws.defaultPolicy.id, {
          monitor_type: 'ping',
          settings: { packet_count: 5, assertions: [] },
        });
        for (const m of [old, ping]) await store.insertMonitor(m, { maxMonitors: 10 });
        // As an older version stored it (SQLite's counterpart: migration 0037).
        await col().monitors!.updateOne({ _id: old.id } as Document, { $unset: { settings: '' } });
        await store.init();
        await store.init();
        expect((await store.getMonitor(wsId, old.id))?.settings).toEqual({});
        expect((await store.getMonitor(wsId, ping.id))?.settings).toEqual({
          packet_count: 5,
          assertions: [],
        });
      });

      it('reads an agent session stored before agents declared check types as running the first types', async () => {
        const base = {
          region: 'eu-west',
          hostname: 'h',
          agent_version: '1',
          started_at: T0,
          last_seen_at: T0,
        };
        await store.registerAgent({
          ...base,
          instance_id: 'old-agent',
          session_id: 's',
          check_types: ['http'],
        });
        // As an older version stored it (SQLite's counterpart: the column's default, migration 0038).
        await col().agentSessions!.updateOne({ _id: 'old-agent' } as Document, {
          $unset: { check_types: '' },
        });
        expect((await store.getAgentSession('old-agent'))?.check_types).toEqual([
          'http',
          'api',
          'dns',
          'tcp',
          'domain',
        ]);
        const listed = (await store.listAgentSessions('eu-west')).find((a) => a.instance_id === 'old-agent');
        expect(listed?.check_types).toEqual(['http', 'api', 'dns', 'tcp', 'domain']);
      });

      it('replaces the indexes of older versions at init, also when two replicas start at once', async () => {
        const c = col();
        const replaced: [string, string, Document, Document][] = [
          [
            'alerts',
            'open_key_exists',
            { open_key: 1 },
            { unique: true, partialFilterExpression: { open_key: { $type: 'string' } } },
          ],
          ['results', 'monitor_id_1_scheduled_at_-1__id_-1', { monitor_id: 1, scheduled_at: -1 }, {}],
          ['pings', 'heartbeat_id_1_at_-1__id_-1', { heartbeat_id: 1, at: -1 }, {}],
          ['deliveries', 'idempotency_key_set', { idempotency_key: 1 }, { sparse: true }],
          ['deliveries', 'alert_id_1_at_1_delivery_seq_1', { alert_id: 1, at: 1 }, {}],
          ['deliveries', 'channel_id_1_at_1_delivery_seq_1', { channel_id: 1, at: 1 }, {}],
        ];
        // The database as an older version left it: the old indexes, not the new ones.
        for (const [on, now, oldKey, oldOptions] of replaced) {
          await c[on]!.dropIndex(now);
          await c[on]!.createIndex(oldKey, oldOptions);
        }
        await store.raiseAlert(fixtures.alert(wsId));
        await Promise.all([store.init(), t.peer().init()]);
        const names = async (on: string) =>
          (await c[on]!.listIndexes().toArray()).map((i) => i.name as string);
        expect(await names('alerts')).toContain('open_key_exists');
        expect(await names('alerts')).not.toContain('open_key_1');
        expect(await names('results')).toContain('monitor_id_1_scheduled_at_-1__id_-1');
        expect(await names('results')).not.toContain('monitor_id_1_scheduled_at_-1');
        expect(await names('pings')).not.toContain('heartbeat_id_1_at_-1');
        expect(await names('deliveries')).toEqual(
          expect.arrayContaining([
            'idempotency_key_set',
            'alert_id_1_at_1_delivery_seq_1',
            'channel_id_1_at_1_delivery_seq_1',
          ]),
        );
        expect(await names('deliveries')).not.toContain('idempotency_key_1');
        // The new unique index holds: the open alert is still the only one for its key.
        expect((await store.raiseAlert(fixtures.alert(wsId))).created).toBe(false);
      });

      /**
       * A write that adds a reference, in flight in another transaction when a delete checks for
       * references: without a shared guard document the delete's snapshot misses it and both commit.
       * The in-flight writer bumps the workspace's guard as the adapter's policy, monitor and heartbeat
       * writes do; the delete must wait for it (it is retried on the write conflict) and then see it.
       */
      const whileInFlight = async <T>(
        write: (session: ClientSession) => Promise<unknown>,
        act: () => Promise<T>,
      ) => {
        const session = db().client.startSession();
        try {
          session.startTransaction();
          await bumpGuard(collectionsOf(db()).workspaces, wsId, session);
          await write(session);
          const acting = act();
          await new Promise((r) => setTimeout(r, 300));
          await session.commitTransaction();
          return await acting;
        } finally {
          await session.endSession();
        }
      };

      it('refuses to delete a channel that a policy written concurrently starts to notify', async () => {
        const channel = randomUUID();
        await store.insertChannel({
          ...{ id: channel, workspace_id: wsId, name: 'ops', type: 'slack', secret: null },
          ...{ config: { type: 'slack', url: 'https://hooks.example/x' }, created_at: T0, updated_at: T0 },
        });
        const policy = {
          ...ws.defaultPolicy,
          steps: [{ wait_minutes: 0, notify_user_ids: [], notify_channel_ids: [channel] }],
        };
        const outcome = await whileInFlight(
          (session) =>
            collectionsOf(db()).policies.replaceOne({ _id: policy.id }, toDoc(policy), { session }),
          () => store.deleteChannel(wsId, channel),
        );
        expect(outcome).toBe('in_use');
      });

      it('refuses to remove a user whom a policy written concurrently starts to notify alone', async () => {
        const member = {
          ...ws.admin,
          id: randomUUID(),
          email: `m-${randomUUID()}@x.test`,
          role: 'member' as const,
        };
        await store.createUser(member);
        const policy = {
          ...ws.defaultPolicy,
          steps: [{ wait_minutes: 0, notify_user_ids: [member.id], notify_channel_ids: [] }],
        };
        const outcome = await whileInFlight(
          (session) =>
            collectionsOf(db()).policies.replaceOne({ _id: policy.id }, toDoc(policy), { session }),
          () => store.removeUser(wsId, member.id, T0),
        );
        expect(outcome).toEqual({
          outcome: 'only_target',
          policies: [{ id: policy.id, name: policy.name, steps: [1] }],
        });
        expect(await store.getUser(wsId, member.id)).toEqual(member);
      });

      it('refuses to delete a policy that a monitor written concurrently starts to use', async () => {
        const policy = { ...ws.defaultPolicy, id: randomUUID(), is_default: false };
        await store.insertEscalationPolicy(policy);
        const monitor = fixtures.monitor(wsId, policy.id);
        const outcome = await whileInFlight(
          (session) => collectionsOf(db()).monitors.insertOne(toDoc(monitor), { session }),
          () => store.deleteEscalationPolicy(wsId, policy.id),
        );
        expect(outcome).toEqual({ in_use: ['monitors'] });
      });

      it('refuses to delete a policy that an integration written concurrently starts to use; integration writes bump the guard', async () => {
        const policy = { ...ws.defaultPolicy, id: randomUUID(), is_default: false };
        await store.insertEscalationPolicy(policy);
        const integration: Integration = {
          ...{ id: randomUUID(), workspace_id: wsId, name: 'am', kind: 'alertmanager' },
          ...{ key_hash: randomUUID(), key_last_four: 'abcd', escalation_policy_id: policy.id },
          ...{ created_at: T0, updated_at: T0 },
        };
        const outcome = await whileInFlight(
          (session) => collectionsOf(db()).integrations.insertOne(toDoc(integration), { session }),
          () => store.deleteEscalationPolicy(wsId, policy.id),
        );
        expect(outcome).toEqual({ in_use: ['integrations'] });
        // The adapter's own integration writes take part in that: each bumps the workspace's guard.
        const guard = async () =>
          (await collectionsOf(db()).workspaces.findOne({ _id: wsId }))?.guard as number;
        const before = await guard();
        await store.insertIntegration({ ...integration, id: randomUUID(), key_hash: randomUUID() });
        expect(await guard()).toBe(before + 1);
        await store.updateIntegration({ ...integration, escalation_policy_id: null });
        expect(await guard()).toBe(before + 2);
      });
    });
  });
};
