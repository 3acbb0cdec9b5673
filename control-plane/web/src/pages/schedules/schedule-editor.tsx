/**
 * `/schedules/new` and `/schedules/:id/edit`: a schedule's name, time zone and layers, with a live
 * preview of the next two weeks (POST /schedules/preview, once typing pauses ~300 ms) drawn by the same
 * timeline as the schedule page, so an unsaved change shows at once. What the preview or a save is
 * refused for shows beside each named field.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Me } from '../../api.js';
import {
  type Gap,
  type Schedule,
  type ScheduleInput,
  type Shift,
  schedulesApi,
  type Weekday,
} from '../../api-schedules.js';
import { ErrorBox, Loading } from '../../kit/error-box.js';
import { ErrorSummary } from '../../kit/error-summary.js';
import { type Problems, problemsOf, TextField } from '../../kit/field.js';
import { localZone, TimeZoneField } from '../../kit/time-zone-field.js';
import { followLink, navigate } from '../../router.js';
import { type LayerDraft, LayerFields, layerInput, newKey } from './layer-fields.js';
import { previewRows, useWorkspaceUsers, withNamed } from './people.js';
import { Timeline, type TimelineRow } from './timeline.js';
import { toLocalInput } from './zone.js';

const PREVIEW_DELAY_MS = 300;
const MAX_LAYERS = 10;

/** A new layer: daily at 09:00 from today's, the person editing first in line. */
const blankLayer = (tz: string, userId: string | null): LayerDraft => {
  const today = new Date();
  today.setHours(9, 0, 0, 0);
  return {
    key: newKey(),
    name: '',
    users: userId ? [userId] : [],
    rotation: 'daily',
    shift_hours: '12',
    handoff: '09:00',
    handoff_day: 'mon',
    starts_at: toLocalInput(today.toISOString(), tz).replace(/T.*/, 'T09:00'),
    restrictions: [],
  };
};

const draftsOf = (s: Schedule): LayerDraft[] =>
  s.layers.map((l) => ({
    key: newKey(),
    name: l.name,
    users: [...l.users],
    rotation: l.rotation,
    shift_hours: l.shift_seconds ? String(l.shift_seconds / 3600) : '12',
    handoff: l.handoff,
    handoff_day: (l.handoff_day ?? 'mon') as Weekday,
    starts_at: toLocalInput(l.starts_at, s.timezone),
    restrictions: l.restrictions.map((r) => ({ ...r, days: [...r.days] as Weekday[] })),
  }));

interface Preview {
  rows: TimelineRow[];
  gaps: Gap[];
  final: Shift[];
}

/**
 * A save's problems once the preview has judged the same layers again: only what the preview does not
 * judge (the name, sent to it as a placeholder when empty) stays; the preview's own problems show instead.
 */
const judgedByName = (p: Problems): Problems =>
  Object.keys(p).every((k) => k === 'name' || k === 'form')
    ? p
    : Object.fromEntries(Object.entries(p).filter(([k]) => k === 'name' || k === 'form'));

