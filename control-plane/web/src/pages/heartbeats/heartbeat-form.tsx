import { useState } from 'preact/hooks';
import { ApiError } from '../../api.js';
import { tagsOf, tagsText } from '../../api-groups.js';
import type { Heartbeat, HeartbeatEdit } from '../../api-routing.js';
import { DependsOnField } from '../../kit/depends-on-field.js';
import { ErrorSummary } from '../../kit/error-summary.js';
import { Field, type Problems, problemsOf, TextField } from '../../kit/field.js';
import { FormActions } from '../../kit/form-actions.js';
import { LabelFields, type Labels, tagsProblem } from '../../kit/label-fields.js';
import { localZone, TimeZoneField } from '../../kit/time-zone-field.js';
import { PolicyOptions, usePolicies } from '../../routing-ui.js';

/** The API counts seconds; the form counts minutes, and so do its messages. */
const minutesMessage = (m: string | undefined) =>
  m?.replace(/(at (?:least|most)) (\d+)$/, (_, w: string, n: string) => {
    const s = Number(n);
    return s % 60 === 0 ? `${w} ${s / 60} minute${s === 60 ? '' : 's'}` : `${w} ${s} seconds`;
  });

const minutes = (v: string) => (v.trim() === '' ? undefined : Math.round(Number(v) * 60));

/** Name, period or cron schedule (with its zone), grace, slug and policy: the create form and the edit form. */
export const HeartbeatForm = (props: {
  initial?: Heartbeat;
  submit: string;
  onSubmit: (body: HeartbeatEdit) => Promise<void>;
  onCancel?: () => void;
}) => {
  const i = props.initial;
  const [name, setName] = useState(i?.display_name ?? '');
  const [mode, setMode] = useState<'period' | 'cron'>(i?.schedule ? 'cron' : 'period');
  const [period, setPeriod] = useState(i?.period_seconds ? String(i.period_seconds / 60) : '1440');
  const [schedule, setSchedule] = useState(i?.schedule ?? '0 3 * * *');
  const [timezone, setTimezone] = useState(i?.schedule ? i.timezone : localZone());
  const [slug, setSlug] = useState(i?.slug ?? '');
  const [grace, setGrace] = useState(i ? String(i.grace_seconds / 60) : '60');
  const [policy, setPolicy] = useState(i?.escalation_policy_id ?? '');
  const [labels, setLabels] = useState<Labels>({
    group_id: i?.group_id ?? '',
    tags: tagsText(i?.tags),
    severity: i?.severity ?? 'critical',
  });
  const [dependsOn, setDependsOn] = useState(i?.dependencies ?? []);
  const policies = usePolicies();
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const body: HeartbeatEdit = {
        display_name: name,
        ...(mode === 'cron' ? { schedule, timezone } : { period_seconds: minutes(period) }),
        // Emptied on an edit: the slug is removed (a create simply has none).
        ...(slug.trim() ? { slug: slug.trim() } : i?.slug ? { slug: null } : {}),
        grace_seconds: minutes(grace),
        ...(policy ? { escalation_policy_id: policy } : {}),
        ...(labels.group_id || i?.group_id ? { group_id: labels.group_id || null } : {}),
        tags: tagsOf(labels.tags),
        severity: labels.severity,
        ...(dependsOn.length > 0 || i?.depends_on?.length ? { depends_on: dependsOn.map((x) => x.id) } : {}),
      };
      await props.onSubmit(body);
      setProblems({});
    } catch (err) {
      const tags = err instanceof ApiError ? tagsProblem(err.details, tagsOf(labels.tags)) : undefined;
      setProblems({ ...problemsOf(err), tags });
    } finally {
      setBusy(false);
    }
  };
  const prefix = i ? 'edit-hb' : 'new-hb';
  return (
    <form class="create-form" onSubmit={submit} noValidate aria-label={props.submit}>
      <ErrorSummary problems={problems} />
      <TextField
        id={`${prefix}-name`}
        label="Name"
        problem={problems.display_name}
        class="grow"
        maxLength={200}
        placeholder="e.g. Nightly backup"
        value={name}
        onValue={setName}
      />
      <Field id={`${prefix}-mode`} label="Expect pings">
        {(a) => (
          <select
            {...a}
            value={mode}
            onChange={(e) => setMode(e.currentTarget.value === 'cron' ? 'cron' : 'period')}
          >
            <option value="period">Every period</option>
            <option value="cron">On a cron schedule</option>
          </select>
        )}
      </Field>
      {mode === 'period' ? (
        <TextField
          id={`${prefix}-period`}
          label="Period (minutes)"
          problem={minutesMessage(problems.period_seconds)}
          hint="How often the job runs."
          type="number"
          min={1}
          inputMode="numeric"
          value={period}
          onValue={setPeriod}
        />
      ) : (
        <>
          <TextField
            id={`${prefix}-schedule`}
            label="Cron schedule"
            problem={problems.schedule}
            hint="Five fields or @hourly, @daily, @weekly, @monthly."
            placeholder="0 3 * * 1-5"
            value={schedule}
            onValue={setSchedule}
          />
          <TimeZoneField
            id={`${prefix}-timezone`}
            problem={problems.timezone}
            value={timezone}
            onValue={setTimezone}
          />
        </>
      )}
      <TextField
        id={`${prefix}-grace`}
        label="Grace (minutes)"
        problem={minutesMessage(problems.grace_seconds)}
        hint="How late a ping may be."
        type="number"
        min={0}
        inputMode="numeric"
        value={grace}
        onValue={setGrace}
      />
      <TextField
        id={`${prefix}-slug`}
        label="Slug"
        problem={problems.slug}
        hint="Optional: pings at /hb/ping/{ping key}/{slug}."
        placeholder="nightly-backup"
        maxLength={100}
        value={slug}
        onValue={setSlug}
      />
      <Field id={`${prefix}-policy`} label="Escalation policy" problem={problems.escalation_policy_id}>
        {(a) => (
          <select {...a} value={policy} onChange={(e) => setPolicy(e.currentTarget.value)}>
            {!i && <option value="">Workspace default</option>}
            <PolicyOptions policies={policies} />
          </select>
        )}
      </Field>
      <LabelFields prefix={prefix} value={labels} problems={problems} onChange={setLabels} />
      <DependsOnField
        id={`${prefix}-depends_on`}
        self={i?.id ?? null}
        value={dependsOn}
        problem={Object.entries(problems).find(([k]) => k.startsWith('depends_on'))?.[1]}
        onChange={setDependsOn}
      />
      <FormActions submit={props.submit} busy={busy} onCancel={props.onCancel} />
    </form>
  );
};
