import type { Ping } from '../../api-routing.js';
import { durationMs, formatDateTimeSeconds } from '../../format.js';

const KIND: Record<Ping['kind'], string> = { success: 'Success', start: 'Start', fail: 'Failure' };

/** The ping log's table, newest first: when, kind, exit status, duration, run id, body and sender. */
export const PingTable = (props: { pings: readonly Ping[] }) => (
  <table class="keys pings" aria-labelledby="ping-log-title">
    <thead>
      <tr>
        <th scope="col">When</th>
        <th scope="col">Kind</th>
        <th scope="col">Exit status</th>
        <th scope="col">Duration</th>
        <th scope="col">Run id</th>
        <th scope="col">Body</th>
        <th scope="col">From</th>
      </tr>
    </thead>
    <tbody>
      {props.pings.map((p) => (
        <tr key={p.id}>
          <th scope="row" title={`received ${formatDateTimeSeconds(p.received_at)}`}>
            {formatDateTimeSeconds(p.at)}
          </th>
          <td data-label="Kind">
            <span class={`kind kind-${p.kind}`}>{KIND[p.kind]}</span>
          </td>
          <td data-label="Exit status" class={p.exit_status === null ? 'none' : undefined}>
            {p.exit_status ?? <span class="muted">–</span>}
          </td>
          <td data-label="Duration" class={p.duration_ms === null ? 'none' : undefined}>
            {p.duration_ms === null ? <span class="muted">–</span> : durationMs(p.duration_ms)}
          </td>
          <td data-label="Run id" class={p.rid ? undefined : 'none'}>
            {p.rid ? <code>{p.rid}</code> : <span class="muted">–</span>}
          </td>
          <td data-label="Body" class={p.body ? 'ping-body' : 'ping-body none'}>
            {p.body ? <code>{p.body}</code> : <span class="muted">–</span>}
          </td>
          <td data-label="From" class="muted">
            {p.source ?? '–'}
          </td>
        </tr>
      ))}
    </tbody>
  </table>
);
