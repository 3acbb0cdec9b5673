/**
 * Store contract, monitor status part (the `MonitorStatusStore` port of domain/monitors/monitor-status.ts):
 * status derived from the paused flag, active maintenance windows and the '*' state, with the
 * precedence the port states; filtering and paging in the store. Run by monitor-status.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { coverNow } from '../../control-plane/src/domain/maintenance/cover.js';
import {
  type MonitorChecksSummary,
  type MonitorStatus,
  type MonitorStatusQuery,
  NO_CHECKS,
} from '../../control-plane/src/domain/monitors/monitor-status.js';
import { ingestResults } from '../../control-plane/src/domain/results/check-results.js';
import type {
  CheckResultRecord,
  MaintenanceWindow,
  Monitor,
  MonitorLocationState,
} from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, fixtures, result, T0 } from './fixtures.js';
import { putState, seedLocationState } from './stores.js';

/** A plain tcp monitor named `name`, created `created` seconds after T0. */
const monitor = (
  ws: string,
  policy: string,
  name: string,
  created: number,
  over: Partial<Monitor> = {},
): Monitor =>
  fixtures.monitor(ws, policy, {
    display_name: name,
    monitor_type: 'tcp',
    url: `${name}.example.test`,
    http_method: null,
    auth: null,
    port: 443,
    request_headers: {},
    ssl_cert_monitoring: false,
    created_at: at(created),
    updated_at: at(created),
    ...over,
  });

const state = (
  monitorId: string,
  location: string,
  status: MonitorLocationState['status'],
  last: Date | null,
): MonitorLocationState => ({
  monitor_id: monitorId,
  location,
  status,
  consecutive_failures: 0,
  consecutive_successes: 0,
  consecutive_slow: 0,
  last_result_at: last,
  last_scheduled_at: last,
  version: 1,
});

const window = (ws: string, scope: string | null, from: number, to: number): MaintenanceWindow => ({
  id: randomUUID(),
  workspace_id: ws,
  name: 'w',
  scope_type: scope ? 'monitor' : 'workspace',
  scope_id: scope,
  starts_at: at(from),
  ends_at: at(to),
  schedule: null,
  timezone: null,
  duration_seconds: null,
  created_at: T0,
});