const Editor = (props: { me: Me; initial?: Schedule }) => {
  const s = props.initial;
  const [name, setName] = useState(s?.name ?? '');
  const [tz, setTz] = useState(s?.timezone ?? localZone());
  const [layers, setLayers] = useState<LayerDraft[]>(() =>
    s ? draftsOf(s) : [blankLayer(localZone(), props.me.user.id)],
  );
  const [problems, setProblems] = useState<Problems>({});
  const [previewProblems, setPreviewProblems] = useState<Problems>({});
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewBusy, setPreviewBusy] = useState(false);
  const [busy, setBusy] = useState(false);
  const users = withNamed(useWorkspaceUsers(props.me), preview?.rows.flatMap((r) => r.shifts) ?? []);
  const gen = useRef(0);

  const body = (): ScheduleInput => ({ name, timezone: tz, layers: layers.map((l) => layerInput(l, tz)) });
  const bodyKey = JSON.stringify(body());

  useEffect(() => {
    const mine = ++gen.current;
    setPreviewBusy(true);
    const t = setTimeout(() => {
      const b = body();
      previewRows({ ...b, name: b.name.trim() || 'Preview' }, s?.id).then(
        (p) => {
          if (mine !== gen.current) return;
          setPreview(p);
          setPreviewProblems({});
          setPreviewBusy(false);
          setProblems(judgedByName);
        },
        (e) => {
          if (mine !== gen.current) return;
          setProblems(judgedByName);
          setPreviewProblems(
            e instanceof ApiError && e.details.length ? problemsOf(e) : { form: problemsOf(e).form },
          );
          setPreviewBusy(false);
        },
      );
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(t);
  }, [bodyKey]);

  const shown: Problems = { ...previewProblems, ...problems };
  delete shown.form;
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const saved = s
        ? await schedulesApi.updateSchedule(s.id, body())
        : await schedulesApi.createSchedule(body());
      navigate(`/schedules/${saved.id}`);
    } catch (err) {
      setProblems(problemsOf(err));
      setBusy(false);
    }
  };
  const edit = (i: number, d: LayerDraft) => setLayers((ls) => ls.map((x, j) => (j === i ? d : x)));
  const move = (i: number, by: -1 | 1) =>
    setLayers((ls) => {
      const next = [...ls];
      [next[i], next[i + by]] = [next[i + by]!, next[i]!];
      return next;
    });
  const title = s ? `Edit ${s.name}` : 'New schedule';
  return (
    <div class="schedule-editor">
      <form onSubmit={submit} noValidate aria-label={title} class="panel">
        <ErrorSummary problems={problems} />
        <div class="form-row">
          <TextField
            id="schedule-name"
            label="Name"
            class="grow"
            problem={shown.name}
            maxLength={100}
            placeholder="e.g. Primary"
            value={name}
            onValue={setName}
          />
          <TimeZoneField id="schedule-tz" problem={shown.timezone} value={tz} onValue={setTz} />
        </div>
        <ErrorBox message={shown.layers} />
        {layers.map((l, i) => (
          <LayerFields
            key={l.key}
            index={i}
            count={layers.length}
            value={l}
            users={users}
            problems={shown}
            onValue={(d) => edit(i, d)}
            onMove={(by) => move(i, by)}
            onRemove={() => setLayers((ls) => ls.filter((_, j) => j !== i))}
          />
        ))}
        <button
          type="button"
          class="button"
          disabled={layers.length >= MAX_LAYERS}
          onClick={() => setLayers((ls) => [...ls, blankLayer(tz, null)])}
        >
          Add layer
        </button>
        <p class="hint">A later layer wins where it covers the time: put the fallback first.</p>
        <div class="form-actions spaced">
          <button type="submit" class="button primary" disabled={busy}>
            {s ? 'Save schedule' : 'Create schedule'}
          </button>
          <button
            type="button"
            class="button"
            onClick={() => navigate(s ? `/schedules/${s.id}` : '/schedules')}
          >
            Cancel
          </button>
        </div>
      </form>
      <section class="panel schedule-preview" aria-labelledby="preview-title">
        <h2 id="preview-title">Preview: the next 14 days</h2>
        <p class="hint tight" role="status">
          {previewBusy
            ? 'Updating the preview…'
            : Object.keys(previewProblems).length
              ? 'The preview shows the last layers that worked; fix what is marked.'
              : 'Unsaved changes show here at once.'}
        </p>
        <ErrorBox message={previewProblems.form} />
        {preview && (
          <Timeline tz={tz} rows={preview.rows} gaps={preview.gaps} label="Preview" busy={previewBusy} />
        )}
      </section>
    </div>
  );
};

/** The editor page: a new schedule, or a saved one loaded first. */
export const ScheduleEditorPage = (props: { me: Me; id?: string }) => {
  const [schedule, setSchedule] = useState<Schedule | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (props.id)
      schedulesApi
        .getSchedule(props.id)
        .then(setSchedule, (e) => setError(problemsOf(e).form ?? 'Not found.'));
  }, [props.id]);
  const title = props.id ? (schedule ? `Edit ${schedule.name}` : 'Edit schedule') : 'New schedule';
  if (props.me.user.role === 'viewer')
    return (
      <section class="page">
        <h1>{title}</h1>
        <p>Viewers read schedules; members and admins edit them.</p>
      </section>
    );
  return (
    <section class="page">
      <p class="crumb">
        <a href="/schedules" onClick={followLink}>
          Schedules
        </a>
      </p>
      <h1>{title}</h1>
      {props.id && !schedule ? (
        <Loading error={error} />
      ) : (
        <Editor me={props.me} {...(schedule ? { initial: schedule } : {})} />
      )}
    </section>
  );
};
