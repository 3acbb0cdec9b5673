/**
 * `/settings/my-shifts`: my next shifts across schedules (GET /me/shifts), a calendar of them to
 * subscribe to, and my handoff notices (how long before a shift starts I am told).
 */
import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../../api.js';
import { type MyShift, type ShiftSource, schedulesApi } from '../../api-schedules.js';
import { ErrorBox, Loading } from '../../kit/error-box.js';
import { ErrorSummary } from '../../kit/error-summary.js';
import { type Problems, problemsOf, TextField } from '../../kit/field.js';
import { FormActions } from '../../kit/form-actions.js';
import { localZone } from '../../kit/time-zone-field.js';
import { followLink } from '../../router.js';
import { CalendarSubscribe } from './schedule-history.js';
import { spanIn } from './zone.js';

export const sourceText = (s: ShiftSource) =>
  s.kind === 'override'
    ? `override${s.created_by ? ` by ${s.created_by.email ?? 'a removed user'}` : ''}`
    : `layer ${s.layer}${s.layer_name ? ` (${s.layer_name})` : ''}`;

const HandoffNoticesForm = () => {
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [lead, setLead] = useState('60');
  const [problems, setProblems] = useState<Problems>({});
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    schedulesApi.handoffNotices().then(
      (h) => {
        setEnabled(h.enabled);
        setLead(String(h.lead_minutes));
      },
      (e) => setProblems(problemsOf(e)),
    );
  }, []);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setSaved(false);
    try {
      await schedulesApi.setHandoffNotices({ enabled: Boolean(enabled), lead_minutes: Number(lead) });
      setProblems({});
      setSaved(true);
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Handoff notices" class="panel-body">
      <ErrorSummary problems={problems} />
      <label class="check">
        <input
          type="checkbox"
          checked={Boolean(enabled)}
          disabled={enabled === null}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
        />
        Tell me before each of my shifts starts, and when it starts
      </label>
      <TextField
        id="handoff-lead"
        label="How long before (minutes)"
        hint="5 minutes to 7 days (10080). Through your verified contact methods and your email."
        type="number"
        min={5}
        max={10080}
        problem={problems.lead_minutes}
        value={lead}
        onValue={setLead}
      />
      {saved && (
        <p class="ok-box" role="status">
          Saved.
        </p>
      )}
      <FormActions busy={busy} submit="Save handoff notices" />
    </form>
  );
};

export const MyShiftsPage = (props: { me: Me }) => {
  const [shifts, setShifts] = useState<MyShift[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const tz = localZone();
  useEffect(() => {
    schedulesApi.myShifts().then(
      (r) => setShifts(r.data),
      (e) => setError(problemsOf(e).form ?? 'That did not work.'),
    );
  }, []);
  return (
    <section class="page">
      <h1>My shifts</h1>
      <p class="lead">
        Your on-call shifts in the next 30 days across every schedule ({props.me.user.email}), times in {tz}.
      </p>
      <section class="panel flush" aria-labelledby="my-shifts-title">
        <div class="panel-head">
          <h2 id="my-shifts-title">Next shifts</h2>
        </div>
        <ErrorBox message={error} inset />
        {!shifts && !error && (
          <div class="panel-body">
            <Loading />
          </div>
        )}
        {shifts && shifts.length === 0 && <p class="empty">No shifts in the next 30 days.</p>}
        {shifts && shifts.length > 0 && (
          <ul class="shift-list" aria-label="My next shifts">
            {shifts.map((s) => (
              <li key={`${s.schedule.id}-${s.starts_at}`}>
                <span class="grow">
                  <strong>{spanIn(s.starts_at, s.ends_at, tz)}</strong>
                </span>
                <a href={`/schedules/${s.schedule.id}`} onClick={followLink}>
                  {s.schedule.name}
                </a>
                <span class="muted small">{sourceText(s.source)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section class="panel flush" aria-labelledby="my-calendar-title">
        <div class="panel-head">
          <h2 id="my-calendar-title">My calendar</h2>
        </div>
        <CalendarSubscribe
          what="your shifts"
          create={() => schedulesApi.myCalendar()}
          revoke={() => schedulesApi.revokeMyCalendar()}
        />
      </section>
      <section class="panel flush" aria-labelledby="handoff-title">
        <div class="panel-head">
          <h2 id="handoff-title">Handoff notices</h2>
        </div>
        <HandoffNoticesForm />
      </section>
    </section>
  );
};
