import { describe, expect, it } from 'vitest';
import { componentStatus, groupStatus, maintenancePhase, overallStatus } from './component-status.js';
import type { StatusComponent } from './status-page-store.js';

const base: StatusComponent = {
  id: 'c1',
  name: 'API',
  description: null,
  group: null,
  monitor_id: null,
  heartbeat_id: null,
  manual_status: 'operational',
};
const monitored = { ...base, monitor_id: 'm1' };
const beat = { ...base, heartbeat_id: 'h1' };
const open = (
  s: 'partial_outage' | 'degraded_performance' | 'major_outage' | 'operational',
  published = true,
) => ({
  status: 'investigating' as const,
  published,
  components: { c1: s },
});

describe('component status', () => {
  it.each([
    ['monitor down', monitored, { monitor: 'down' as const }, [], 'major_outage'],
    ['monitor up', monitored, { monitor: 'up' as const }, [], 'operational'],
    // No verdict yet (never checked, or failing below the threshold with no success): no data.
    ['monitor pending', monitored, { monitor: 'pending' as const }, [], 'unknown'],
    ['monitor unknown to the store', monitored, {}, [], 'unknown'],
    ['monitor paused', monitored, { monitor: 'paused' as const }, [], 'operational'],
    [
      'monitor in a maintenance window',
      monitored,
      { monitor: 'maintenance' as const },
      [],
      'under_maintenance',
    ],
    [
      'an incident states worse than the monitor',
      monitored,
      { monitor: 'up' as const },
      [open('partial_outage')],
      'partial_outage',
    ],
    [
      'an incident cannot state better',
      monitored,
      { monitor: 'down' as const },
      [open('degraded_performance')],
      'major_outage',
    ],
    [
      'a draft incident says nothing',
      monitored,
      { monitor: 'up' as const },
      [open('major_outage', false)],
      'operational',
    ],
    [
      'a resolved incident says nothing',
      monitored,
      { monitor: 'up' as const },
      [{ ...open('major_outage'), status: 'resolved' as const }],
      'operational',
    ],
    [
      'set by hand',
      { ...base, manual_status: 'degraded_performance' as const },
      {},
      [],
      'degraded_performance',
    ],
    ['heartbeat down', beat, { heartbeat: 'down' as const }, [], 'major_outage'],
    ['heartbeat never pinged', beat, { heartbeat: 'new' as const }, [], 'unknown'],
    ['heartbeat up', beat, { heartbeat: 'up' as const }, [], 'operational'],
    [
      'an incident states worse than no data',
      beat,
      { heartbeat: 'new' as const },
      [open('degraded_performance')],
      'degraded_performance',
    ],
    [
      'an incident cannot make no data operational',
      beat,
      { heartbeat: 'new' as const },
      [open('operational')],
      'unknown',
    ],
    ['heartbeat late', beat, { heartbeat: 'late' as const }, [], 'degraded_performance'],
    [
      'heartbeat in maintenance',
      beat,
      { heartbeat: 'down' as const, heartbeatInMaintenance: true },
      [],
      'under_maintenance',
    ],
  ])('%s', (_name, component, source, incidents, want) => {
    expect(componentStatus(component, source, incidents)).toBe(want);
  });
});

describe('group components', () => {
  const grouped = { ...base, group_id: 'g1' };
  it.each([
    ['no members (or a deleted group)', [], 'unknown'],
    ['none checked yet', ['unknown', 'unknown'], 'unknown'],
    ['all up', ['operational', 'operational'], 'operational'],
    // Members with no data do not hide the others' verdict.
    ['up and never checked', ['operational', 'unknown'], 'operational'],
    ['one down among many up', ['operational', 'major_outage', 'operational'], 'major_outage'],
    ['late beside maintenance', ['under_maintenance', 'degraded_performance'], 'degraded_performance'],
    ['maintenance beside up', ['operational', 'under_maintenance'], 'under_maintenance'],
  ] as const)('%s', (_name, members, expected) => {
    expect(groupStatus([...members])).toBe(expected);
    expect(componentStatus(grouped, { members: [...members] }, [])).toBe(expected);
  });

  it('an open incident can state worse than the members, never better', () => {
    expect(componentStatus(grouped, { members: ['operational'] }, [open('partial_outage')])).toBe(
      'partial_outage',
    );
    expect(componentStatus(grouped, { members: ['major_outage'] }, [open('degraded_performance')])).toBe(
      'major_outage',
    );
  });
});

describe('overall status', () => {
  it.each([
    [[], 'none', 'All Systems Operational'],
    [['operational', 'operational'], 'none', 'All Systems Operational'],
    [['operational', 'under_maintenance'], 'none', 'Service Under Maintenance'],
    [['operational', 'degraded_performance'], 'minor', 'Partially Degraded Service'],
    [['partial_outage', 'degraded_performance'], 'minor', 'Minor Service Outage'],
    [['operational', 'major_outage'], 'major', 'Partial System Outage'],
    [['major_outage', 'major_outage'], 'critical', 'Major System Outage'],
    [['unknown', 'unknown'], 'none', 'No Data Yet'],
    [['operational', 'unknown'], 'none', 'Some Components Have No Data Yet'],
    [['under_maintenance', 'unknown'], 'none', 'Service Under Maintenance'],
    [['degraded_performance', 'unknown'], 'minor', 'Partially Degraded Service'],
    [['major_outage', 'unknown'], 'major', 'Partial System Outage'],
  ] as const)('%j → %s', (statuses, indicator, description) => {
    expect(overallStatus([...statuses])).toEqual({ indicator, description });
  });
});

describe('maintenance phase', () => {
  const w = { starts_at: new Date(1000), ends_at: new Date(2000) };
  it('scheduled, then in progress, then completed', () => {
    expect(maintenancePhase(w, new Date(999))).toBe('scheduled');
    expect(maintenancePhase(w, new Date(1000))).toBe('in_progress');
    expect(maintenancePhase(w, new Date(2000))).toBe('completed');
  });
});
