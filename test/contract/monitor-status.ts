/**
 * Store contract, monitor status part (the `MonitorStatusStore` port of domain/monitor-status.ts):
 * status derived from the paused flag, active maintenance windows and the '*' state, with the
 * precedence the port states; filtering and paging in the store. Run by monitor-status.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MonitorStatus } from '../../control-plane/src/domain/monitor-status.js';
import type {
  MaintenanceWindow,
  Monitor,
  MonitorLocationState,
} from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

const monitor = (
  ws: string,
  policy: string,
  name: string,
  created: number,
  over: Partial<Monitor> = {},
): Monitor => ({
  id: randomUUID(),
  workspace_id: ws,
  display_name: name,
  monitor_type: 'tcp',
  url: `${name}.example.test`,
  http_method: null,
  check_interval_seconds: 60,
  timeout_seconds: 10,
  expected_status_code: 200,
  required_keyword: null,
  auth: null,
  port: 443,
  request_headers: {},
  request_body: null,
  follow_redirects: true,
  ssl_cert_monitoring: false,
  ssl_cert_expiry_alert_days: 14,
  domain_expiry_alert_days: 30,
  response_time_threshold_ms: null,
  failure_threshold: 3,
  escalation_policy_id: policy,
  check_locations: ['eu-west', 'us-east'],
  dns_record_type: null,
  dns_expected_values: [],
  dns_resolver: null,
  paused: false,
  created_at: at(created),
  updated_at: at(created),
  version: 1,
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
    const statuses = async (q: { status?: MonitorStatus[]; limit?: number } = {}, now = at(100)) =>
      Object.fromEntries(
        (await store.listMonitorsWithStatus(ws, { limit: q.limit ?? 100, status: q.status }, now)).data.map(
          (m) => [m.display_name, m.status],
        ),
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
      await store.putMonitorState(state(up.id, '*', 'up', at(50)), 0);
      await store.putMonitorState(state(up.id, 'eu-west', 'up', at(40)), 0);
      await store.putMonitorState(state(up.id, 'us-east', 'up', at(45)), 0);
      await store.putMonitorState(state(down.id, '*', 'down', at(60)), 0);
      await store.putMonitorState(state(down.id, 'eu-west', 'down', at(55)), 0);
      await store.putMonitorState(state(unknown.id, '*', 'unknown', at(60)), 0);
      await store.putMonitorState(state(paused.id, '*', 'down', at(60)), 0);
      await store.putMonitorState(state(maint.id, '*', 'down', at(60)), 0);
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
      const page = await store.listMonitorsWithStatus(ws, { limit: 100 }, at(100));
      const byName = Object.fromEntries(page.data.map((m) => [m.display_name, m]));
      expect(byName.up?.last_checked_at).toEqual(at(45));
      expect(byName.down?.last_checked_at).toEqual(at(55));
      expect(byName.fresh?.last_checked_at).toBeNull();
      // The records are the monitors themselves, plus status.
      const { status: _s, last_checked_at: _l, ...record } = byName.up!;
      expect(record).toEqual(up);
      expect(await store.getMonitorStatuses(ws, [up.id, fresh.id, maint.id, randomUUID()], at(100))).toEqual(
        new Map([
          [up.id, { status: 'up', last_checked_at: at(45) }],
          [fresh.id, { status: 'pending', last_checked_at: null }],
          [maint.id, { status: 'maintenance', last_checked_at: null }],
        ]),
      );
      expect(await store.getMonitorStatuses(randomUUID(), [up.id], at(100))).toEqual(new Map());
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

    it('filters on one or several statuses and pages through the filtered list, newest first', async () => {
      const names: string[] = [];
      for (let i = 0; i < 7; i++) {
        const m = await add(`m${i}`, i + 1);
        names.push(m.display_name);
        if (i % 2 === 0) await store.putMonitorState(state(m.id, '*', 'down', at(50)), 0);
      }
      expect(Object.keys(await statuses({ status: ['down'] }))).toEqual(['m6', 'm4', 'm2', 'm0']);
      expect(Object.keys(await statuses({ status: ['pending', 'up'] }))).toEqual(['m5', 'm3', 'm1']);
      expect(await statuses({ status: ['maintenance'] })).toEqual({});
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await store.listMonitorsWithStatus(ws, { limit: 3, cursor, status: ['down'] }, at(100));
        seen.push(...page.data.map((m) => m.display_name));
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(['m6', 'm4', 'm2', 'm0']);
      // The list's other filters still apply.
      expect(
        (
          await store.listMonitorsWithStatus(ws, { limit: 10, search: 'M4', status: ['down'] }, at(100))
        ).data.map((m) => m.display_name),
      ).toEqual(['m4']);
    });
  });
};
