import { describe, expect, it } from 'vitest';
import { nextReport, saveReportSchedule } from './report-schedule.js';
import type { ReportSchedule } from './report-schedule-store.js';

/** The store's rule: a save keeps the later month (as both adapters do). */
const memory = (start: ReportSchedule | null) => {
  let stored = start;
  return {
    get: () => stored,
    store: {
      async getReportSchedule() {
        return stored;
      },
      async putReportSchedule(s: ReportSchedule) {
        stored = {
          ...s,
          last_sent_month:
            stored && stored.last_sent_month > s.last_sent_month ? stored.last_sent_month : s.last_sent_month,
        };
      },
    },
  };
};

const input = (enabled: boolean) => ({
  enabled,
  recipient_user_ids: ['u1'],
  scope: { type: 'workspace' as const, id: null },
  slo: 99.9,
});

describe('saving the monthly report schedule', () => {
  it('a new schedule mails its own month first, on the 1st of the next', async () => {
    const m = memory(null);
    const s = await saveReportSchedule(m.store, 'w1', 'u1', input(true), new Date('2026-11-20T12:00:00Z'));
    expect(s.last_sent_month).toBe('2026-10');
    expect(nextReport(s)).toEqual({ month: '2026-11', at: new Date('2026-12-01T06:00:00Z') });
  });

  it('turned on again after months off: no report of a month it was off for', async () => {
    const m = memory(null);
    await saveReportSchedule(m.store, 'w1', 'u1', input(true), new Date('2026-08-10T00:00:00Z'));
    await saveReportSchedule(m.store, 'w1', 'u1', input(false), new Date('2026-08-11T00:00:00Z'));
    expect(nextReport(m.get())).toBeNull();
    const again = await saveReportSchedule(
      m.store,
      'w1',
      'u1',
      input(true),
      new Date('2026-12-02T00:00:00Z'),
    );
    expect(again.last_sent_month).toBe('2026-11');
    expect(nextReport(again)?.month).toBe('2026-12');
  });

  it('an edit while on keeps the month reached: a report due is still mailed', async () => {
    const m = memory(null);
    await saveReportSchedule(m.store, 'w1', 'u1', input(true), new Date('2026-11-20T00:00:00Z'));
    // On Dec 1st at 05:00, before the job: November is still due after the edit.
    const edited = await saveReportSchedule(
      m.store,
      'w1',
      'u2',
      { ...input(true), recipient_user_ids: ['u1', 'u2'] },
      new Date('2026-12-01T05:00:00Z'),
    );
    expect(edited.last_sent_month).toBe('2026-10');
    expect(edited.updated_by).toBe('u2');
    expect(nextReport(edited)?.month).toBe('2026-11');
  });
});
