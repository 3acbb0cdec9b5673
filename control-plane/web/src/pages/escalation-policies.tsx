import { useEffect, useState } from 'preact/hooks';
import { api, type Me, type Member } from '../api.js';
import {
  type Channel,
  type EscalationStep,
  type Policy,
  type PolicyInput,
  routingApi,
} from '../api-routing.js';
import { Confirm } from '../kit/confirm.js';
import { ErrorBox } from '../kit/error-box.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { type Problems, problemsOf, TextField } from '../kit/field.js';
import { useList } from '../kit/paging.js';
import { AdminsOnly } from '../routing-ui.js';
import { ScheduleNames, StepSchedules } from './step-schedules.js';
import { type SupportHours, SupportHoursFields, supportHoursText } from './support-hours-fields.js';

const MAX_STEPS = 10;
/** A step as the form holds it: also the schedules it notifies (whoever is on call in each). */
type Step = EscalationStep & { notify_schedule_ids?: string[] };
const blankStep = (): Step => ({
  wait_minutes: 0,
  notify_user_ids: [],
  notify_channel_ids: [],
  notify_schedule_ids: [],
});

const toggle = (list: string[], id: string, on: boolean) =>
  on ? [...list.filter((x) => x !== id), id] : list.filter((x) => x !== id);

/** Problems the API named inside step i (`steps[1]`, `steps[1].wait_minutes`, …), as one line. */
const stepProblem = (p: Problems, i: number) =>
  Object.entries(p)
    .filter(([k, v]) => v && (k === `steps[${i}]` || k.startsWith(`steps[${i}].`)))
    .map(([k, v]) => (k === `steps[${i}]` ? v : `${k.slice(`steps[${i}].`.length)} ${v}`))
    .join('; ') || undefined;

