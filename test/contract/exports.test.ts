/**
 * The export's pages (ResultStore.exportResultsPage, AlertStore.exportAlertsPage): every row of the
 * window once, in the pinned order (monitor by monitor in id order, then scheduled time; alerts by
 * creation), whether a result was folded before, between or after the pages (SQLite's flush), with the
 * filters, and never another workspace's rows.
 */
import { beforeEach, expect, it } from 'vitest';
import type {
  AlertExportFilter,
  ExportPosition,
} from '../../control-plane/src/domain/alerts/alert-export.js';
import {
  EXPORT_MONITORS_PER_PAGE,
  type ResultExportCursor,
  type ResultExportFilter,
} from '../../control-plane/src/domain/results/result-export.js';
import type { Alert, CheckResultRecord } from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, fixtures, result, T0 } from './fixtures.js';
import { contract } from './stores.js';

const FAR = at(10_000_000);

contract('Export pages', (c) => {
  let store: Store;
  let ws: ReturnType<typeof fixtures.workspace>;
  let other: ReturnType<typeof fixtures.workspace>;
  beforeEach(async () => {
    ({ store, ws } = c());
    other = fixtures.workspace();
    await store.createWorkspace(other);
  });
  const monitor = async (w = ws) => {
    const m = fixtures.monitor(w.workspace.id, w.defaultPolicy.id);
    expect(await store.insertMonitor(m, { maxMonitors: 1000 })).toBe('inserted');
    return m.id;
  };
  const insert = (rs: CheckResultRecord[]) => store.recordResults(rs, () => null);
  /** A result of another workspace received long ago: the next prune folds every waiting result (SQLite) and deletes it. */
  const foldMarker = async () => {
    await insert([result(other.workspace.id, 'marker', { received_at: T0 })]);
  };
  const fold = () => store.pruneResults(at(1), 100);
  const every = async (
    f: ResultExportFilter,
    limit: number,
    between: (page: number) => Promise<void> = async () => {},
  ) => {
    const out: CheckResultRecord[] = [];
    let cursor: ResultExportCursor | null = null;
    for (let n = 0; n < 1000; n++) {
      const p = await store.exportResultsPage(ws.workspace.id, f, cursor, limit);
      expect(p.data.length).toBeLessThanOrEqual(2 * limit);
      out.push(...p.data);
      if (p.next === null) return out;
      cursor = p.next;
      await between(n);
    }
    throw new Error('the pages never ended');
  };
  const order = (rs: CheckResultRecord[]) =>
    [...rs].sort((a, b) =>
      a.monitor_id !== b.monitor_id
        ? a.monitor_id < b.monitor_id
          ? -1
          : 1
        : a.scheduled_at.getTime() - b.scheduled_at.getTime() || (a.id < b.id ? -1 : 1),
    );
  const ids = (rs: CheckResultRecord[]) =>
    rs.map((r) => `${r.monitor_id}/${r.scheduled_at.getTime()}/${r.id}`);

  it('reads every result of the window once, monitor by monitor then by time, across pages and the flush', async () => {
    const [a, b, empty] = [await monitor(), await monitor(), await monitor()];
    const foreign = await monitor(other);
    const r = (m: string, s: number, location = 'eu-west', w = ws.workspace.id) =>
      result(w, m, { scheduled_at: at(s), received_at: FAR, location });
    // Two locations at one instant (ties by id), and results on both sides of the window.
    const first = [r(a, 60), r(a, 60, 'us-east'), r(a, 180), r(b, 0), r(b, 120), r(b, 240), r(a, -60)];
    const second = [r(a, 120), r(a, 240), r(a, 240, 'us-east'), r(b, 60), r(b, 180), r(a, 600)];
    await foldMarker();
    await insert(first);
    await insert([r(foreign, 60, 'eu-west', other.workspace.id), r(empty, 900)]);
    await fold();
    await foldMarker();
    await insert(second);
    const f = { from: T0, to: at(600) };
    const want = ids(
      order([...first, ...second].filter((x) => x.scheduled_at >= T0 && x.scheduled_at < at(600))),
    );
    expect(want).toHaveLength(11);
    // Folded, waiting, and the waiting ones folded between two pages.
    for (const limit of [1, 2, 3, 100])
      expect(ids(await every(f, limit, async (n) => void (n === 1 ? await fold() : undefined)))).toEqual(
        want,
      );
    expect(ids(await every(f, 2))).toEqual(want);
    // Only the monitors named, in id order whatever the order given.
    expect(ids(await every({ ...f, monitor_ids: [b, empty] }, 2))).toEqual(
      want.filter((x) => x.startsWith(b)),
    );
    // Another workspace's monitor, named or not, gives nothing.
    expect(await every({ ...f, monitor_ids: [foreign] }, 5)).toEqual([]);
    expect(
      (await store.exportResultsPage(other.workspace.id, { ...f, monitor_ids: [a, b] }, null, 50)).data,
    ).toEqual([]);
    // Whole records, as stored.
    const [one] = await every({ ...f, monitor_ids: [b], from: at(120), to: at(121) }, 5);
    expect(one).toEqual(first[4]);
  });

  it('filters by location and outcome, pages holding only what matches', async () => {
    const m = await monitor();
    const rs = Array.from({ length: 12 }, (_, i) =>
      result(ws.workspace.id, m, {
        scheduled_at: at(i * 60),
        received_at: FAR,
        ok: i % 3 !== 0,
        location: i % 2 ? 'us-east' : 'eu-west',
      }),
    );
    await insert(rs.slice(0, 6));
    await foldMarker();
    await fold();
    await insert(rs.slice(6));
    const f = { from: T0, to: at(3600) };
    const pick = (p: (r: CheckResultRecord) => boolean) => ids(rs.filter(p));
    expect(ids(await every({ ...f, location: 'us-east' }, 2))).toEqual(pick((r) => r.location === 'us-east'));
    expect(ids(await every({ ...f, ok: false }, 2))).toEqual(pick((r) => !r.ok));
    expect(ids(await every({ ...f, ok: true, location: 'eu-west' }, 3))).toEqual(
      pick((r) => r.ok && r.location === 'eu-west'),
    );
    expect(await every({ ...f, location: 'ap-south' }, 4)).toEqual([]);
  });

  it('goes past many monitors with no result a bounded number per page', async () => {
    const ms: string[] = [];
    for (let i = 0; i < EXPORT_MONITORS_PER_PAGE + 5; i++) ms.push(await monitor());
    ms.sort();
    const last = ms[ms.length - 1]!;
    await insert([result(ws.workspace.id, last, { scheduled_at: at(5), received_at: FAR })]);
    const f = { from: T0, to: at(60) };
    const p1 = await store.exportResultsPage(ws.workspace.id, f, null, 100);
    expect(p1.data).toEqual([]);
    expect(p1.next).not.toBeNull();
    expect((await every(f, 100)).map((r) => r.monitor_id)).toEqual([last]);
  });

  it('reads alerts created in the window oldest first, each once, with the filters of the alert list', async () => {
    const made: Alert[] = [];
    for (let i = 0; i < 9; i++) {
      const a = fixtures.alert(ws.workspace.id, {
        dedup_key: `k${i}`,
        created_at: at(i < 2 ? 100 : i * 60),
        source_id: i % 2 ? 'm-odd' : 'm-even',
      });
      made.push((await store.raiseAlert(a)).alert);
    }
    await store.raiseAlert(fixtures.alert(other.workspace.id, { created_at: at(120) }));
    await store.resolveAlert(
      ws.workspace.id,
      made[4]!.id,
      { type: 'user', user_id: 'u', api_key_id: null },
      at(1000),
    );
    const all = async (f: AlertExportFilter, limit: number, workspaceId = ws.workspace.id) => {
      const out: Alert[] = [];
      let cursor: ExportPosition | null = null;
      for (let n = 0; n < 100; n++) {
        const p = await store.exportAlertsPage(workspaceId, f, cursor, limit);
        out.push(...p.data);
        if (p.next === null) return out.map((a) => a.id);
        cursor = p.next;
      }
      throw new Error('the pages never ended');
    };
    const sorted = [...made].sort(
      (x, y) => x.created_at.getTime() - y.created_at.getTime() || (x.id < y.id ? -1 : 1),
    );
    const f = { from: at(100), to: at(480) };
    const want = sorted.filter((a) => a.created_at < at(480)).map((a) => a.id);
    expect(want).toHaveLength(8);
    for (const limit of [1, 2, 50]) expect(await all(f, limit)).toEqual(want);
    expect(await all({ ...f, status: ['resolved'] }, 2)).toEqual([made[4]!.id]);
    expect(await all({ ...f, source_id: 'm-odd', source_type: 'integration' }, 2)).toEqual(
      sorted.filter((a) => a.created_at < at(480) && a.source_id === 'm-odd').map((a) => a.id),
    );
    expect(await all({ ...f, source_type: 'heartbeat' }, 3)).toEqual([]);
    expect(await all({ from: at(120), to: at(121) }, 5, other.workspace.id)).toHaveLength(1);
    expect(await all({ from: at(0), to: at(100) }, 5)).toEqual([]);
  });
});
