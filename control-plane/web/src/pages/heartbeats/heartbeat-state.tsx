import type { Heartbeat, HeartbeatState } from '../../api-routing.js';
import { formatDateTime, fromNow } from '../../format.js';

const STATES: Record<HeartbeatState, { label: string; css: string }> = {
  new: { label: 'New', css: 'pending' },
  up: { label: 'Up', css: 'up' },
  late: { label: 'Late', css: 'late' },
  down: { label: 'Down', css: 'down' },
  paused: { label: 'Paused', css: 'paused' },
};

export const StateBadge = (props: { state: HeartbeatState }) => (
  <span class={`badge status-${STATES[props.state].css}`}>
    <span class="dot" aria-hidden="true" />
    {STATES[props.state].label}
  </span>
);

export const LastPing = (props: { h: Heartbeat }) =>
  props.h.last_ping_at ? (
    <span title={formatDateTime(props.h.last_ping_at)}>{fromNow(props.h.last_ping_at)}</span>
  ) : (
    <span class="muted">Never</span>
  );
