/**
 * What a monitor's or heartbeat's detail page shows of its dependencies: what it depends on (links),
 * the dependency that holds its alert back now (`suppressed_by`), and its dependency timeline (the
 * API keeps 30 days of it).
 */
import { useState } from 'preact/hooks';
import type { Schemas } from '../../../src/api-client/client.js';
import { ok } from '../../../src/api-client/client.js';
import { client } from '../api.js';
import { formatDateTime, fromNow } from '../format.js';
import type { Dependency } from '../kit/depends-on-field.js';
import { usePoll } from '../poll.js';
import { followLink } from '../router.js';

type Timeline = Schemas['DependencyTimeline'];

const hrefOf = (d: Dependency) =>
  d.kind === 'monitor'
    ? `/monitors/${d.id}`
    : d.kind === 'heartbeat'
      ? `/heartbeats/${d.id}`
      : `/monitors?group_id=${d.id}`;

const timelineOf = (kind: 'monitor' | 'heartbeat', id: string): Promise<Timeline> =>
  kind === 'monitor'
    ? ok(client.GET('/monitors/{id}/timeline', { params: { path: { id } } }))
    : ok(client.GET('/heartbeats/{uuid}/timeline', { params: { path: { uuid: id } } }));

const KIND_LABEL: Record<Timeline['data'][number]['kind'], string> = {
  held: 'Held',
  suppressed: 'Suppressed',
  released: 'Released',
  raised: 'Alert raised',
  cleared: 'Cleared',
};

export const DependenciesPanel = (props: {
  kind: 'monitor' | 'heartbeat';
  id: string;
  dependencies: Dependency[];
  suppressedBy: string | null;
}) => {
  const [timeline, setTimeline] = useState<Timeline | null>(null);
  usePoll(async () => {
    try {
      setTimeline(await timelineOf(props.kind, props.id));
    } catch {
      setTimeline(null);
    }
  }, [props.kind, props.id]);
  if (props.dependencies.length === 0 && !timeline?.data.length) return null;
  const holder = props.dependencies.find((d) => d.id === props.suppressedBy);
  return (
    <section class="panel" aria-labelledby="dependencies-title">
      <h2 id="dependencies-title">Dependencies</h2>
      {props.suppressedBy && (
        <p class="notice">
          Held back by{' '}
          <a href={holder ? hrefOf(holder) : '#'} onClick={followLink}>
            {holder?.name ?? 'a dependency'}
          </a>
          : it is down, so this {props.kind}'s failure raises no alert and notifies no one.
        </p>
      )}
      {props.dependencies.length > 0 ? (
        <p>
          Depends on{' '}
          {props.dependencies.map((d, i) => (
            <span key={d.id}>
              {i > 0 && ', '}
              <a href={hrefOf(d)} onClick={followLink}>
                {d.name}
              </a>{' '}
              <span class="muted small">({d.kind})</span>
            </span>
          ))}
          .
        </p>
      ) : (
        <p class="muted">Depends on nothing now.</p>
      )}
      <h3 class="dependency-timeline-title">Timeline</h3>
      {timeline && timeline.data.length > 0 ? (
        <ul class="dependency-timeline">
          {timeline.data.map((e, i) => (
            <li key={`${e.at}-${i}`}>
              <span class="muted small" title={formatDateTime(e.at)}>
                {fromNow(e.at)}
              </span>{' '}
              <strong>{KIND_LABEL[e.kind]}</strong> {e.message}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted small">Nothing held back yet.</p>
      )}
      <p class="muted small">Kept {timeline?.retention_days ?? 30} days, newest first.</p>
    </section>
  );
};
