/** The components of a status page in the editor: each one's fields, in order; add, move, remove. */
import type { Dispatch, StateUpdater } from 'preact/hooks';
import type { ComponentStatus } from '../../api-status.js';
import { ErrorBox } from '../../kit/error-box.js';
import { Field, type Problems, TextField } from '../../kit/field.js';
import { RecordPicker } from '../../kit/record-picker.js';
import { blankComponent, type ComponentDraft, componentProblems, type Source } from './component-drafts.js';
import { ComponentStatusOptions } from './status-words.js';

/** Component i of `count`: its name, group, what it shows, description; Up, Down, Remove. */
const ComponentStep = (props: {
  c: ComponentDraft;
  i: number;
  count: number;
  problems: Record<string, string>;
  onEdit: (change: Partial<ComponentDraft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) => {
  const { c, i, problems: p } = props;
  const id = `spc-${i}`;
  const label = `Component ${i + 1}`;
  const who = c.name.trim() || label;
  return (
    <fieldset class="step" aria-describedby={p.self || p.id ? `${id}-problem` : undefined}>
      <legend>{label}</legend>
      <div class="grid">
        <TextField
          id={`${id}-name`}
          label="Name"
          problem={p.name}
          maxLength={200}
          placeholder="API"
          value={c.name}
          onValue={(v) => props.onEdit({ name: v })}
        />
        <TextField
          id={`${id}-group`}
          label="Group"
          problem={p.group}
          hint="Optional: components of a group show together."
          maxLength={100}
          value={c.group}
          onValue={(v) => props.onEdit({ group: v })}
        />
        <Field id={`${id}-source`} label="Shows">
          {(a) => (
            <select
              {...a}
              value={c.source}
              onChange={(e) => props.onEdit({ source: e.currentTarget.value as Source })}
            >
              <option value="monitor">A monitor’s status</option>
              <option value="heartbeat">A heartbeat’s status</option>
              <option value="group">A group’s worst status</option>
              <option value="manual">A status set by hand</option>
            </select>
          )}
        </Field>
        {c.source === 'monitor' && (
          <RecordPicker
            id={`${id}-monitor`}
            kind="monitor"
            label="Monitor"
            value={c.monitor_id}
            problem={p.monitor_id}
            onChange={(v) => props.onEdit({ monitor_id: v })}
          />
        )}
        {c.source === 'heartbeat' && (
          <RecordPicker
            id={`${id}-heartbeat`}
            kind="heartbeat"
            label="Heartbeat"
            value={c.heartbeat_id}
            problem={p.heartbeat_id}
            onChange={(v) => props.onEdit({ heartbeat_id: v })}
          />
        )}
        {c.source === 'group' && (
          <RecordPicker
            id={`${id}-group_id`}
            kind="group"
            label="Group of monitors"
            hint="Its monitors and heartbeats: the component shows the worst of their statuses."
            value={c.group_id}
            problem={p.group_id}
            onChange={(v) => props.onEdit({ group_id: v })}
          />
        )}
        {c.source === 'manual' && (
          <Field id={`${id}-status`} label="Status" problem={p.status}>
            {(a) => (
              <select
                {...a}
                value={c.status}
                onChange={(e) =>
                  props.onEdit({
                    status: e.currentTarget.value as ComponentStatus,
                    statusChanged: true,
                  })
                }
              >
                <ComponentStatusOptions />
              </select>
            )}
          </Field>
        )}
        <TextField
          id={`${id}-description`}
          label="Description"
          problem={p.description}
          hint="Optional: shown under its name."
          class="wide"
          maxLength={1000}
          value={c.description}
          onValue={(v) => props.onEdit({ description: v })}
        />
      </div>
      {(p.self || p.id) && (
        <p class="field-problem" id={`${id}-problem`}>
          {p.self ?? p.id}
        </p>
      )}
      <div class="step-actions">
        <button
          type="button"
          id={`${id}-up`}
          class="button small"
          disabled={i === 0}
          aria-label={`Move ${who} up`}
          onClick={() => props.onMove(-1)}
        >
          ↑ Up
        </button>
        <button
          type="button"
          id={`${id}-down`}
          class="button small"
          disabled={i === props.count - 1}
          aria-label={`Move ${who} down`}
          onClick={() => props.onMove(1)}
        >
          ↓ Down
        </button>
        <button
          type="button"
          class="button small danger-outline"
          aria-label={`Remove ${who}`}
          onClick={props.onRemove}
        >
          Remove
        </button>
      </div>
    </fieldset>
  );
};

/** The "Components" part of the editor's form; problems named by a component's place go when the list changes. */
export const ComponentsFieldset = (props: {
  components: ComponentDraft[];
  setComponents: Dispatch<StateUpdater<ComponentDraft[]>>;
  problems: Problems;
  setProblems: Dispatch<StateUpdater<Problems>>;
}) => {
  const { components, setComponents } = props;
  /** Problems the API named by a component's place in the list no longer fit once the list changes. */
  const forgetComponentProblems = () =>
    props.setProblems((p) =>
      Object.fromEntries(Object.entries(p).filter(([k]) => !k.startsWith('components['))),
    );
  const edit = (i: number, change: Partial<ComponentDraft>) =>
    setComponents((list) => list.map((c, j) => (j === i ? { ...c, ...change } : c)));
  const move = (i: number, by: -1 | 1) => {
    forgetComponentProblems();
    setComponents((list) => {
      const next = [...list];
      [next[i], next[i + by]] = [next[i + by]!, next[i]!];
      return next;
    });
    // Keep the keyboard where it was: on the same button of the component that moved (or its other one at an end).
    const to = i + by;
    requestAnimationFrame(() => {
      const wanted = document.getElementById(
        `spc-${to}-${by < 0 ? 'up' : 'down'}`,
      ) as HTMLButtonElement | null;
      const other = document.getElementById(
        `spc-${to}-${by < 0 ? 'down' : 'up'}`,
      ) as HTMLButtonElement | null;
      (wanted && !wanted.disabled ? wanted : other)?.focus();
    });
  };
  const add = () => {
    setComponents((list) => [...list, blankComponent()]);
    const at = components.length;
    requestAnimationFrame(() => document.getElementById(`spc-${at}-name`)?.focus());
  };

  return (
    <fieldset>
      <legend>Components</legend>
      <ErrorBox message={props.problems.components} />
      {components.length === 0 && (
        <p class="muted">No components yet: add the parts of your service your customers know.</p>
      )}
      <ol class="steps">
        {components.map((c, i) => (
          <li key={c.key}>
            <ComponentStep
              c={c}
              i={i}
              count={components.length}
              problems={componentProblems(props.problems, i)}
              onEdit={(change) => edit(i, change)}
              onMove={(by) => move(i, by)}
              onRemove={() => {
                forgetComponentProblems();
                setComponents((list) => list.filter((_, j) => j !== i));
              }}
            />
          </li>
        ))}
      </ol>
      <button type="button" class="button" onClick={add}>
        Add component
      </button>
    </fieldset>
  );
};
