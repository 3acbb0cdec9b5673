import type { MonitorStatus } from '../monitors/monitor-status.js';
import type { HeartbeatState } from '../types.js';
import type { ComponentStatus, Incident, StatusComponent } from './status-page-store.js';

/** Worse is higher. Maintenance is planned, so it ranks below any degradation. */
export const SEVERITY: Record<ComponentStatus, number> = {
  operational: 0,
  under_maintenance: 1,
  degraded_performance: 2,
  partial_outage: 3,
  major_outage: 4,
};

export const worse = (a: ComponentStatus, b: ComponentStatus) => (SEVERITY[b] > SEVERITY[a] ? b : a);

/** What a linked monitor's status says: down is a major outage, a maintenance window is maintenance. */
export const statusOfMonitor = (s: MonitorStatus | undefined): ComponentStatus =>
  s === 'down' ? 'major_outage' : s === 'maintenance' ? 'under_maintenance' : 'operational';

/** What a linked heartbeat's state says: down (missed or failed) is a major outage, late is degraded. */
export const statusOfHeartbeat = (s: HeartbeatState | undefined, inMaintenance: boolean): ComponentStatus =>
  inMaintenance
    ? 'under_maintenance'
    : s === 'down'
      ? 'major_outage'
      : s === 'late'
        ? 'degraded_performance'
        : 'operational';

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
  },
  openIncidents: Pick<Incident, 'status' | 'published' | 'components'>[],
): ComponentStatus => {
  let s: ComponentStatus = component.monitor_id
    ? statusOfMonitor(source.monitor)
    : component.heartbeat_id
      ? statusOfHeartbeat(source.heartbeat, source.heartbeatInMaintenance ?? false)
      : component.manual_status;
  for (const i of openIncidents) {
    if (!i.published || i.status === 'resolved') continue;
    const stated = i.components[component.id];
    if (stated) s = worse(s, stated);
  }
  return s;
};

export type Indicator = 'none' | 'minor' | 'major' | 'critical';

/**
 * The page's overall status as Statuspage words it: `none` when nothing is degraded (maintenance
 * alone included), `minor` for degraded performance or a partial outage, `major` when some component
 * is in a major outage, `critical` when every component is (and there is at least one).
 */
export const overallStatus = (statuses: ComponentStatus[]): { indicator: Indicator; description: string } => {
  const worst = statuses.reduce<ComponentStatus>(worse, 'operational');
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
    default:
      return { indicator: 'none', description: 'All Systems Operational' };
  }
};

/** Words for readers. */
export const COMPONENT_STATUS_LABEL: Record<ComponentStatus, string> = {
  operational: 'Operational',
  degraded_performance: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
  under_maintenance: 'Under maintenance',
};

/** A maintenance window as the page shows it: upcoming (scheduled) or going on (in progress). */
export const maintenancePhase = (w: { starts_at: Date; ends_at: Date }, now: Date) =>
  w.ends_at <= now ? 'completed' : w.starts_at <= now ? 'in_progress' : 'scheduled';