export const monitorStatusContract = (name: string, open: () => Promise<Store>) => {
  describe(`Store contract, monitor status: ${name}`, () => {
    let store: Store;
    let ws: string;
    let policy: string;
    const add = async (name: string, created: number, over: Partial<Monitor> = {}) => {
      const m = monitor(ws, policy, name, created, over);
      expect(await store.insertMonitor(m, { maxMonitors: 1000 })).toBe('inserted');
      return m;
    };
    /** One check of `m` at `s` seconds through ingestion, as an agent of `location` reports it. */
    const ingestOne = (m: Monitor, location: string, s: number, over: Partial<CheckResultRecord>) =>
      ingestResults(
        { store, catalog: { resolve: async (ids) => new Map([...ids].map((id) => [id, m] as const)) } },
        {
          region: location,
          instanceId: `${location}-1`,
          results: [{ ...result(ws, m.id, { scheduled_at: at(s), started_at: at(s), ...over }) }],
        },
        at(s),
      );
    /** The list newest first (these cases predate the list's orders) under the workspace's cover now. */
    const listIn = async (w: string, q: MonitorStatusQuery, now: Date) =>
      store.listMonitorsWithStatus(w, { sort: 'created', ...q }, now, await coverNow(store, w, now));
    const statusesIn = async (w: string, ids: string[], now: Date) =>
      store.getMonitorStatuses(w, ids, now, await coverNow(store, w, now));
    const refused = {
      ok: false,
      error_kind: 'connect',
      error_message: 'connection refused',
      status_code: null,
    };
    const statuses = async (q: { status?: MonitorStatus[]; limit?: number } = {}, now = at(100)) =>
      Object.fromEntries(
        (await listIn(ws, { limit: q.limit ?? 100, status: q.status }, now)).data.map((m) => [
          m.display_name,
          m.status,
        ]),
      );

    beforeEach(async () => {
      store = await open();
      await store.init();
      ws = randomUUID();
      policy = randomUUID();
      const sub = `s-${ws.slice(0, 8)}`;
      await store.createWorkspace({
        workspace: { id: ws, subdomain: sub, name: sub, plan: 'team', created_at: T0 },
        admin: {
          id: randomUUID(),
          workspace_id: ws,
          email: `admin@${sub}.test`,
          role: 'admin',
          password_hash: null,
          created_at: T0,
        },
        defaultPolicy: {
          id: policy,
          workspace_id: ws,
          name: 'Default',
          is_default: true,
          steps: [],
          repeat: 0,
          support_hours: null,
          created_at: T0,
          updated_at: T0,
        },
      });
    });
    afterEach(async () => {
      await store.close();
    });

    it('paused, then maintenance, then the monitor-level state, else pending; last_checked_at from the locations', async () => {
      const fresh = await add('fresh', 1);
      const up = await add('up', 2);
      const down = await add('down', 3);
      const unknown = await add('unknown', 4);
      const paused = await add('paused', 5, { paused: true });
      const maint = await add('maint', 6);
      const pausedInMaint = await add('paused-in-maint', 7, { paused: true });
      await putState(store, state(up.id, '*', 'up', at(50)), 0);
      await seedLocationState(store, ws, state(up.id, 'eu-west', 'up', at(40)));
      await seedLocationState(store, ws, state(up.id, 'us-east', 'up', at(45)));
      await putState(store, state(down.id, '*', 'down', at(60)), 0);
      await seedLocationState(store, ws, state(down.id, 'eu-west', 'down', at(55)));
      await putState(store, state(unknown.id, '*', 'unknown', at(60)), 0);
      await putState(store, state(paused.id, '*', 'down', at(60)), 0);
      await putState(store, state(maint.id, '*', 'down', at(60)), 0);
      await store.insertMaintenanceWindow(window(ws, maint.id, 90, 200));
      await store.insertMaintenanceWindow(window(ws, pausedInMaint.id, 90, 200));
      // Windows of the past, the future and another monitor's do not count.
      await store.insertMaintenanceWindow(window(ws, up.id, 0, 100));
      await store.insertMaintenanceWindow(window(ws, down.id, 101, 300));
      await store.insertMaintenanceWindow(window(randomUUID(), null, 0, 300));

      expect(await statuses()).toEqual({
        fresh: 'pending',
        up: 'up',
        down: 'down',
        unknown: 'pending',
        paused: 'paused',
        maint: 'maintenance',
        'paused-in-maint': 'paused',
      });
      const page = await listIn(ws, { limit: 100 }, at(100));
      const byName = Object.fromEntries(page.data.map((m) => [m.display_name, m]));
      expect(byName.up?.last_checked_at).toEqual(at(45));
      expect(byName.down?.last_checked_at).toEqual(at(55));
      expect(byName.fresh?.last_checked_at).toBeNull();
      // The records are the monitors themselves, plus status and the checks summary (of the two results
      // that left up's location states).
      const { status: _s, last_checked_at: _l, ...withChecks } = byName.up!;
      const upChecks = {
        uptime_24h: 100,
        uptime_30d: 100,
        last_response_time_ms: 120,
        recent_checks: [
          { at: at(40), ok: true, location: 'eu-west', response_time_ms: 120 },
          { at: at(45), ok: true, location: 'us-east', response_time_ms: 120 },
        ],
      };
      expect(withChecks).toEqual({ ...up, ...upChecks });
      expect(await statusesIn(ws, [up.id, fresh.id, maint.id, randomUUID()], at(100))).toEqual(
        new Map([
          [up.id, { status: 'up', last_checked_at: at(45), ...upChecks }],
          [fresh.id, { status: 'pending', last_checked_at: null, ...NO_CHECKS }],
          [maint.id, { status: 'maintenance', last_checked_at: null, ...NO_CHECKS }],
        ]),
      );
      expect(await statusesIn(randomUUID(), [up.id], at(100))).toEqual(new Map());
      // A workspace-wide window covers every monitor that is not paused.
      await store.insertMaintenanceWindow(window(ws, null, 150, 160));
      expect(await statuses({}, at(155))).toEqual({
        fresh: 'maintenance',
        up: 'maintenance',
        down: 'maintenance',
        unknown: 'maintenance',
        paused: 'paused',
        maint: 'maintenance',
        'paused-in-maint': 'paused',
      });
    });

    it('a monitor whose checks never succeeded is pending until they decide, then down, never up; up after a success', async () => {
      const m = await add('closed', 1, {
        check_locations: ['eu-west', 'us-east'],
        failure_threshold: 2,
        check_interval_seconds: 60,
      });
      /** One check through ingestion (the adapter's recordResults and location-state writes). */
      const check = (location: string, s: number, ok: boolean) =>
        ingestOne(m, location, s, ok ? {} : refused);
      const seen = async (s: number) => {
        const listed = (await statuses({}, at(s))).closed;
        const one = (await statusesIn(ws, [m.id], at(s))).get(m.id)?.status;
        expect(one).toBe(listed);
        return listed;
      };
      // Failing below the threshold, then failing at one location of two (no quorum): pending.
      const steps: [string, number, MonitorStatus][] = [
        ['eu-west', 10, 'pending'],
        ['us-east', 11, 'pending'],
        ['eu-west', 70, 'pending'],
        ['us-east', 71, 'down'],
        ['eu-west', 130, 'down'],
      ];
      for (const [location, s, expected] of steps) {
        await check(location, s, false);
        expect([location, s, await seen(s)]).toEqual([location, s, expected]);
      }
      expect(await statuses({ status: ['up'] }, at(130))).toEqual({});
      // A success at last: up.
      await check('us-east', 131, true);
      expect(await seen(131)).toBe('up');
    });

    it('a scheduled first failure asks the other location for a run now; that run failing asks nothing back', async () => {
      const m = await add('confirm', 1, {
        check_locations: ['eu-west', 'us-east'],
        check_interval_seconds: 60,
      });
      const fail = (location: string, s: number, runNow: string | null) =>
        ingestOne(m, location, s, { ...refused, run_now_request_id: runNow });
      expect((await fail('eu-west', 10, null)).confirmations).toBe(1);
      // us-east's first failure, but one that was asked for: it confirms, it does not ask eu-west again.
      expect((await fail('us-east', 11, randomUUID())).confirmations).toBe(0);
    });

    it('ingestion raises the condition alerts a monitor has (slow, TLS expiry, domain expiry) and none for one without', async () => {
      const one = ['eu-west'];
      const slow = await add('slow', 1, {
        check_locations: one,
        failure_threshold: 2,
        response_time_threshold_ms: 100,
      });
      const tls = await add('tls', 2, {
        check_locations: one,
        monitor_type: 'http',
        url: 'https://tls.example.test/',
        http_method: 'GET',
        ssl_cert_monitoring: true,
        ssl_cert_expiry_alert_days: 14,
      });
      const domain = await add('domain', 3, {
        check_locations: one,
        monitor_type: 'domain',
        url: 'domain.example.test',
        port: null,
        domain_expiry_alert_days: 30,
      });
      const plain = await add('plain', 4, { check_locations: one });
      const day = 86_400;
      const check = (m: Monitor, s: number, over: Partial<CheckResultRecord>) =>
        ingestOne(m, 'eu-west', s, over);
      const open = async (m: Monitor, cause: string) =>
        (
          await store.findOpenAlert({
            workspace_id: ws,
            source_type: 'monitor',
            source_id: m.id,
            cause,
            dedup_key: '',
          })
        )?.status ?? null;
      await check(slow, 10, { response_time_ms: 500 });
      expect(await open(slow, 'slow')).toBeNull();
      await check(slow, 70, { response_time_ms: 500 });
      expect(await open(slow, 'slow')).toBe('open');
      await check(tls, 10, { tls_valid_to: at(10 + 5 * day) });
      expect(await open(tls, 'tls_expiry')).toBe('open');
      await check(domain, 10, { tls_valid_to: null, domain_expires_at: at(10 + 10 * day) });
      expect(await open(domain, 'domain_expiry')).toBe('open');
      // A monitor with none of them: a slow answer, a certificate and a registration about to expire raise nothing.
      for (const s of [10, 70, 130]) {
        await check(plain, s, {
          response_time_ms: 5000,
          tls_valid_to: at(s + day),
          domain_expires_at: at(s + day),
        });
      }
      for (const cause of ['slow', 'tls_expiry', 'domain_expiry'])
        expect(await open(plain, cause)).toBeNull();
    });

    it('filters on one or several statuses and pages through the filtered list, newest first', async () => {
      const names: string[] = [];
      for (let i = 0; i < 7; i++) {
        const m = await add(`m${i}`, i + 1);
        names.push(m.display_name);
        if (i % 2 === 0) await putState(store, state(m.id, '*', 'down', at(50)), 0);
      }
      expect(Object.keys(await statuses({ status: ['down'] }))).toEqual(['m6', 'm4', 'm2', 'm0']);
      expect(Object.keys(await statuses({ status: ['pending', 'up'] }))).toEqual(['m5', 'm3', 'm1']);
      expect(await statuses({ status: ['maintenance'] })).toEqual({});
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listIn(ws, { limit: 3, cursor, status: ['down'] }, at(100));
        seen.push(...page.data.map((m) => m.display_name));
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(['m6', 'm4', 'm2', 'm0']);
      // The list's other filters still apply.
      expect(
        (await listIn(ws, { limit: 10, search: 'M4', status: ['down'] }, at(100))).data.map(
          (m) => m.display_name,
        ),
      ).toEqual(['m4']);
    });

    it('each record carries uptime over 24 h and 30 d from the rollups, the newest successful response time and its 30 newest checks, oldest first', async () => {
      const H = 3600;
      const a = await add('a', 1);
      const b = await add('b', 2);
      const c = await add('c', 3);
      const now = at(744 * H + 1800); // 31 days and half an hour after T0: the current hour is 744.
      const check = (m: Monitor, s: number, ok: boolean, over: Partial<CheckResultRecord> = {}) =>
        result(ws, m.id, { id: `${m.id}:${s}`, scheduled_at: at(s), received_at: at(s), ok, ...over });
      const rs: CheckResultRecord[] = [
        check(a, 0, false), // older than 30 days (before hour 25): counts nowhere
        check(a, 700 * H, true),
        check(a, 700 * H + 60, true),
        check(a, 700 * H + 120, false),
        check(a, 700 * H + 180, false),
        // From hour 743 on, every 2 minutes, alternating locations; the two newest fail.
        ...Array.from({ length: 36 }, (_, i) =>
          check(a, 743 * H + i * 120, i < 34, {
            location: i % 2 ? 'us-east' : 'eu-west',
            response_time_ms: 100 + i,
            status_code: i === 35 ? null : i === 34 ? 503 : 200,
          }),
        ),
        check(c, 744 * H, false, { status_code: 500, response_time_ms: 7 }),
      ];
      await store.recordResults(rs, () => null);

      const page = await listIn(ws, { limit: 10 }, now);
      const byName = Object.fromEntries(page.data.map((m) => [m.display_name, m]));
      const recent = Array.from({ length: 30 }, (_, k) => {
        const i = k + 6;
        return {
          at: at(743 * H + i * 120),
          ok: i < 34,
          location: i % 2 ? 'us-east' : 'eu-west',
          response_time_ms: i === 35 ? null : 100 + i,
        };
      });
      const summaryA = {
        uptime_24h: 94.4444, // 34 of 36
        uptime_30d: 90, // 36 of 40
        last_response_time_ms: 133,
        recent_checks: recent,
      };
      const summaryC = {
        uptime_24h: 0,
        uptime_30d: 0,
        last_response_time_ms: null,
        recent_checks: [{ at: at(744 * H), ok: false, location: 'eu-west', response_time_ms: 7 }],
      };
      const summary = ({
        uptime_24h,
        uptime_30d,
        last_response_time_ms,
        recent_checks,
      }: MonitorChecksSummary) => ({
        uptime_24h,
        uptime_30d,
        last_response_time_ms,
        recent_checks,
      });
      expect(summary(byName.a!)).toEqual(summaryA);
      expect(summary(byName.b!)).toEqual(NO_CHECKS);
      expect(summary(byName.c!)).toEqual(summaryC);
      const single = await statusesIn(ws, [a.id, b.id, c.id], now);
      expect(summary(single.get(a.id)!)).toEqual(summaryA);
      expect(summary(single.get(b.id)!)).toEqual(NO_CHECKS);
      expect(summary(single.get(c.id)!)).toEqual(summaryC);

      // Replays add nothing; the rollups outlive pruned results; 24 h later the old hours drop out.
      await store.recordResults(rs, () => null);
      await store.pruneResults(at(744 * H + 1), 1000);
      const later = await listIn(ws, { limit: 10 }, now);
      expect(summary(later.data.find((m) => m.id === a.id)!)).toEqual({
        ...summaryA,
        recent_checks: recent.slice(-5), // the results left: hour 744 on
      });
      const nextDay = await statusesIn(ws, [a.id], at(768 * H));
      expect(nextDay.get(a.id)).toMatchObject({
        uptime_24h: null,
        uptime_30d: 90,
        last_response_time_ms: 133,
      });

      // The list without its checks (internal: what the dashboard benchmark compares against).
      const bare = await listIn(ws, { limit: 10, checks: false }, now);
      expect(bare.data.map(summary)).toEqual([NO_CHECKS, NO_CHECKS, NO_CHECKS]);
    });

    it('the uptime and newest response time count results whose buckets are written and those still waiting alike', async () => {
      const H = 3600;
      const a = await add('a', 1);
      const now = at(744 * H + 1800);
      const check = (s: number, ok: boolean, ms: number, location = 'eu-west') =>
        result(ws, a.id, {
          id: `${location}:${s}`,
          scheduled_at: at(s),
          received_at: at(s),
          ok,
          location,
          response_time_ms: ms,
        });
      const fields = async () => {
        const m = (await statusesIn(ws, [a.id], now)).get(a.id)!;
        return [m.uptime_24h, m.uptime_30d, m.last_response_time_ms];
      };
      // Hour 700 (30 d only) and hour 743 (both windows), then a prune (an adapter may write its
      // waiting buckets then), then more results into the same buckets.
      await store.recordResults([check(700 * H, true, 11), check(743 * H, true, 12)], () => null);
      await store.recordResults([check(743 * H + 60, false, 13)], () => null);
      expect(await fields()).toEqual([50, 66.6667, 12]);
      expect(await store.pruneResults(at(0), 100)).toBe(0);
      await store.recordResults([check(743 * H + 120, true, 14, 'us-east')], () => null);
      await store.recordResults([check(700 * H + 60, false, 15)], () => null);
      expect(await fields()).toEqual([66.6667, 60, 14]);
      // A late success older than the newest one does not replace its response time.
      await store.recordResults([check(743 * H + 30, true, 16, 'us-east')], () => null);
      expect(await fields()).toEqual([75, 66.6667, 14]);
      await store.pruneResults(at(0), 100);
      expect(await fields()).toEqual([75, 66.6667, 14]);
      await store.recordResults([check(744 * H, true, 17)], () => null);
      expect(await fields()).toEqual([80, 71.4286, 17]);
      const page = await listIn(ws, { limit: 10 }, now);
      expect(page.data.map((m) => [m.uptime_24h, m.uptime_30d, m.last_response_time_ms])).toEqual([
        [80, 71.4286, 17],
      ]);
    });
  });
};