/** The steps editor: each step waits, then notifies users and channels; add, remove, reorder. */
const PolicyForm = (props: {
  title: string;
  initial?: Policy;
  users: Member[];
  channels: Channel[];
  submit: string;
  onSubmit: (p: PolicyInput) => Promise<void>;
  onCancel: () => void;
}) => {
  const [name, setName] = useState(props.initial?.name ?? '');
  const [repeat, setRepeat] = useState(String(props.initial?.repeat ?? 0));
  const [steps, setSteps] = useState<Step[]>(props.initial?.steps.map((s) => ({ ...s })) ?? [blankStep()]);
  const [support, setSupport] = useState<SupportHours | null>(props.initial?.support_hours ?? null);
  const [makeDefault, setMakeDefault] = useState(false);
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const edit = (i: number, change: Partial<Step>) =>
    setSteps((s) => s.map((x, j) => (j === i ? { ...x, ...change } : x)));
  const move = (i: number, by: -1 | 1) =>
    setSteps((s) => {
      const next = [...s];
      [next[i], next[i + by]] = [next[i + by]!, next[i]!];
      return next;
    });
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      await props.onSubmit({
        name,
        repeat: Number(repeat),
        steps,
        support_hours: support,
        ...(makeDefault ? { is_default: true } : {}),
      });
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };
  const prefix = props.initial ? `policy-${props.initial.id}` : 'policy-new';
  return (
    <section class="panel" aria-labelledby={`${prefix}-title`}>
      <h2 id={`${prefix}-title`}>{props.title}</h2>
      <form onSubmit={submit} noValidate aria-labelledby={`${prefix}-title`}>
        <ErrorSummary problems={problems} />
        <div class="form-row">
          <TextField
            id={`${prefix}-name`}
            label="Name"
            problem={problems.name}
            class="grow"
            maxLength={200}
            value={name}
            onValue={setName}
          />
          <TextField
            id={`${prefix}-repeat`}
            label="Repeat (times)"
            problem={problems.repeat}
            hint="Run the steps again until someone acknowledges."
            type="number"
            min={0}
            max={10}
            value={repeat}
            onValue={setRepeat}
          />
        </div>
        <SupportHoursFields prefix={prefix} value={support} onValue={setSupport} problems={problems} />
        <ErrorBox message={problems.steps} />
        <ol class="steps">
          {steps.map((s, i) => {
            const problem = stepProblem(problems, i);
            const id = `${prefix}-step-${i}`;
            return (
              <li key={i}>
                <fieldset class="step" aria-describedby={problem ? `${id}-problem` : undefined}>
                  <legend>Step {i + 1}</legend>
                  <div class="step-body">
                    <div class="field step-wait">
                      <label for={`${id}-wait`}>Wait (minutes)</label>
                      <input
                        id={`${id}-wait`}
                        type="number"
                        min={0}
                        max={1440}
                        value={s.wait_minutes}
                        onInput={(e) => edit(i, { wait_minutes: Number(e.currentTarget.value) })}
                      />
                      <span class="hint tight">
                        {i === 0 ? 'after the alert opens' : 'after the step before'}
                      </span>
                    </div>
                    <div class="targets">
                      <p class="targets-title">Notify users (email)</p>
                      {props.users.map((u) => (
                        <label key={u.id} class="check">
                          <input
                            type="checkbox"
                            checked={s.notify_user_ids.includes(u.id)}
                            onChange={(e) =>
                              edit(i, {
                                notify_user_ids: toggle(s.notify_user_ids, u.id, e.currentTarget.checked),
                              })
                            }
                          />
                          {u.email}
                        </label>
                      ))}
                    </div>
                    <StepSchedules
                      id={id}
                      step={i + 1}
                      value={s.notify_schedule_ids ?? []}
                      onValue={(ids) => edit(i, { notify_schedule_ids: ids })}
                    />
                    <div class="targets">
                      <p class="targets-title">Notify channels</p>
                      {props.channels.length === 0 && <span class="muted small">No channels yet.</span>}
                      {props.channels.map((c) => (
                        <label key={c.id} class="check">
                          <input
                            type="checkbox"
                            checked={s.notify_channel_ids.includes(c.id)}
                            onChange={(e) =>
                              edit(i, {
                                notify_channel_ids: toggle(
                                  s.notify_channel_ids,
                                  c.id,
                                  e.currentTarget.checked,
                                ),
                              })
                            }
                          />
                          {c.name}
                        </label>
                      ))}
                    </div>
                  </div>
                  {problem && (
                    <p class="field-problem" id={`${id}-problem`}>
                      {problem}
                    </p>
                  )}
                  <div class="step-actions">
                    <button
                      type="button"
                      class="button small"
                      disabled={i === 0}
                      aria-label={`Move step ${i + 1} up`}
                      onClick={() => move(i, -1)}
                    >
                      ↑
                    </button>
                    <button
                      type="button"
                      class="button small"
                      disabled={i === steps.length - 1}
                      aria-label={`Move step ${i + 1} down`}
                      onClick={() => move(i, 1)}
                    >
                      ↓
                    </button>
                    <button
                      type="button"
                      class="button small danger-outline"
                      disabled={steps.length === 1}
                      onClick={() => setSteps((x) => x.filter((_, j) => j !== i))}
                    >
                      Remove step {i + 1}
                    </button>
                  </div>
                </fieldset>
              </li>
            );
          })}
        </ol>
        <button
          type="button"
          class="button"
          disabled={steps.length >= MAX_STEPS}
          onClick={() => setSteps((s) => [...s, blankStep()])}
        >
          Add step
        </button>
        {!props.initial?.is_default && (
          <label class="check default-check">
            <input
              type="checkbox"
              checked={makeDefault}
              onChange={(e) => setMakeDefault(e.currentTarget.checked)}
            />
            Make this the workspace default
          </label>
        )}
        <div class="form-actions spaced">
          <button type="submit" class="button primary" disabled={busy}>
            {props.submit}
          </button>
          <button type="button" class="button" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
};

