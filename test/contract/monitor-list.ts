/**
 * Store contract, the monitor list's orders, filters and counts (`MonitorStatusStore` of
 * domain/monitors/monitor-status.ts): status order across pages, keyset cursors bound to their sort,
 * the maintenance cover, counts that agree with the list, and the record's copy of the verdict kept in
 * step by every writer. Run by monitor-status.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_COVER } from '../../control-plane/src/domain/maintenance/cover.js';
import {
  type MonitorStatus,
  type MonitorStatusQuery,
  STATUS_ORDER,
} from '../../control-plane/src/domain/monitors/monitor-status.js';
import type {
  MaintenanceCover,
  Monitor,
  MonitorLocationState,
} from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, fixtures, result, T0 } from './fixtures.js';
import { putState } from './stores.js';

const star = (monitorId: string, status: MonitorLocationState['status'], s: number, version = 1) => ({
  monitor_id: monitorId,
  location: '*',
  status,
  consecutive_failures: 0,
  consecutive_successes: 0,
  consecutive_slow: 0,
  last_result_at: at(s),
  last_scheduled_at: at(s),
  version,
});

const cover = (over: Partial<MaintenanceCover>): MaintenanceCover => ({ ...NO_COVER, ...over });

export const monitorListContract = (name: string, open: () => Promise<Store>) => {
  describe(`Store contract, monitor list: ${name}`, () => {
    let store: Store;
    let ws: string;
    let policy: string;
    const add = async (display: string, over: Partial<Monitor> = {}) => {
      const m = fixtures.monitor(ws, policy, { display_name: display, tags: [], group_id: null, ...over });
      expect(await store.insertMonitor(m, { maxMonitors: 10_000 })).toBe('inserted');
      return m;
    };
    /** Every page of the list, each of `limit`, as [name, status]. */
    const walk = async (q: Omit<MonitorStatusQuery, 'limit'>, c: MaintenanceCover = NO_COVER, limit = 2) => {
      const out: [string, MonitorStatus][] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 100; i++) {
        const page = await store.listMonitorsWithStatus(
          ws,
          { ...q, limit, cursor, checks: false },
          at(500),
          c,
        );
        out.push(...page.data.map((m): [string, MonitorStatus] => [m.display_name, m.status]));
        if (!page.next_cursor) break;
        cursor = page.next_cursor;
      }
      return out;
    };

    beforeEach(async () => {
      store = await open();
      await store.init();
      const w = fixtures.workspace();
      ws = w.workspace.id;
      policy = w.defaultPolicy.id;
      await store.createWorkspace(w);
    });
    afterEach(async () => {
      await store.close();
    });

    /** down ×2, pending ×2 (one never checked), paused ×1, up ×2; names out of creation order. */
    const seed = async () => {
      const m = {
        upB: await add('b-up'),
        downZ: await add('Z-down'),
        pendingNew: await add('c-new'),
        upA: await add('A-up'),
        downA: await add('a-down'),
        pendingUnknown: await add('d-unknown'),
        paused: await add('e-paused', { paused: true }),
      };
      await putState(store, star(m.upB.id, 'up', 10), 0);
      await putState(store, star(m.upA.id, 'up', 20), 0);
      await putState(store, star(m.downZ.id, 'down', 30), 0);
      await putState(store, star(m.downA.id, 'down', 40), 0);
      await putState(store, star(m.pendingUnknown.id, 'unknown', 50), 0);
      await putState(store, star(m.paused.id, 'down', 60), 0);
      return m;
    };

    it('sorts by status (down, pending, maintenance, paused, up), then by name case-insensitively, across pages', async () => {
      const m = await seed();
      const expected: [string, MonitorStatus][] = [
        ['a-down', 'down'],
        ['Z-down', 'down'],
        ['c-new', 'pending'],
        ['d-unknown', 'pending'],
        ['e-paused', 'paused'],
        ['A-up', 'up'],
        ['b-up', 'up'],
      ];
      for (const limit of [1, 2, 3, 7, 50]) expect(await walk({}, NO_COVER, limit)).toEqual(expected);
      // A window over one up monitor: it leaves its bucket for maintenance; a paused one stays paused.
      expect(await walk({}, cover({ monitorIds: [m.upB.id, m.paused.id] }))).toEqual([
        ['a-down', 'down'],
        ['Z-down', 'down'],
        ['c-new', 'pending'],
        ['d-unknown', 'pending'],
        ['b-up', 'maintenance'],
        ['e-paused', 'paused'],
        ['A-up', 'up'],
      ]);
      // The whole workspace: everything not paused is in maintenance, by name.
      expect(await walk({}, cover({ workspace: true }), 3)).toEqual([
        ['a-down', 'maintenance'],
        ['A-up', 'maintenance'],
        ['b-up', 'maintenance'],
        ['c-new', 'maintenance'],
        ['d-unknown', 'maintenance'],
        ['Z-down', 'maintenance'],
        ['e-paused', 'paused'],
      ]);
    });

    it('the list, the counts and a single monitor agree on every status, with or without a cover', async () => {
      const m = await seed();
      for (const c of [NO_COVER, cover({ monitorIds: [m.downA.id, m.upA.id] }), cover({ workspace: true })]) {
        const listed = await walk({}, c, 3);
        const single = await store.getMonitorStatuses(
          ws,
          Object.values(m).map((x) => x.id),
          at(500),
          c,
        );
        const byName = new Map(Object.values(m).map((x) => [x.display_name, single.get(x.id)?.status]));
        expect(listed.map(([n]) => [n, byName.get(n)])).toEqual(listed);
        const counts = await store.countMonitorsByStatus(ws, {}, c);
        const tally = { up: 0, down: 0, pending: 0, paused: 0, maintenance: 0, total: listed.length };
        for (const [, s] of listed) tally[s]++;
        expect(counts).toEqual(tally);
      }
      expect(await store.countMonitorsByStatus(ws, { status: ['down', 'up'] }, NO_COVER)).toEqual({
        up: 2,
        down: 2,
        pending: 0,
        paused: 0,
        maintenance: 0,
        total: 4,
      });
      expect(await store.countMonitorsByStatus(randomUUID(), {}, NO_COVER)).toMatchObject({ total: 0 });
    });

    it('filters by status, search, type and region in every order, and pages the filtered list', async () => {
      await seed();
      await add('f-dns', { monitor_type: 'dns', url: 'example.test', check_locations: ['us-east'] });
      expect(await walk({ status: ['up', 'down'] })).toEqual([
        ['a-down', 'down'],
        ['Z-down', 'down'],
        ['A-up', 'up'],
        ['b-up', 'up'],
      ]);
      expect(await walk({ sort: 'name', status: ['pending', 'paused'] })).toEqual([
        ['c-new', 'pending'],
        ['d-unknown', 'pending'],
        ['e-paused', 'paused'],
        ['f-dns', 'pending'],
      ]);
      expect(await walk({ search: 'DOWN' })).toEqual([
        ['a-down', 'down'],
        ['Z-down', 'down'],
      ]);
      expect(await walk({ monitor_type: 'dns' })).toEqual([['f-dns', 'pending']]);
      expect((await walk({ region: 'eu-west' })).map(([n]) => n)).not.toContain('f-dns');
      expect(await walk({ region: 'us-east', sort: 'last_change' })).toContainEqual(['f-dns', 'pending']);
      expect(await store.countMonitorsByStatus(ws, { search: 'up' }, NO_COVER)).toMatchObject({
        up: 2,
        total: 2,
      });
    });

    it('filters by tag and group (none: ungrouped); a cover by group or tag moves exactly those to maintenance', async () => {
      const m = await seed();
      const g = randomUUID();
      const retag = async (x: Monitor, over: Partial<Monitor>) => {
        const now = await store.getMonitor(ws, x.id);
        expect(await store.updateMonitor({ ...now!, ...over, version: now!.version + 1 }, now!.version)).toBe(
          'updated',
        );
      };
      await retag(m.downA, { group_id: g, tags: ['env:prod'] });
      await retag(m.upB, { group_id: g, tags: ['team'] });
      await retag(m.paused, { group_id: g });
      await retag(m.upA, { tags: ['env:prod'] });
      expect(await walk({ group_id: g })).toEqual([
        ['a-down', 'down'],
        ['e-paused', 'paused'],
        ['b-up', 'up'],
      ]);
      expect((await walk({ group_id: 'none' })).map(([n]) => n)).toEqual([
        'Z-down',
        'c-new',
        'd-unknown',
        'A-up',
      ]);
      expect(await walk({ tag: 'env:prod', sort: 'name' })).toEqual([
        ['a-down', 'down'],
        ['A-up', 'up'],
      ]);
      expect(await store.countMonitorsByStatus(ws, { group_id: g }, NO_COVER)).toMatchObject({
        down: 1,
        paused: 1,
        up: 1,
        total: 3,
      });
      for (const c of [cover({ groupIds: [g] }), cover({ tags: ['env:prod', 'team'] })]) {
        const listed = await walk({}, c, 3);
        const moved = c.groupIds.length ? ['a-down', 'b-up'] : ['a-down', 'A-up', 'b-up'];
        expect(listed.filter(([, s]) => s === 'maintenance').map(([n]) => n)).toEqual(moved);
        expect(listed.find(([n]) => n === 'e-paused')).toEqual(['e-paused', 'paused']);
        const counts = await store.countMonitorsByStatus(ws, {}, c);
        expect(counts.maintenance).toBe(moved.length);
        expect(counts.total).toBe(7);
        const single = await store.getMonitorStatuses(ws, [m.downA.id, m.upB.id, m.paused.id], at(500), c);
        expect(single.get(m.downA.id)?.status).toBe('maintenance');
        expect(single.get(m.paused.id)?.status).toBe('paused');
        // Within the group, the cover and the filter together.
        expect(await walk({ group_id: g, status: ['maintenance'] }, c)).toEqual([
          ['a-down', 'maintenance'],
          ['b-up', 'maintenance'],
        ]);
      }
    });

    it('sorts by name and by last change (newest first), each across pages', async () => {
      const m = await seed();
      expect((await walk({ sort: 'name' })).map(([n]) => n)).toEqual([
        'a-down',
        'A-up',
        'b-up',
        'c-new',
        'd-unknown',
        'e-paused',
        'Z-down',
      ]);
      // Changes: the '*' rows at 10..60 s (an unknown row leaves a pending monitor pending: no change);
      // the two pending ones last changed at their creation.
      const byChange = (await walk({ sort: 'last_change' }, NO_COVER, 3)).map(([n]) => n);
      expect(byChange.slice(0, 5)).toEqual(['e-paused', 'a-down', 'Z-down', 'A-up', 'b-up']);
      expect(byChange.slice(5).sort()).toEqual(['c-new', 'd-unknown']);
      // A later flip moves a monitor to the front.
      await putState(store, star(m.upB.id, 'down', 90, 2), 1);
      expect((await walk({ sort: 'last_change' })).slice(0, 1)).toEqual([['b-up', 'down']]);
    });

    it('sorts by response time, slowest first, those without one last, across pages', async () => {
      const m = await seed();
      const rollup = (id: string, ms: number, hour: number) =>
        store.recordResults(
          [
            result(ws, id, {
              id: `${id}-${hour}`,
              scheduled_at: new Date(T0.getTime() + hour * 3_600_000),
              received_at: new Date(T0.getTime() + hour * 3_600_000),
              ok: true,
              response_time_ms: ms,
            }),
          ],
          () => null,
        );
      await rollup(m.upA.id, 300, 0);
      await rollup(m.upB.id, 900, 0);
      await rollup(m.downA.id, 100, 0);
      // Folding writes the buckets (SQLite folds in the background; MongoDB buckets on write).
      await (store as { flushResults?: () => Promise<void> }).flushResults?.();
      const order = (await walk({ sort: 'response_time' })).map(([n]) => n);
      expect(order.slice(0, 3)).toEqual(['b-up', 'A-up', 'a-down']);
      expect(order.slice(3).sort()).toEqual(['Z-down', 'c-new', 'd-unknown', 'e-paused'].sort());
    });

    it('a cursor works only with the sort that made it; anything else is a 422 naming cursor', async () => {
      await seed();
      const page = await store.listMonitorsWithStatus(ws, { limit: 2, checks: false }, at(500), NO_COVER);
      expect(page.next_cursor).toBeTruthy();
      for (const [sort, cursor] of [
        ['name', page.next_cursor],
        ['status', 'not-a-cursor'],
        ['last_change', Buffer.from('{"s":"last_change","t":"x","id":"a"}').toString('base64url')],
      ] as const)
        await expect(
          store.listMonitorsWithStatus(ws, { limit: 2, sort, cursor: cursor! }, at(500), NO_COVER),
        ).rejects.toMatchObject({ code: 'validation_failed', details: [{ field: 'cursor' }] });
    });

    it('the record keeps the verdict: a flip, a manual resolve, a full update and a pause keep it in step', async () => {
      const m = await add('one');
      const one = async () =>
        (
          await store.listMonitorsWithStatus(
            ws,
            { limit: 5, checks: false, sort: 'last_change' },
            at(500),
            NO_COVER,
          )
        ).data[0]!;
      await putState(store, star(m.id, 'down', 30), 0);
      expect((await one()).status).toBe('down');
      // A full update of the record (a rename) leaves the verdict alone and moves the name order.
      const renamed = { ...m, display_name: 'Zed', version: m.version + 1, updated_at: at(40) };
      expect(await store.updateMonitor(renamed, m.version)).toBe('updated');
      expect(await walk({ status: ['down'] })).toEqual([['Zed', 'down']]);
      // A manual resolve of its down alert sends it back to pending (the next check decides).
      const alert = fixtures.alert(ws, {
        source_type: 'monitor',
        source_id: m.id,
        cause: 'down',
        dedup_key: '',
      });
      await store.raiseAlert(alert);
      await store.resolveAlert(ws, alert.id, { type: 'system' }, at(70));
      expect(await walk({})).toEqual([['Zed', 'pending']]);
      expect(await store.countMonitorsByStatus(ws, {}, NO_COVER)).toMatchObject({ pending: 1, down: 0 });
      // A pause is a change of status.
      const paused = { ...renamed, paused: true, version: renamed.version + 1, updated_at: at(80) };
      expect(await store.updateMonitor(paused, renamed.version)).toBe('updated');
      const later = await add('later', { created_at: at(75), updated_at: at(75) });
      expect((await one()).display_name).toBe('Zed');
      expect(STATUS_ORDER).toContain((await one()).status);
      // The counts follow a pause, an insert and a delete (with a filter and without one).
      for (const f of [{}, { search: 'e' }])
        expect(await store.countMonitorsByStatus(ws, f, NO_COVER)).toEqual({
          up: 0,
          down: 0,
          pending: 1,
          paused: 1,
          maintenance: 0,
          total: 2,
        });
      expect(await store.deleteMonitor(ws, later.id)).toBe(true);
      expect(await store.countMonitorsByStatus(ws, {}, NO_COVER)).toMatchObject({ pending: 0, total: 1 });
    });
  });
};
