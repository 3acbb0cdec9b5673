/** A schedule's overrides (those not yet ended) and the form to add one: user, from, to. */
import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../../api.js';
import { type Override, type ScheduleDetail, schedulesApi, type UserRef } from '../../api-schedules.js';
import { ErrorBox } from '../../kit/error-box.js';
import { ErrorSummary } from '../../kit/error-summary.js';
import { Field, type Problems, problemsOf, TextField } from '../../kit/field.js';
import { FormActions } from '../../kit/form-actions.js';
import { fromLocalInput, spanIn, toLocalInput } from './zone.js';

const hourFrom = (ms: number) => new Date(Math.ceil(ms / 3_600_000) * 3_600_000).toISOString();

const OverrideForm = (props: { me: Me; schedule: ScheduleDetail; users: UserRef[]; onAdded: () => void }) => {
  const tz = props.schedule.timezone;
  const admin = props.me.user.role === 'admin';
  /** A member overrides for themself only. */
  const choices = admin ? props.users : props.users.filter((u) => u.id === props.me.user.id);
  const [userId, setUserId] = useState(props.me.user.id);
  const [from, setFrom] = useState(() => toLocalInput(hourFrom(Date.now()), tz));
  const [to, setTo] = useState(() => toLocalInput(hourFrom(Date.now() + 8 * 3_600_000), tz));
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      await schedulesApi.addOverride(props.schedule.id, {
        user_id: userId,
        starts_at: fromLocalInput(from, tz),
        ends_at: fromLocalInput(to, tz),
      });
      setProblems({});
      props.onAdded();
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate aria-label="New override" class="create-form wrap override-form">
      <ErrorSummary problems={problems} />
      <Field id="override-user" label="User" problem={problems.user_id}>
        {(a) => (
          <select {...a} value={userId} onChange={(e) => setUserId(e.currentTarget.value)}>
            {choices.map((u) => (
              <option key={u.id} value={u.id}>
                {u.email}
              </option>
            ))}
          </select>
        )}
      </Field>
      <TextField
        id="override-from"
        label="From"
        type="datetime-local"
        problem={problems.starts_at}
        value={from}
        onValue={setFrom}
      />
      <TextField
        id="override-to"
        label="To"
        type="datetime-local"
        problem={problems.ends_at}
        value={to}
        onValue={setTo}
      />
      <FormActions busy={busy} submit="Add override" />
    </form>
  );
};

export const OverridesPanel = (props: {
  me: Me;
  schedule: ScheduleDetail;
  users: UserRef[];
  version: number;
  onChange: () => void;
}) => {
  const tz = props.schedule.timezone;
  const canWrite = props.me.user.role !== 'viewer';
  const admin = props.me.user.role === 'admin';
  const [list, setList] = useState<Override[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    schedulesApi.overrides(props.schedule.id).then(
      (r) => setList(r.data),
      (e) => setError(problemsOf(e).form ?? null),
    );
  }, [props.schedule.id, props.version]);
  const remove = async (o: Override) => {
    try {
      await schedulesApi.removeOverride(props.schedule.id, o.id);
      props.onChange();
    } catch (e) {
      setError(problemsOf(e).form ?? 'That did not work.');
    }
  };
  return (
    <section class="panel flush" aria-labelledby="overrides-title">
      <div class="panel-head">
        <h2 id="overrides-title">Overrides</h2>
        <span class="muted">Someone takes a span; an override beats every layer. Times in {tz}.</span>
      </div>
      <ErrorBox message={error} inset />
      {canWrite && (
        <div class="panel-body">
          <OverrideForm
            me={props.me}
            schedule={props.schedule}
            users={props.users}
            onAdded={props.onChange}
          />
        </div>
      )}
      {list && list.length === 0 && <p class="empty">No overrides ahead.</p>}
      {list && list.length > 0 && (
        <ul class="shift-list" aria-label="Overrides ahead">
          {list.map((o) => (
            <li key={o.id}>
              <span class="grow">
                <strong>{o.user.email}</strong> {spanIn(o.starts_at, o.ends_at, tz)}
                {o.created_by && <span class="muted small"> · by {o.created_by.email}</span>}
              </span>
              {(admin || (canWrite && o.user.id === props.me.user.id)) && (
                <button
                  type="button"
                  class="button small danger-outline"
                  aria-label={`Remove the override of ${o.user.email ?? 'a removed user'} from ${spanIn(o.starts_at, o.ends_at, tz)}`}
                  onClick={() => remove(o)}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};
