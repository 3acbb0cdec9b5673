/**
 * Shift trades on a schedule: my next shifts here, each offered with one click; the open offers, which
 * another member takes (it becomes their override), an admin assigns to someone, or the offerer (or an
 * admin) withdraws.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../../api.js';
import {
  type Offer,
  type ScheduleDetail,
  type Shift,
  schedulesApi,
  type UserRef,
} from '../../api-schedules.js';
import { Notice } from '../../kit/error-box.js';
import { problemsOf } from '../../kit/field.js';
import { spanIn } from './zone.js';

const AssignOffer = (props: {
  offer: Offer;
  users: UserRef[];
  tz: string;
  onAssign: (userId: string) => void;
}) => {
  const [userId, setUserId] = useState('');
  const span = spanIn(props.offer.starts_at, props.offer.ends_at, props.tz);
  const others = props.users.filter((u) => u.id !== props.offer.user.id);
  return (
    <span class="offer-assign">
      <select
        aria-label={`Assign ${span} to`}
        value={userId}
        onChange={(e) => setUserId(e.currentTarget.value)}
      >
        <option value="">Assign to…</option>
        {others.map((u) => (
          <option key={u.id} value={u.id}>
            {u.email}
          </option>
        ))}
      </select>
      <button
        type="button"
        class="button small"
        disabled={!userId}
        aria-label={`Assign the shift ${span}`}
        onClick={() => props.onAssign(userId)}
      >
        Assign
      </button>
    </span>
  );
};

export const OffersPanel = (props: {
  me: Me;
  schedule: ScheduleDetail;
  users: UserRef[];
  shifts: Shift[];
  version: number;
  onChange: () => void;
}) => {
  const tz = props.schedule.timezone;
  const sid = props.schedule.id;
  const me = props.me.user;
  const canWrite = me.role !== 'viewer';
  const admin = me.role === 'admin';
  const [offers, setOffers] = useState<Offer[]>([]);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    schedulesApi.openOffers(sid).then(
      (r) => setOffers(r.data),
      () => setOffers([]),
    );
  }, [sid, props.version]);
  const act = async (what: () => Promise<unknown>, done: string) => {
    try {
      await what();
      setNotice({ ok: true, text: done });
      props.onChange();
    } catch (e) {
      setNotice({ ok: false, text: problemsOf(e).form ?? Object.values(problemsOf(e)).join(' ') });
    }
  };
  const now = Date.now();
  const mine = props.shifts
    .filter((s) => s.user.id === me.id && new Date(s.ends_at).getTime() > now)
    .filter((s) => !offers.some((o) => o.starts_at === s.starts_at && o.user.id === me.id))
    .slice(0, 5);
  return (
    <section class="panel flush" aria-labelledby="offers-title">
      <div class="panel-head">
        <h2 id="offers-title">Shift offers</h2>
        <span class="muted">Offer a shift you cannot cover; whoever takes it gets an override.</span>
      </div>
      <Notice notice={notice} inset />
      {canWrite && mine.length > 0 && (
        <ul class="shift-list" aria-label="My next shifts here">
          {mine.map((s) => {
            const span = spanIn(s.starts_at, s.ends_at, tz);
            return (
              <li key={s.starts_at}>
                <span class="grow">
                  My shift <strong>{span}</strong>
                </span>
                <button
                  type="button"
                  class="button small"
                  aria-label={`Offer my shift ${span}`}
                  onClick={() =>
                    act(
                      () =>
                        schedulesApi.offerShift(sid, {
                          starts_at: new Date(Math.max(now, new Date(s.starts_at).getTime())).toISOString(),
                          ends_at: s.ends_at,
                        }),
                      'Your shift is offered.',
                    )
                  }
                >
                  Offer my shift
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {offers.length === 0 ? (
        <p class="empty">No open offers.</p>
      ) : (
        <ul class="shift-list" aria-label="Open offers">
          {offers.map((o) => {
            const span = spanIn(o.starts_at, o.ends_at, tz);
            const isMine = o.user.id === me.id;
            return (
              <li key={o.id}>
                <span class="grow">
                  <strong>{o.user.email}</strong> offers {span}
                  {o.note && <span class="muted"> · “{o.note}”</span>}
                </span>
                {canWrite && !isMine && (
                  <button
                    type="button"
                    class="button small primary"
                    aria-label={`Take the shift ${span}`}
                    onClick={() => act(() => schedulesApi.takeOffer(sid, o.id), 'The shift is yours.')}
                  >
                    Take
                  </button>
                )}
                {admin && (
                  <AssignOffer
                    offer={o}
                    users={props.users}
                    tz={tz}
                    onAssign={(uid) =>
                      act(() => schedulesApi.assignOffer(sid, o.id, uid), 'The shift is assigned.')
                    }
                  />
                )}
                {(isMine || admin) && (
                  <button
                    type="button"
                    class="button small danger-outline"
                    aria-label={`Withdraw the offer ${span}`}
                    onClick={() =>
                      act(() => schedulesApi.withdrawOffer(sid, o.id), 'The offer is withdrawn.')
                    }
                  >
                    Withdraw
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
};
