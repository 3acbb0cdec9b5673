import { describe, expect, it } from 'vitest';
import type { MaintenanceWindow } from '../types.js';
import {
  checkFigures,
  countsAsIncident,
  errorBudget,
  incidentDowntime,
  meanSeconds,
  meanTimes,
  unionDowntime,
} from './figures.js';
import { clip, intersect, subtract, total, union } from './intervals.js';
import { maintenanceOf, windowOccurrences } from './maintenance-periods.js';

const S = 1000;
const d = (s: number) => new Date(s * S);

describe('intervals', () => {
  it('unions overlapping and touching intervals, drops empty ones, sorts', () => {
    expect(
      union([
        [50, 60],
        [0, 10],
        [10, 20],
        [15, 18],
        [30, 30],
        [25, 40],
      ]),
    ).toEqual([
      [0, 20],
      [25, 40],
      [50, 60],
    ]);
    expect(union([])).toEqual([]);
  });
  it('clips a set to a window', () => {
    expect(
      clip(
        [
          [0, 10],
          [20, 30],
          [40, 50],
        ],
        5,
        45,
      ),
    ).toEqual([
      [5, 10],
      [20, 30],
      [40, 45],
    ]);
    expect(clip([[0, 10]], 10, 20)).toEqual([]);
  });
  it('subtracts one set from another', () => {
    expect(
      subtract(
        [[0, 100]],
        [
          [10, 20],
          [30, 40],
          [90, 200],
        ],
      ),
    ).toEqual([
      [0, 10],
      [20, 30],
      [40, 90],
    ]);
    expect(
      subtract(
        [
          [0, 10],
          [20, 30],
        ],
        [[5, 25]],
      ),
    ).toEqual([
      [0, 5],
      [25, 30],
    ]);
    expect(subtract([[0, 10]], [[0, 10]])).toEqual([]);
    expect(subtract([[0, 10]], [])).toEqual([[0, 10]]);
    expect(
      subtract(
        [
          [10, 20],
          [30, 40],
        ],
        [
          [0, 5],
          [12, 14],
          [50, 60],
        ],
      ),
    ).toEqual([
      [10, 12],
      [14, 20],
      [30, 40],
    ]);
  });
  it('intersects two sets', () => {
    expect(
      intersect(
        [
          [0, 10],
          [20, 30],
        ],
        [
          [5, 25],
          [28, 40],
        ],
      ),
    ).toEqual([
      [5, 10],
      [20, 25],
      [28, 30],
    ]);
    expect(intersect([[0, 10]], [])).toEqual([]);
  });
  it('totals a set', () => {
    expect(
      total([
        [0, 10],
        [20, 25],
      ]),
    ).toBe(15);
  });
});

