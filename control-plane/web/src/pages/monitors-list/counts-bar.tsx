import type { MonitorCounts, MonitorStatus } from '../../api.js';

const ORDER: { value: MonitorStatus; label: string }[] = [
  { value: 'down', label: 'Down' },
  { value: 'pending', label: 'Pending' },
  { value: 'maintenance', label: 'Maintenance' },
  { value: 'paused', label: 'Paused' },
  { value: 'up', label: 'Up' },
];

/**
 * How many monitors of the current filter have each status (GET /monitors/counts), in the list's
 * order; each count is a button that filters the list by its status (pressed while it does), and
 * "All" clears that.
 */
export const CountsBar = (props: {
  counts: MonitorCounts | null;
  status: MonitorStatus | '';
  onStatus: (s: MonitorStatus | '') => void;
}) => (
  <ul class="counts" aria-label="Monitor counts">
    <li>
      <button
        type="button"
        class="count all"
        aria-pressed={props.status === ''}
        onClick={() => props.onStatus('')}
      >
        <span class="n">{props.counts ? props.counts.total.toLocaleString('en') : '…'}</span> All
      </button>
    </li>
    {ORDER.map((s) => (
      <li key={s.value}>
        <button
          type="button"
          class={`count status-${s.value}${props.counts?.[s.value] ? '' : ' none'}`}
          aria-pressed={props.status === s.value}
          onClick={() => props.onStatus(props.status === s.value ? '' : s.value)}
        >
          <span class="dot" aria-hidden="true" />
          <span class="n">{props.counts ? props.counts[s.value].toLocaleString('en') : '…'}</span> {s.label}
        </button>
      </li>
    ))}
  </ul>
);
