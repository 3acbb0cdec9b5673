import { useState } from 'preact/hooks';
import type { Me } from '../../api.js';
import { routingApi } from '../../api-routing.js';
import { duration } from '../../format.js';
import { ErrorBox } from '../../kit/error-box.js';
import { ListBody, ShowMore, useList } from '../../kit/paging.js';
import { followLink, navigate } from '../../router.js';
import { HeartbeatForm } from './heartbeat-form.js';
import { LastPing, StateBadge } from './heartbeat-state.js';
import { PingKeyPanel } from './ping-key-panel.js';

/** `/heartbeats`: every heartbeat with its state, last ping, schedule and grace; create one; the ping key (admins). */
export const HeartbeatsPage = (props: { me: Me }) => {
  const canWrite = props.me.user.role !== 'viewer';
  const [creating, setCreating] = useState(false);
  // Live until "Show more" was used; then the list stands still.
  const {
    items: list,
    next,
    error,
    more,
  } = useList((cursor) => routingApi.listHeartbeats(cursor), {
    poll: 'until-more',
  });

  return (
    <section class="page">
      <div class="page-head">
        <h1>Heartbeats</h1>
        {canWrite && !creating && (
          <button type="button" class="button primary" onClick={() => setCreating(true)}>
            New heartbeat
          </button>
        )}
      </div>
      <p class="lead">
        A job pings its heartbeat’s URL each time it runs. When a ping is later than its schedule (a period,
        or a cron schedule in its time zone) plus grace, or the job reports a failure, Lookout raises an
        alert.
      </p>
      {canWrite && (creating || list?.length === 0) && (
        <section class="panel" aria-labelledby="new-hb-title">
          <h2 id="new-hb-title">New heartbeat</h2>
          <HeartbeatForm
            submit="Create heartbeat"
            onSubmit={async ({ slug, schedule, ...body }) => {
              // A new heartbeat's form never removes a slug or a schedule (no nulls).
              const h = await routingApi.createHeartbeat({
                ...body,
                ...(slug ? { slug } : {}),
                ...(schedule ? { schedule } : {}),
              });
              navigate(`/heartbeats/${h.id}`);
            }}
            {...(list?.length ? { onCancel: () => setCreating(false) } : {})}
          />
        </section>
      )}
      <section class="panel flush" aria-labelledby="hb-list-title">
        <div class="panel-head">
          <h2 id="hb-list-title">All heartbeats</h2>
          <span class="muted">{list ? `${list.length}${next ? '+' : ''}` : ''}</span>
        </div>
        <ErrorBox message={error} inset />
        <ListBody items={list} empty="No heartbeats yet.">
          {(list) => (
            <table class="keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">State</th>
                  <th scope="col">Last ping</th>
                  <th scope="col">Schedule</th>
                  <th scope="col">Grace</th>
                </tr>
              </thead>
              <tbody>
                {list.map((h) => (
                  <tr key={h.id}>
                    <th scope="row" class="key-name">
                      <a href={`/heartbeats/${h.id}`} onClick={followLink}>
                        {h.display_name}
                      </a>
                    </th>
                    <td data-label="State">
                      <StateBadge state={h.state} />
                    </td>
                    <td data-label="Last ping">
                      <LastPing h={h} />
                    </td>
                    <td data-label="Schedule" class="prose">
                      {h.schedule_text}
                    </td>
                    <td data-label="Grace">{duration(h.grace_seconds)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </ListBody>
        <ShowMore next={next} onMore={more} />
      </section>
      {props.me.user.role === 'admin' && <PingKeyPanel />}
    </section>
  );
};
