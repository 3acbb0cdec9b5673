/**
 * `/schedules/:id`: who is on call now and next, the next 14 days as a timeline (a row per layer, the
 * overrides, the final row with its gaps), the overrides and their form, shift offers, the calendar
 * address and the schedule's history.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../../api.js';
import {
  type OnCall,
  type ScheduleDetail,
  type ScheduleInput,
  type Shift,
  schedulesApi,
  type Weekday,
} from '../../api-schedules.js';
import { Confirm } from '../../kit/confirm.js';
import { ErrorBox, Loading } from '../../kit/error-box.js';
import { problemsOf } from '../../kit/field.js';
import { followLink, navigate } from '../../router.js';
import { previewRows, rowsFromFinal, useWorkspaceUsers, withNamed } from './people.js';
import { CalendarPanel, HistoryPanel } from './schedule-history.js';
import { OffersPanel } from './schedule-offers.js';
import { OverridesPanel } from './schedule-overrides.js';
import { Timeline, type TimelineRow } from './timeline.js';
import { whenIn } from './zone.js';

/** The on-call card: now (until when), next (from when). */
export const OnCallNow = (props: { onCall: OnCall | null; tz: string }) => {
  const o = props.onCall;
  if (!o) return null;
  return (
    <dl class="on-call-now" aria-label="Who is on call">
      <div>
        <dt>On call now</dt>
        <dd>{o.user ? o.user.email : <span class="warn-text">Nobody</span>}</dd>
        {o.until && <dd class="muted small">until {whenIn(o.until, props.tz)}</dd>}
      </div>
      <div>
        <dt>Next</dt>
        <dd>{o.next ? o.next.user.email : <span class="muted">Nobody in the next 90 days</span>}</dd>
        {o.next && <dd class="muted small">from {whenIn(o.next.starts_at, props.tz)}</dd>}
      </div>
    </dl>
  );
};

export const SchedulePage = (props: { me: Me; id: string }) => {
  const canWrite = props.me.user.role !== 'viewer';
  const [s, setS] = useState<ScheduleDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [onCall, setOnCall] = useState<OnCall | null>(null);
  const [rows, setRows] = useState<TimelineRow[] | null>(null);
  const [final, setFinal] = useState<Shift[]>([]);
  const [gaps, setGaps] = useState<ScheduleDetail['gaps']>([]);
  const [deleting, setDeleting] = useState(false);
  const [version, setVersion] = useState(0);
  const known = withNamed(useWorkspaceUsers(props.me), final);

  const load = async () => {
    try {
      const detail = await schedulesApi.getSchedule(props.id);
      setS(detail);
      setGaps(detail.gaps ?? []);
      schedulesApi.onCall(props.id).then(setOnCall, () => {});
      if (canWrite) {
        const p = await previewRows(scheduleBody(detail), detail.id);
        setRows(p.rows);
        setFinal(p.final);
        setGaps(p.gaps);
      } else {
        const shifts = await schedulesApi.shifts(props.id);
        setFinal(shifts.data);
        setRows(
          rowsFromFinal(
            detail.layers.map((l, i) => l.name || `Layer ${i + 1}`),
            shifts.data,
          ),
        );
      }
    } catch (e) {
      setError(problemsOf(e).form ?? 'That did not work.');
    }
  };
  useEffect(() => {
    void load();
  }, [props.id, version]);
  const changed = () => setVersion((v) => v + 1);

  if (!s)
    return (
      <section class="page">
        <Loading error={error} />
      </section>
    );
  return (
    <section class="page">
      <p class="crumb">
        <a href="/schedules" onClick={followLink}>
          Schedules
        </a>
      </p>
      <div class="page-head">
        <h1>{s.name}</h1>
        {canWrite && (
          <div class="actions-row">
            <a class="button" href={`/schedules/${s.id}/edit`} onClick={followLink}>
              Edit schedule
            </a>
            <button type="button" class="button danger-outline" onClick={() => setDeleting(true)}>
              Delete schedule
            </button>
          </div>
        )}
      </div>
      <p class="lead">
        {s.layers.length} {s.layers.length === 1 ? 'layer' : 'layers'}, times in {s.timezone}.
      </p>
      <ErrorBox message={error} />
      <OnCallNow onCall={onCall} tz={s.timezone} />
      <section class="panel" aria-labelledby="timeline-title">
        <h2 id="timeline-title">The next 14 days</h2>
        {rows ? <Timeline tz={s.timezone} rows={rows} gaps={gaps ?? []} /> : <Loading />}
      </section>
      <OverridesPanel me={props.me} schedule={s} users={known} onChange={changed} version={version} />
      <OffersPanel
        me={props.me}
        schedule={s}
        users={known}
        shifts={final}
        onChange={changed}
        version={version}
      />
      {canWrite && <CalendarPanel scheduleId={s.id} />}
      <HistoryPanel scheduleId={s.id} tz={s.timezone} version={version} />
      {deleting && (
        <Confirm
          title={`Delete “${s.name}”?`}
          body="Its layers, overrides, offers and history go with it. This cannot be undone."
          action="Delete"
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            await schedulesApi.deleteSchedule(s.id);
            navigate('/schedules');
          }}
        />
      )}
    </section>
  );
};

/** A saved schedule as a create body (what the preview takes): optional fields only where set. */
export const scheduleBody = (s: ScheduleDetail): ScheduleInput => ({
  name: s.name,
  timezone: s.timezone,
  layers: s.layers.map((l) => ({
    name: l.name,
    users: l.users,
    rotation: l.rotation,
    ...(l.shift_seconds ? { shift_seconds: l.shift_seconds } : {}),
    handoff: l.handoff,
    ...(l.handoff_day ? { handoff_day: l.handoff_day as Weekday } : {}),
    starts_at: l.starts_at,
    restrictions: l.restrictions.map((r) => ({ ...r, days: r.days as Weekday[] })),
  })),
});
