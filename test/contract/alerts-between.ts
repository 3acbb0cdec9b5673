/**
 * AlertStore.listAlertsBetween contract (run inside the AlertStore suite, alerts.test.ts): the alerts of some sources open at any moment of [from, to)
 * (created before `to`, not resolved before `from`), newest first, at most `limit`, one workspace only,
 * across more sources than one read names.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { SOURCES_PER_READ } from '../../control-plane/src/domain/alerts/alert-store.js';
import type { Alert } from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, fixtures } from './fixtures.js';
import type { ContractContext } from './stores.js';

export const alertsBetweenCases = (c: () => ContractContext) =>
  describe('listAlertsBetween', () => {
    let store: Store;
    let ws: ReturnType<typeof fixtures.workspace>;
    beforeEach(() => {
      ({ store, ws } = c());
    });
    const system = { type: 'system' } as const;

    /** An alert of monitor `source` open from second `open` to second `close` (null: still open). */
    const alert = async (source: string, open: number, close: number | null, over: Partial<Alert> = {}) => {
      const a = fixtures.alert(ws.workspace.id, {
        source_type: 'monitor',
        source_id: source,
        cause: 'down',
        dedup_key: randomUUID(),
        created_at: at(open),
        updated_at: at(open),
        ...over,
      });
      await store.raiseAlert(a);
      if (close !== null) await store.resolveAlert(a.workspace_id, a.id, system, at(close));
      return a.id;
    };

    it('lists the alerts open at any moment of the period, newest first, of the named sources only', async () => {
      const m = randomUUID();
      const n = randomUUID();
      const before = await alert(m, 0, 50); // resolved before the period
      const acrossStart = await alert(m, 60, 150); // open at its start
      const atStart = await alert(m, 80, 100); // resolved exactly at `from`: open at that moment
      const inside = await alert(n, 120, 130);
      const stillOpen = await alert(n, 140, null);
      const atEnd = await alert(m, 200, null); // created at `to`: after the period
      await alert(randomUUID(), 120, null); // another monitor
      await alert(m, 120, null, { source_type: 'heartbeat' }); // another type with the same id
      const other = fixtures.workspace();
      await store.createWorkspace(other);
      await store.raiseAlert(
        fixtures.alert(other.workspace.id, { source_type: 'monitor', source_id: m, created_at: at(120) }),
      );
      const sources = [
        { type: 'monitor' as const, id: m },
        { type: 'monitor' as const, id: n },
      ];
      const got = await store.listAlertsBetween(ws.workspace.id, sources, at(100), at(200), 100);
      expect(got.map((a) => a.id)).toEqual([stillOpen, inside, atStart, acrossStart]);
      expect(got[3]?.resolved_at).toEqual(at(150));
      expect(got.map((a) => a.id)).not.toContain(before);
      expect(got.map((a) => a.id)).not.toContain(atEnd);
      // The limit keeps the newest.
      expect(
        (await store.listAlertsBetween(ws.workspace.id, sources, at(100), at(200), 2)).map((a) => a.id),
      ).toEqual([stillOpen, inside]);
      expect(await store.listAlertsBetween(ws.workspace.id, [], at(100), at(200), 10)).toEqual([]);
      expect(await store.listAlertsBetween(other.workspace.id, sources, at(100), at(200), 10)).toHaveLength(
        1,
      );
    });

    it('reads more sources than one read names, merged newest first', async () => {
      const ids = Array.from({ length: SOURCES_PER_READ + 5 }, () => randomUUID());
      const first = await alert(ids[0]!, 10, null);
      const last = await alert(ids[ids.length - 1]!, 20, 30);
      const got = await store.listAlertsBetween(
        ws.workspace.id,
        ids.map((id) => ({ type: 'monitor' as const, id })),
        at(0),
        at(100),
        10,
      );
      expect(got.map((a) => a.id)).toEqual([last, first]);
    });
  });