/** `/routing/escalation-policies` (admins): policies with their steps; create, edit, default, delete. */
export const EscalationPoliciesPage = (props: { me: Me }) => {
  const [users, setUsers] = useState<Member[]>([]);
  const [channels, setChannels] = useState<Channel[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState<Policy | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Policy | null>(null);
  const admin = props.me.user.role === 'admin';

  const {
    items: policies,
    error,
    setError,
    reload: load,
  } = useList(() => routingApi.listPolicies(), { enabled: admin });
  useEffect(() => {
    if (!admin) return;
    api.listUsers().then(
      (p) => setUsers(p.data.filter((u) => u.status === 'active')),
      () => {},
    );
    routingApi.listChannels().then(
      (p) => setChannels(p.data),
      () => {},
    );
  }, []);
  if (!admin) return <AdminsOnly title="Escalation policies" />;

  const who = (s: EscalationStep) =>
    [
      ...s.notify_user_ids.map((id) => users.find((u) => u.id === id)?.email ?? 'a removed user'),
      ...s.notify_channel_ids.map((id) => channels.find((c) => c.id === id)?.name ?? 'a removed channel'),
    ].join(', ');

  const makeDefault = async (p: Policy) => {
    try {
      await routingApi.updatePolicy(p.id, { is_default: true });
      setNotice(`${p.name} is now the default policy.`);
      await load();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'That did not work.');
    }
  };

  return (
    <section class="page">
      <div class="page-head">
        <h1>Escalation policies</h1>
        {!editing && (
          <button type="button" class="button primary" onClick={() => setEditing('new')}>
            New policy
          </button>
        )}
      </div>
      <p class="lead">
        Who is told about an alert, and when: each step waits, then notifies users by email, whoever is on
        call in schedules, and channels, until someone acknowledges. New monitors and heartbeats use the
        default policy.
      </p>
      {notice && (
        <p class="ok-box" role="status">
          {notice}
        </p>
      )}
      <ErrorBox message={error} />
      {editing && (
        <PolicyForm
          key={editing === 'new' ? 'new' : editing.id}
          title={editing === 'new' ? 'New policy' : `Edit ${editing.name}`}
          {...(editing === 'new' ? {} : { initial: editing })}
          users={users}
          channels={channels}
          submit={editing === 'new' ? 'Create policy' : 'Save policy'}
          onCancel={() => setEditing(null)}
          onSubmit={async (body) => {
            if (editing === 'new') await routingApi.createPolicy(body);
            else await routingApi.updatePolicy(editing.id, body);
            setNotice(`${body.name} was ${editing === 'new' ? 'created' : 'saved'}.`);
            setEditing(null);
            await load();
          }}
        />
      )}
      <section class="panel flush" aria-labelledby="policies-title">
        <div class="panel-head">
          <h2 id="policies-title">Policies</h2>
        </div>
        {policies && (
          <div class="table-wrap">
            <table class="keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Steps</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {policies.map((p) => (
                  <tr key={p.id}>
                    <th scope="row" class="key-name">
                      {p.name} {p.is_default && <span class="badge active">Default</span>}
                    </th>
                    <td data-label="Steps" class="wrap">
                      <span>
                        {p.steps.length} {p.steps.length === 1 ? 'step' : 'steps'}
                        {p.repeat ? `, repeated ${p.repeat}×` : ''}
                        {p.support_hours ? `; warnings ${supportHoursText(p.support_hours)}` : ''}
                      </span>
                      <ol class="step-summary">
                        {p.steps.map((s, i) => (
                          <li key={i}>
                            {s.wait_minutes ? `after ${s.wait_minutes} min: ` : 'at once: '}
                            {who(s)}
                            {who(s) && (s as Step).notify_schedule_ids?.length ? ', ' : ''}
                            <ScheduleNames ids={(s as Step).notify_schedule_ids} />
                          </li>
                        ))}
                      </ol>
                    </td>
                    <td class="actions">
                      <button
                        type="button"
                        class="button small"
                        aria-label={`Edit ${p.name}`}
                        onClick={() => setEditing(p)}
                      >
                        Edit
                      </button>
                      {!p.is_default && (
                        <button
                          type="button"
                          class="button small"
                          aria-label={`Make ${p.name} the default`}
                          onClick={() => makeDefault(p)}
                        >
                          Make default
                        </button>
                      )}
                      <button
                        type="button"
                        class="button small danger-outline"
                        aria-label={`Delete ${p.name}`}
                        onClick={() => setDeleting(p)}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {deleting && (
        <Confirm
          title={`Delete “${deleting.name}”?`}
          body="Alerts already escalating under it finish their current step. This cannot be undone."
          action="Delete"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await routingApi.deletePolicy(deleting.id);
            setNotice(`${deleting.name} was deleted.`);
            await load();
          }}
        />
      )}
    </section>
  );
};