describe('figures', () => {
  it('counts checks and both uptimes: maintenance left out, then every check', () => {
    const f = checkFigures([
      { total: 100, ok: 90, maint_total: 20, maint_ok: 10 },
      { total: 50, ok: 50, maint_total: 0, maint_ok: 0 },
    ]);
    expect(f.checks).toEqual({ total: 150, ok: 140, in_maintenance: 20, ok_in_maintenance: 10 });
    // (140 - 10) / (150 - 20) = 130 / 130; 140 / 150 = 93.3333 %
    expect(f.uptime_percent).toBe(100);
    expect(f.uptime_percent_with_maintenance).toBe(93.3333);
    expect(checkFigures([]).uptime_percent).toBeNull();
    // Every check in maintenance: nothing left to judge.
    expect(checkFigures([{ total: 5, ok: 0, maint_total: 5, maint_ok: 0 }]).uptime_percent).toBeNull();
  });

  it("clips an incident's open time to the period and leaves maintenance out", () => {
    const a = { created_at: d(50), resolved_at: d(300) };
    expect(incidentDowntime(a, 100 * S, 1000 * S, [[150 * S, 200 * S]])).toEqual([
      [100 * S, 150 * S],
      [200 * S, 300 * S],
    ]);
    // Still open: up to the end of the period so far.
    expect(incidentDowntime({ created_at: d(900), resolved_at: null }, 0, 950 * S, [])).toEqual([
      [900 * S, 950 * S],
    ]);
  });

  it('counts an alert as an incident unless all its open time in the period was maintenance', () => {
    const m: [number, number][] = [[100 * S, 200 * S]];
    expect(countsAsIncident({ created_at: d(120), resolved_at: d(180) }, 0, 1000 * S, m)).toBe(false);
    expect(countsAsIncident({ created_at: d(120), resolved_at: d(201) }, 0, 1000 * S, m)).toBe(true);
    // Raised and resolved at once: an incident at that instant unless maintenance covered it.
    expect(countsAsIncident({ created_at: d(300), resolved_at: d(300) }, 0, 1000 * S, m)).toBe(true);
    expect(countsAsIncident({ created_at: d(150), resolved_at: d(150) }, 0, 1000 * S, m)).toBe(false);
    // Resolved before the period.
    expect(countsAsIncident({ created_at: d(10), resolved_at: d(20) }, 30 * S, 1000 * S, [])).toBe(false);
  });

  it('takes MTTA and MTTR over the incidents that started in the period and got there', () => {
    const inc = [
      { created_at: d(100), acknowledged_at: d(160), resolved_at: d(400) }, // 60, 300
      { created_at: d(200), acknowledged_at: null, resolved_at: d(290) }, // -, 90
      { created_at: d(300), acknowledged_at: d(301), resolved_at: null }, // 1, -
      { created_at: d(-50), acknowledged_at: d(0), resolved_at: d(10) }, // began before: left out
    ];
    // MTTA (60 + 1) / 2 = 30.5 → 31; MTTR (300 + 90) / 2 = 195
    expect(meanTimes(inc, 0, 1000 * S)).toEqual({ mtta_seconds: 31, mttr_seconds: 195 });
    expect(meanTimes([], 0, 1000 * S)).toEqual({ mtta_seconds: null, mttr_seconds: null });
    expect(meanSeconds([1500, 2500])).toBe(2);
  });

  it('gives the error budget of the period outside maintenance, negative when overspent', () => {
    // 30 days = 2,592,000 s, 1 hour of maintenance: 2,588,400 s × 0.1 % = 2,588.4 → 2,588
    expect(errorBudget(2_592_000, 3_600, 600, 99.9)).toEqual({
      allowed_downtime_seconds: 2_588,
      error_budget_seconds_left: 1_988,
    });
    expect(errorBudget(86_400, 0, 1_000, 99.9).error_budget_seconds_left).toBe(86 - 1_000);
  });

  it("counts several monitors' downtime once (the union)", () => {
    expect(total(unionDowntime([[[0, 100]], [[50, 150]], [[300, 400]]]))).toBe(250);
  });
});

describe('maintenance over a period', () => {
  const base = {
    workspace_id: 'w',
    name: 'm',
    scope_id: null,
    created_at: d(0),
    ends_at: null,
    schedule: null,
    timezone: null,
    duration_seconds: null,
  };
  const day = Date.UTC(2026, 10, 1);
  const H = 3_600_000;
  it('steps recurring windows along their schedule and takes one-off ones as they are', async () => {
    const windows: MaintenanceWindow[] = [
      // 02:00 UTC daily for an hour, from Nov 3.
      {
        ...base,
        id: 'r',
        scope_type: 'monitor',
        scope_id: 'm1',
        starts_at: new Date(day + 2 * 86_400_000),
        schedule: '0 2 * * *',
        timezone: 'UTC',
        duration_seconds: 3600,
      },
      // One-off across the period's start.
      { ...base, id: 'o', scope_type: 'workspace', starts_at: new Date(day - H), ends_at: new Date(day + H) },
    ];
    const occ = await windowOccurrences(windows, day, day + 5 * 86_400_000);
    expect(occ.get('o')).toEqual([[day, day + H]]);
    expect(occ.get('r')).toEqual(
      [3, 4, 5].map((n) => [day + (n - 1) * 86_400_000 + 2 * H, day + (n - 1) * 86_400_000 + 3 * H]),
    );
    const m1 = maintenanceOf(windows, occ, { type: 'monitor', id: 'm1' });
    expect(total(m1)).toBe(4 * H);
    expect(total(maintenanceOf(windows, occ, { type: 'monitor', id: 'm2' }))).toBe(H);
  });
});
