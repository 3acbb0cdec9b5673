/**
 * AlertHoldStore and DependencyGraphLookup contract (domain/alerts/alert-hold-store.ts,
 * domain/monitors/depends-on.ts): the graph by id within a workspace, held alerts by compare-and-set,
 * the source timeline written in the same step, and the held-back count on the dependency's open alert.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AlertHold, SourceEvent } from '../../control-plane/src/domain/alerts/alert-hold-store.js';
import { at, fixtures } from './fixtures.js';
import { contract } from './stores.js';

const hold = (ws: string, over: Partial<AlertHold> = {}): AlertHold => ({
  workspace_id: ws,
  source_type: 'monitor',
  source_id: randomUUID(),
  state: 'held',
  suppressed_by: null,
  since: at(0),
  hold_until: null,
  due_at: at(0),
  version: 1,
  ...over,
});
const event = (h: AlertHold, over: Partial<SourceEvent> = {}): SourceEvent => ({
  id: randomUUID(),
  workspace_id: h.workspace_id,
  source_type: h.source_type,
  source_id: h.source_id,
  at: at(0),
  kind: 'held',
  dependency_id: null,
  message: 'Went down.',
  ...over,
});

contract('AlertHoldStore', (ctx) => {
  describe('dependency graph', () => {
    it('finds monitors and heartbeats of the workspace by id with their depends_on; others are left out', async () => {
      const { store, ws } = ctx();
      const w = ws.workspace.id;
      const p = ws.defaultPolicy.id;
      const a = fixtures.monitor(w, p, { display_name: 'A' });
      const h = fixtures.heartbeat(w, p, { display_name: 'H', depends_on: [a.id] });
      const b = fixtures.monitor(w, p, { display_name: 'B', depends_on: [a.id, h.id] });
      const other = fixtures.workspace();
      await store.createWorkspace(other);
      const foreign = fixtures.monitor(other.workspace.id, other.defaultPolicy.id);
      await store.insertMonitor(a, { maxMonitors: 10 });
      await store.insertMonitor(b, { maxMonitors: 10 });
      await store.insertMonitor(foreign, { maxMonitors: 10 });
      await store.insertHeartbeat(h);
      const nodes = await store.getDependencyNodes(w, [a.id, b.id, h.id, foreign.id, randomUUID()]);
      expect(nodes.sort((x, y) => x.name.localeCompare(y.name))).toEqual([
        { id: a.id, kind: 'monitor', name: 'A', depends_on: [] },
        { id: b.id, kind: 'monitor', name: 'B', depends_on: [a.id, h.id] },
        { id: h.id, kind: 'heartbeat', name: 'H', depends_on: [a.id] },
      ]);
      expect((await store.getMonitor(w, b.id))?.depends_on).toEqual([a.id, h.id]);
      // A group: its edges are its members, monitors and heartbeats.
      const group = {
        id: randomUUID(),
        workspace_id: w,
        name: 'Rack 4',
        created_at: at(0),
        updated_at: at(0),
      };
      expect(await store.insertGroup(group, { maxGroups: 10 })).toBe('inserted');
      const inRack = fixtures.monitor(w, p, { display_name: 'R', group_id: group.id });
      await store.insertMonitor(inRack, { maxMonitors: 10 });
      const hbInRack = fixtures.heartbeat(w, p, { display_name: 'RH', group_id: group.id });
      await store.insertHeartbeat(hbInRack);
      const [g] = await store.getDependencyNodes(w, [group.id]);
      expect(g).toMatchObject({ id: group.id, kind: 'group', name: 'Rack 4' });
      expect(g!.depends_on.sort()).toEqual([inRack.id, hbInRack.id].sort());
      expect(await store.getDependencyNodes(other.workspace.id, [group.id])).toEqual([]);
      expect((await store.getHeartbeat(w, h.id))?.depends_on).toEqual([a.id]);
    });
  });

  describe('held alerts', () => {
    it('one hold per source: a second insert changes nothing; the first writes its event with it', async () => {
      const { store, ws } = ctx();
      const h = hold(ws.workspace.id);
      const other = hold(ws.workspace.id);
      expect(await store.insertAlertHolds([{ hold: h, event: event(h) }, { hold: other }])).toBe(2);
      expect(
        await store.insertAlertHolds([
          { hold: { ...h, state: 'suppressed', since: at(5) }, event: event(h) },
        ]),
      ).toBe(0);
      expect(await store.insertAlertHolds([])).toBe(0);
      expect(await store.getAlertHolds(ws.workspace.id, [h.source_id])).toEqual([h]);
      expect(await store.listSourceEvents(ws.workspace.id, 'monitor', h.source_id, 10)).toHaveLength(1);
      expect(await store.getAlertHolds(randomUUID(), [h.source_id])).toEqual([]);
    });

    it('due holds soonest first, only those due', async () => {
      const { store, ws } = ctx();
      const late = hold(ws.workspace.id, { due_at: at(20) });
      const soon = hold(ws.workspace.id, { due_at: at(10) });
      const later = hold(ws.workspace.id, { due_at: at(30) });
      await store.insertAlertHolds([late, soon, later].map((h) => ({ hold: h })));
      const due = await store.listDueAlertHolds(at(20), 10);
      expect(due.map((h) => h.source_id)).toEqual([soon.source_id, late.source_id]);
      expect(await store.listDueAlertHolds(at(30), 1)).toHaveLength(1);
    });

    it('updates by compare-and-set on version, with its event and the count on the dependency’s open alert', async () => {
      const { store, ws } = ctx();
      const w = ws.workspace.id;
      const parent = randomUUID();
      const open = fixtures.alert(w, {
        source_type: 'monitor',
        source_id: parent,
        cause: 'down',
        dedup_key: '',
      });
      await store.raiseAlert(open);
      const h = hold(w);
      await store.insertAlertHolds([{ hold: h }]);
      const next: AlertHold = {
        ...h,
        state: 'suppressed',
        suppressed_by: parent,
        due_at: at(30),
        version: 2,
      };
      const countOn = { source_type: 'monitor' as const, source_id: parent };
      const e = event(h, { kind: 'suppressed', dependency_id: parent, at: at(1) });
      expect(await store.updateAlertHold(next, 1, { event: e, countOn })).toBe(true);
      // A stale version changes nothing: no event, no count.
      expect(await store.updateAlertHold(next, 1, { event: event(h), countOn })).toBe(false);
      expect(await store.getAlertHolds(w, [h.source_id])).toEqual([next]);
      expect((await store.getAlert(w, open.id))?.held_back).toBe(1);
      const other = hold(w);
      await store.insertAlertHolds([{ hold: other }]);
      await store.updateAlertHold({ ...other, state: 'suppressed', suppressed_by: parent, version: 2 }, 1, {
        countOn,
      });
      expect((await store.getAlert(w, open.id))?.held_back).toBe(2);
      expect(await store.listSourceEvents(w, 'monitor', h.source_id, 10)).toEqual([e]);
    });

    it('deletes by compare-and-set, with its event; the timeline is newest first and pruned by age', async () => {
      const { store, ws } = ctx();
      const w = ws.workspace.id;
      const h = hold(w);
      await store.insertAlertHolds([{ hold: h, event: event(h, { at: at(0) }) }]);
      expect(await store.deleteAlertHold(h, 2, event(h))).toBe(false);
      const cleared = event(h, { kind: 'cleared', at: at(60), message: 'Recovered.' });
      expect(await store.deleteAlertHold(h, 1, cleared)).toBe(true);
      expect(await store.getAlertHolds(w, [h.source_id])).toEqual([]);
      const timeline = await store.listSourceEvents(w, 'monitor', h.source_id, 10);
      expect(timeline.map((e) => e.kind)).toEqual(['cleared', 'held']);
      expect(await store.listSourceEvents(w, 'monitor', h.source_id, 1)).toEqual([cleared]);
      expect(await store.pruneSourceEvents(at(30), 10)).toBe(1);
      expect(await store.listSourceEvents(w, 'monitor', h.source_id, 10)).toEqual([cleared]);
    });
  });
});
