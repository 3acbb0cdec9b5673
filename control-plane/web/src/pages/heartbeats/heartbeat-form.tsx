import { useState } from 'preact/hooks';
import type { Heartbeat, HeartbeatInput } from '../../api-routing.js';
import { ErrorBox } from '../../kit/error-box.js';
import { Field, type Problems, problemsOf, TextField } from '../../kit/field.js';
import { FormActions } from '../../kit/form-actions.js';
import { PolicyOptions, usePolicies } from '../../routing-ui.js';

/** The API counts seconds; the form counts minutes, and so do its messages. */
const minutesMessage = (m: string | undefined) =>
  m?.replace(/(at (?:least|most)) (\d+)$/, (_, w: string, n: string) => {
    const s = Number(n);
    return s % 60 === 0 ? `${w} ${s / 60} minute${s === 60 ? '' : 's'}` : `${w} ${s} seconds`;
  });

const minutes = (v: string) => (v.trim() === '' ? undefined : Math.round(Number(v) * 60));

/** Name, period, grace and policy: the create form and the edit form. */
export const HeartbeatForm = (props: {
  initial?: Heartbeat;
  submit: string;
  onSubmit: (body: HeartbeatInput) => Promise<void>;
  onCancel?: () => void;
}) => {
  const i = props.initial;
  const [name, setName] = useState(i?.display_name ?? '');
  const [period, setPeriod] = useState(i ? String(i.period_seconds / 60) : '1440');
  const [grace, setGrace] = useState(i ? String(i.grace_seconds / 60) : '60');
  const [policy, setPolicy] = useState(i?.escalation_policy_id ?? '');
  const policies = usePolicies();
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const body: HeartbeatInput = {
        display_name: name,
        period_seconds: minutes(period),
        grace_seconds: minutes(grace),
        ...(policy ? { escalation_policy_id: policy } : {}),
      };
      await props.onSubmit(body);
      setProblems({});
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };
  const prefix = i ? 'edit-hb' : 'new-hb';
  return (
    <form class="create-form" onSubmit={submit} noValidate aria-label={props.submit}>
      <ErrorBox message={problems.form} />
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
      <Field id={`${prefix}-policy`} label="Escalation policy" problem={problems.escalation_policy_id}>
        {(a) => (
          <select {...a} value={policy} onChange={(e) => setPolicy(e.currentTarget.value)}>
            {!i && <option value="">Workspace default</option>}
            <PolicyOptions policies={policies} />
          </select>
        )}
      </Field>
      <FormActions submit={props.submit} busy={busy} onCancel={props.onCancel} />
    </form>
  );
};
