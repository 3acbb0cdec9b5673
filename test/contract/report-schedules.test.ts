/**
 * ReportScheduleStore contract (domain/reports/report-schedule-store.ts): one schedule per workspace,
 * saved whole but for `last_sent_month` (only ever moves forward), the due list, and the claim of a
 * month by compare-and-set: of replicas racing for one month exactly one wins.
 */
import { describe, expect, it } from 'vitest';
import type { ReportSchedule } from '../../control-plane/src/domain/reports/report-schedule-store.js';
import { at, fixtures } from './fixtures.js';
import { contract } from './stores.js';

const schedule = (workspaceId: string, over: Partial<ReportSchedule> = {}): ReportSchedule => ({
  workspace_id: workspaceId,
  enabled: true,
  recipient_user_ids: ['5d0c6c52-2a43-4a43-9d54-0b6a4a1f2c01', '5d0c6c52-2a43-4a43-9d54-0b6a4a1f2c02'],
  scope: { type: 'group', id: '7e1c6c52-2a43-4a43-9d54-0b6a4a1f2c09' },
  slo: 99.95,
  last_sent_month: '2026-10',
  updated_at: at(0),
  updated_by: 'user-1',
  ...over,
});

contract('ReportScheduleStore', (ctx) => {
  describe('report schedules', () => {
    it('none at first; stored whole and read back as stored; other workspaces see none', async () => {
      const { store, ws } = ctx();
      expect(await store.getReportSchedule(ws.workspace.id)).toBeNull();
      const s = schedule(ws.workspace.id);
      await store.putReportSchedule(s);
      expect(await store.getReportSchedule(ws.workspace.id)).toEqual(s);
      const other = fixtures.workspace();
      await store.createWorkspace(other);
      expect(await store.getReportSchedule(other.workspace.id)).toBeNull();
      const whole = schedule(ws.workspace.id, { scope: { type: 'workspace', id: null }, slo: 99 });
      await store.putReportSchedule(whole);
      expect(await store.getReportSchedule(ws.workspace.id)).toEqual(whole);
    });

    it('a save replaces every field but keeps the later month claimed', async () => {
      const { store, ws } = ctx();
      const id = ws.workspace.id;
      await store.putReportSchedule(schedule(id, { last_sent_month: '2026-10' }));
      expect(await store.claimReportMonth(id, '2026-11')).toBe(true);
      // A save read before the claim (month 2026-10) does not make November due again.
      const edited = schedule(id, { recipient_user_ids: [], enabled: false, updated_at: at(5) });
      await store.putReportSchedule(edited);
      expect(await store.getReportSchedule(id)).toEqual({ ...edited, last_sent_month: '2026-11' });
      await store.putReportSchedule(schedule(id, { last_sent_month: '2027-01' }));
      expect((await store.getReportSchedule(id))?.last_sent_month).toBe('2027-01');
    });

    it('lists enabled schedules whose month is before the one asked, furthest behind first, at most the limit', async () => {
      const { store, ws } = ctx();
      const ids = [ws.workspace.id];
      for (let i = 0; i < 4; i++) {
        const w = fixtures.workspace();
        await store.createWorkspace(w);
        ids.push(w.workspace.id);
      }
      const [a, b, c, d, e] = ids as [string, string, string, string, string];
      await store.putReportSchedule(schedule(a, { last_sent_month: '2026-10' }));
      await store.putReportSchedule(schedule(b, { last_sent_month: '2026-11' })); // done already
      await store.putReportSchedule(schedule(c, { last_sent_month: '2026-09', enabled: false }));
      await store.putReportSchedule(schedule(d, { last_sent_month: '2025-12' }));
      await store.putReportSchedule(schedule(e, { last_sent_month: '2026-10' }));
      // The furthest behind first, then by workspace id.
      const due = (await store.listDueReportSchedules('2026-11', 10)).map((s) => s.workspace_id);
      expect(due).toEqual([d, ...[a, e].sort()]);
      expect((await store.listDueReportSchedules('2026-11', 2)).map((s) => s.workspace_id)).toEqual(
        due.slice(0, 2),
      );
      expect(await store.listDueReportSchedules('2025-12', 10)).toEqual([]);
      const one = await store.listDueReportSchedules('2026-11', 10);
      expect(one.find((s) => s.workspace_id === a)).toEqual(schedule(a, { last_sent_month: '2026-10' }));
    });

    it('claims a month once: of replicas racing for it exactly one wins, and never a disabled or earlier one', async () => {
      const { store, ws } = ctx();
      const id = ws.workspace.id;
      await store.putReportSchedule(schedule(id, { last_sent_month: '2026-10' }));
      const wins = await Promise.all(Array.from({ length: 8 }, () => store.claimReportMonth(id, '2026-11')));
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect(await store.claimReportMonth(id, '2026-11')).toBe(false);
      expect(await store.claimReportMonth(id, '2026-10')).toBe(false);
      expect((await store.getReportSchedule(id))?.last_sent_month).toBe('2026-11');
      expect(await store.listDueReportSchedules('2026-11', 10)).toEqual([]);
      // Disabled: nothing to claim; none in another workspace.
      await store.putReportSchedule(schedule(id, { enabled: false }));
      expect(await store.claimReportMonth(id, '2026-12')).toBe(false);
      expect(await store.claimReportMonth(fixtures.workspace().workspace.id, '2026-12')).toBe(false);
      expect((await store.getReportSchedule(id))?.last_sent_month).toBe('2026-11');
    });
  });
});
