/** The dashboard's "Who is on call": each schedule's person now and until when, compact; a link to all. */
import { schedulesApi } from '../../api-schedules.js';
import { useList } from '../../kit/paging.js';
import { followLink } from '../../router.js';
import { OnCallText, useOnCall } from './schedules-page.js';

/** At most this many schedules on the dashboard; the rest are a click away. */
const SHOWN = 8;

export const WhoIsOnCall = () => {
  const { items } = useList((cursor) => schedulesApi.listSchedules(cursor, undefined, SHOWN));
  const onCall = useOnCall(items);
  if (!items || items.length === 0) return null;
  return (
    <section class="panel flush who-on-call" aria-labelledby="who-on-call-title">
      <div class="panel-head">
        <h2 id="who-on-call-title">Who is on call</h2>
        <a href="/schedules" onClick={followLink}>
          All schedules
        </a>
      </div>
      <ul>
        {items.map((s) => (
          <li key={s.id}>
            <a href={`/schedules/${s.id}`} onClick={followLink}>
              {s.name}
            </a>
            <OnCallText onCall={onCall[s.id]} tz={s.timezone} />
          </li>
        ))}
      </ul>
    </section>
  );
};
