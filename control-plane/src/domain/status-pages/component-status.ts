import type { MonitorStatus } from '../monitors/monitor-status.js';
import type { HeartbeatState } from '../types.js';
import type { ComponentStatus, Incident, StatusComponent } from './status-page-store.js';

/**
 * A component's live status: Statuspage's five words, or `unknown` while its monitor has never
 * decided (no successful check yet) or its heartbeat has never been pinged. `unknown` is never set by
 * hand nor stated by an incident; the page says "No data yet" (docs/decisions.md, "no data yet").
 */
export type LiveStatus = ComponentStatus | 'unknown';

/**
 * Worse is higher. No data ranks above operational (a group with a component nobody has checked is
 * not all operational) and below anything known; maintenance is planned, so below any degradation.
 */
export const SEVERITY: Record<LiveStatus, number> = {
  operational: 0,
  unknown: 1,
  under_maintenance: 2,
  degraded_performance: 3,
  partial_outage: 4,
  major_outage: 5,
};

export const worse = <S extends LiveStatus>(a: S, b: S): S => (SEVERITY[b] > SEVERITY[a] ? b : a);

/**
 * What a linked monitor's status says: down is a major outage, a maintenance window is maintenance,
 * up (or paused after its checks) operational; no verdict yet (pending) or no monitor is no data.
 */
export const statusOfMonitor = (s: MonitorStatus | undefined): LiveStatus =>
  s === 'down'
    ? 'major_outage'
    : s === 'maintenance'
      ? 'under_maintenance'
      : s === 'up' || s === 'paused'
        ? 'operational'
        : 'unknown';

/**
 * What a linked heartbeat's state says: down (missed or failed) is a major outage, late is degraded,
 * never pinged (new) or no heartbeat is no data.
 */
export const statusOfHeartbeat = (s: HeartbeatState | undefined, inMaintenance: boolean): LiveStatus =>
  inMaintenance
    ? 'under_maintenance'
    : s === 'down'
      ? 'major_outage'
      : s === 'late'
        ? 'degraded_performance'
        : s === 'up' || s === 'paused'
          ? 'operational'
          : 'unknown';

/**
 * A group's status: the worst of its members', except that members with no data yet do not hide the
 * others' verdict (a group of up monitors and one new heartbeat is operational); no data when none
 * has any, or the group has no members (or was deleted).
 */
export const groupStatus = (members: LiveStatus[]): LiveStatus => {
  const known = members.filter((s) => s !== 'unknown');
  return known.length === 0 ? 'unknown' : known.reduce<LiveStatus>(worse, 'operational');
};

/**
 * A component's live status: what its source says (monitor, heartbeat, or its author by hand), made
 * worse by any open published incident that states a worse status for it (never better: an incident
 * cannot hide an outage its monitor sees).
 */
export const componentStatus = (
  component: StatusComponent,
  source: {
    monitor?: MonitorStatus | undefined;
    heartbeat?: HeartbeatState | undefined;
    heartbeatInMaintenance?: boolean;
    /** A group component's members, each as statusOfMonitor or statusOfHeartbeat says. */
    members?: LiveStatus[] | undefined;
  },
  openIncidents: Pick<Incident, 'status' | 'published' | 'components'>[],
): LiveStatus => {
  let s: LiveStatus = component.monitor_id
    ? statusOfMonitor(source.monitor)
    : component.heartbeat_id
      ? statusOfHeartbeat(source.heartbeat, source.heartbeatInMaintenance ?? false)
      : component.group_id
        ? groupStatus(source.members ?? [])
        : component.manual_status;
  for (const i of openIncidents) {
    if (!i.published || i.status === 'resolved') continue;
    const stated = i.components[component.id];
    if (stated) s = worse<LiveStatus>(s, stated);
  }
  return s;
};

export type Indicator = 'none' | 'minor' | 'major' | 'critical';

/**
 * The page's overall status as Statuspage words it: `none` when nothing is degraded (maintenance
 * alone included), `minor` for degraded performance or a partial outage, `major` when some component
 * is in a major outage, `critical` when every component is (and there is at least one). Components
 * with no data yet raise no alarm (`none`), but the description never says "All Systems
 * Operational" while any has none.
 */
export const overallStatus = (statuses: LiveStatus[]): { indicator: Indicator; description: string } => {
  const worst = statuses.reduce<LiveStatus>(worse, 'operational');
  if (statuses.length > 0 && statuses.every((s) => s === 'major_outage'))
    return { indicator: 'critical', description: 'Major System Outage' };
  switch (worst) {
    case 'major_outage':
      return { indicator: 'major', description: 'Partial System Outage' };
    case 'partial_outage':
      return { indicator: 'minor', description: 'Minor Service Outage' };
    case 'degraded_performance':
      return { indicator: 'minor', description: 'Partially Degraded Service' };
    case 'under_maintenance':
      return { indicator: 'none', description: 'Service Under Maintenance' };
    case 'unknown':
      return statuses.every((s) => s === 'unknown')
        ? { indicator: 'none', description: 'No Data Yet' }
        : { indicator: 'none', description: 'Some Components Have No Data Yet' };
    default:
      return { indicator: 'none', description: 'All Systems Operational' };
  }
};

/** Words for readers. */
export const COMPONENT_STATUS_LABEL: Record<LiveStatus, string> = {
  operational: 'Operational',
  unknown: 'No data yet',
  degraded_performance: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
  under_maintenance: 'Under maintenance',
};

/** A maintenance window as the page shows it: upcoming (scheduled) or going on (in progress). */
export const maintenancePhase = (w: { starts_at: Date; ends_at: Date }, now: Date) =>
  w.ends_at <= now ? 'completed' : w.starts_at <= now ? 'in_progress' : 'scheduled';
