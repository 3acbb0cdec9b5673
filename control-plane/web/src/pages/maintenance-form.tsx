// The maintenance page's form: a window once (start, end) or on a cron schedule (zone, duration), for any scope.
import { useState } from 'preact/hooks';
import type { MaintenanceInput, MaintenanceScope, MaintenanceWindow } from '../api-routing.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { Field, type Problems, problemsOf, TextField } from '../kit/field.js';
import { FormActions } from '../kit/form-actions.js';
import { RecordPicker } from '../kit/record-picker.js';
import { localZone, TimeZoneField } from '../kit/time-zone-field.js';

/** The browser's time zone, in which one-off times are entered and shown. */
export const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A Date as a datetime-local value, in the browser's zone. */
const localInput = (d: Date) => {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
};
/** A datetime-local value (the browser's zone) as ISO UTC, or '' when empty or invalid. */
const isoOf = (local: string) => {
  const d = new Date(local);
  return local && !Number.isNaN(d.getTime()) ? d.toISOString() : '';
};

export const SCOPE_LABEL: Record<MaintenanceScope, string> = {
  workspace: 'Whole workspace',
  monitor: 'Monitor',
  heartbeat: 'Heartbeat',
  group: 'Group',
  tag: 'Tag',
};

/** Minutes as the form shows them; the API counts seconds. */
const minutesOf = (v: string) => (v.trim() === '' ? undefined : Math.round(Number(v) * 60));
const durationMessage = (m: string | undefined) =>
  m?.replace(/at most (\d+)/, (_, n: string) => `at most ${Number(n) / 60} minutes`);

type WindowBody = MaintenanceInput;

export const WindowForm = (props: {
  initial?: MaintenanceWindow;
  onSubmit: (body: WindowBody) => Promise<void>;
  onCancel?: () => void;
}) => {
  const i = props.initial;
  const start = () => {
    const d = new Date();
    d.setSeconds(0, 0);
    return d;
  };
  const [name, setName] = useState(i?.name ?? '');
  const [repeats, setRepeats] = useState<'once' | 'cron'>(i?.schedule ? 'cron' : 'once');
  const [scope, setScope] = useState<MaintenanceScope>(i?.scope_type ?? 'workspace');
  const [scopeId, setScopeId] = useState(i?.scope_id ?? '');
  const [starts, setStarts] = useState(localInput(i?.starts_at ? new Date(i.starts_at) : start()));
  const [ends, setEnds] = useState(
    localInput(i?.ends_at ? new Date(i.ends_at) : new Date(start().getTime() + 2 * 3_600_000)),
  );
  const [schedule, setSchedule] = useState(i?.schedule ?? '0 2 * * 0');
  const [timezone, setTimezone] = useState(i?.timezone ?? localZone());
  const [duration, setDuration] = useState(i?.duration_seconds ? String(i.duration_seconds / 60) : '120');
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      await props.onSubmit({
        name,
        scope_type: scope,
        ...(scope !== 'workspace' && scopeId ? { scope_id: scopeId.trim() } : {}),
        ...(repeats === 'cron'
          ? { schedule, timezone, duration_seconds: minutesOf(duration) as number }
          : { starts_at: isoOf(starts), ends_at: isoOf(ends) }),
      });
      setProblems({});
      if (!i) setName('');
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };
  const p = i ? `mw-${i.id}` : 'mw-new';
  return (
    <form class="create-form" onSubmit={submit} noValidate aria-label={i ? `Edit ${i.name}` : 'New window'}>
      <ErrorSummary problems={problems} />
      <TextField
        id={`${p}-name`}
        label="Name"
        problem={problems.name}
        class="grow"
        maxLength={200}
        placeholder="e.g. Database upgrade"
        value={name}
        onValue={setName}
      />
      <Field id={`${p}-repeats`} label="Repeats">
        {(a) => (
          <select
            {...a}
            value={repeats}
            disabled={!!i}
            onChange={(e) => setRepeats(e.currentTarget.value === 'cron' ? 'cron' : 'once')}
          >
            <option value="once">Once</option>
            <option value="cron">On a cron schedule</option>
          </select>
        )}
      </Field>
      <Field id={`${p}-scope`} label="Applies to" problem={problems.scope_type}>
        {(a) => (
          <select
            {...a}
            value={scope}
            disabled={!!i}
            onChange={(e) => {
              setScope(e.currentTarget.value as MaintenanceScope);
              setScopeId('');
            }}
          >
            <option value="workspace">Whole workspace</option>
            <option value="monitor">One monitor</option>
            <option value="heartbeat">One heartbeat</option>
            <option value="group">A group</option>
            <option value="tag">Everything with a tag</option>
          </select>
        )}
      </Field>
      <ScopeTarget
        p={p}
        scope={scope}
        value={scopeId}
        onChange={setScopeId}
        problem={problems.scope_id}
        disabled={!!i}
      />
      {repeats === 'once' ? (
        <>
          <TextField
            id={`${p}-starts`}
            label="Starts"
            problem={problems.starts_at}
            hint={ZONE}
            type="datetime-local"
            value={starts}
            onValue={setStarts}
          />
          <Field id={`${p}-ends`} label="Ends" problem={problems.ends_at} hint={ZONE}>
            {(a) => (
              <input
                {...a}
                type="datetime-local"
                value={ends}
                onInput={(e) => setEnds(e.currentTarget.value)}
              />
            )}
          </Field>
        </>
      ) : (
        <>
          <TextField
            id={`${p}-schedule`}
            label="Cron schedule"
            problem={problems.schedule}
            hint="When each window starts: five fields, e.g. 0 2 * * 0 is Sundays at 02:00."
            placeholder="0 2 * * 0"
            value={schedule}
            onValue={setSchedule}
          />
          <TimeZoneField
            id={`${p}-timezone`}
            problem={problems.timezone}
            value={timezone}
            onValue={setTimezone}
          />
          <TextField
            id={`${p}-duration`}
            label="Duration (minutes)"
            problem={durationMessage(problems.duration_seconds)}
            hint="How long each window lasts."
            type="number"
            min={1}
            inputMode="numeric"
            value={duration}
            onValue={setDuration}
          />
        </>
      )}
      <FormActions submit={i ? 'Save window' : 'Create window'} busy={busy} onCancel={props.onCancel} />
    </form>
  );
};

/** What a scope names: a monitor, heartbeat or group chosen by search, or a tag typed in. */
const ScopeTarget = (props: {
  p: string;
  scope: MaintenanceScope;
  value: string;
  onChange: (v: string) => void;
  problem: string | undefined;
  disabled: boolean;
}) =>
  props.scope === 'workspace' ? null : props.scope === 'tag' ? (
    <TextField
      id={`${props.p}-tag`}
      label="Tag"
      problem={props.problem}
      hint="key or key:value, e.g. env:prod"
      autoComplete="off"
      spellcheck={false}
      disabled={props.disabled}
      value={props.value}
      onValue={props.onChange}
    />
  ) : (
    <RecordPicker
      key={props.scope}
      id={`${props.p}-target`}
      kind={props.scope}
      label={SCOPE_LABEL[props.scope]}
      problem={props.problem}
      value={props.value}
      disabled={props.disabled}
      onChange={props.onChange}
    />
  );
