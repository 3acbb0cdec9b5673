/** The words and badges of status pages, one place: component statuses, incident statuses, visibility. */
import type { ComponentStatus, IncidentStatus, LiveComponentStatus, StatusPage } from '../../api-status.js';

export const COMPONENT_STATUSES: { value: ComponentStatus; label: string; css: string }[] = [
  { value: 'operational', label: 'Operational', css: 'status-up' },
  { value: 'degraded_performance', label: 'Degraded performance', css: 'status-paused' },
  { value: 'partial_outage', label: 'Partial outage', css: 'status-partial' },
  { value: 'major_outage', label: 'Major outage', css: 'status-down' },
  { value: 'under_maintenance', label: 'Under maintenance', css: 'status-maintenance' },
];

/** Shown, never chosen: a linked component whose monitor or heartbeat has no data yet. */
const NO_DATA = { value: 'unknown', label: 'No data yet', css: 'status-pending' } as const;

export const INCIDENT_STATUSES: { value: IncidentStatus; label: string }[] = [
  { value: 'investigating', label: 'Investigating' },
  { value: 'identified', label: 'Identified' },
  { value: 'monitoring', label: 'Monitoring' },
  { value: 'resolved', label: 'Resolved' },
];

export const componentStatusLabel = (s: ComponentStatus) =>
  COMPONENT_STATUSES.find((x) => x.value === s)?.label ?? s;
export const incidentStatusLabel = (s: IncidentStatus) =>
  INCIDENT_STATUSES.find((x) => x.value === s)?.label ?? s;

/** A component's status as a dot and a word (never colour alone). */
export const ComponentBadge = (props: { status: LiveComponentStatus }) => {
  const s = props.status === 'unknown' ? NO_DATA : COMPONENT_STATUSES.find((x) => x.value === props.status);
  return (
    <span class={`badge ${s?.css ?? 'status-pending'}`}>
      <span class="dot" aria-hidden="true" />
      {s?.label ?? props.status}
    </span>
  );
};

export const visibilityLabel = (p: Pick<StatusPage, 'visibility'>) =>
  p.visibility === 'password' ? 'Password protected' : 'Public';

/** Options of a component status select. */
export const ComponentStatusOptions = () => (
  <>
    {COMPONENT_STATUSES.map((s) => (
      <option key={s.value} value={s.value}>
        {s.label}
      </option>
    ))}
  </>
);
