import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../../api.js';
import { type OnCall, type Schedule, schedulesApi } from '../../api-schedules.js';
import { ErrorBox } from '../../kit/error-box.js';
import { ListBody, ShowMore, useList } from '../../kit/paging.js';
import { followLink } from '../../router.js';
import { whenIn } from './zone.js';

/** Who is on call now in each of `schedules`, by schedule id (null: not known yet or failed). */
export const useOnCall = (schedules: readonly Schedule[] | null) => {
  const [byId, setById] = useState<Record<string, OnCall | null>>({});
  const key = (schedules ?? []).map((s) => s.id).join(',');
  useEffect(() => {
    let live = true;
    for (const s of schedules ?? [])
      schedulesApi.onCall(s.id).then(
        (o) => live && setById((m) => ({ ...m, [s.id]: o })),
        () => {},
      );
    return () => {
      live = false;
    };
  }, [key]);
  return byId;
};

/** "alice@example.com until Tue, Dec 8, 09:00", or who is next when nobody is on call now. */
export const OnCallText = (props: { onCall: OnCall | null | undefined; tz: string }) => {
  const o = props.onCall;
  if (o === undefined || o === null) return <span class="muted">…</span>;
  if (!o.user)
    return (
      <span class="warn-text">
        Nobody
        {o.next
          ? `; ${o.next.user.email ?? 'a removed user'} from ${whenIn(o.next.starts_at, props.tz)}`
          : ''}
      </span>
    );
  return (
    <span>
      <span class="oc-who">{o.user.email}</span>
      {o.until && <span class="muted"> until {whenIn(o.until, props.tz)}</span>}
    </span>
  );
};

/** `/schedules`: the workspace's on-call schedules, who is on call in each now and until when. */
export const SchedulesPage = (props: { me: Me }) => {
  const canWrite = props.me.user.role !== 'viewer';
  const [q, setQ] = useState('');
  const { items, next, error, busy, more } = useList(
    (cursor) => schedulesApi.listSchedules(cursor, q.trim(), 50),
    {
      deps: [q],
    },
  );
  const onCall = useOnCall(items);
  return (
    <section class="page">
      <div class="page-head">
        <h1>Schedules</h1>
        {canWrite && (
          <a class="button primary" href="/schedules/new" onClick={followLink}>
            New schedule
          </a>
        )}
      </div>
      <p class="lead">
        Who is on call, by rotation: each schedule has layers of users taking turns (a later layer wins where
        it covers the time) and overrides that beat every layer. An escalation step can notify whoever is on
        call.
      </p>
      <section class="panel flush" aria-labelledby="schedules-title">
        <div class="panel-head">
          <h2 id="schedules-title">All schedules</h2>
          <input
            type="search"
            aria-label="Search schedules"
            placeholder="Name"
            value={q}
            onInput={(e) => setQ(e.currentTarget.value)}
          />
        </div>
        <ErrorBox message={error} inset />
        <ListBody items={items} empty={q.trim() ? `No schedule matches “${q.trim()}”.` : 'No schedules yet.'}>
          {(list) => (
            <table class="keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Time zone</th>
                  <th scope="col">On call now</th>
                </tr>
              </thead>
              <tbody>
                {list.map((s) => (
                  <tr key={s.id}>
                    <th scope="row" class="key-name">
                      <a href={`/schedules/${s.id}`} onClick={followLink}>
                        {s.name}
                      </a>
                    </th>
                    <td data-label="Time zone">{s.timezone}</td>
                    <td data-label="On call now" class="wrap">
                      <OnCallText onCall={onCall[s.id]} tz={s.timezone} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </ListBody>
        <ShowMore next={next} onMore={more} busy={busy} />
      </section>
    </section>
  );
};
