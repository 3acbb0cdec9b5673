/**
 * One layer of the schedule editor: its name, its users in rotation order, the rotation (daily, weekly
 * or custom hours), the handoff, when it starts, and its restrictions (days and times a row). Problems
 * the API named (`layers[1].restrictions[0].end`) show beside their field.
 */
import type { LayerInput, Restriction, Rotation, UserRef, Weekday } from '../../api-schedules.js';
import { Field, type Problems, TextField } from '../../kit/field.js';
import { fromLocalInput } from './zone.js';

export const WEEKDAYS: [Weekday, string][] = [
  ['mon', 'Mon'],
  ['tue', 'Tue'],
  ['wed', 'Wed'],
  ['thu', 'Thu'],
  ['fri', 'Fri'],
  ['sat', 'Sat'],
  ['sun', 'Sun'],
];

/** A layer as the form holds it: times as typed, the start as the schedule's clock reads it. */
export interface LayerDraft {
  key: number;
  name: string;
  users: string[];
  rotation: Rotation;
  shift_hours: string;
  handoff: string;
  handoff_day: Weekday;
  starts_at: string;
  restrictions: Restriction[];
}

let keys = 0;
export const newKey = () => ++keys;

/** What the API takes for a draft: `shift_seconds` only for custom, `handoff_day` only for weekly. */
export const layerInput = (d: LayerDraft, tz: string): LayerInput => ({
  ...(d.name.trim() ? { name: d.name.trim() } : {}),
  users: d.users,
  rotation: d.rotation,
  ...(d.rotation === 'custom' ? { shift_seconds: Math.round(Number(d.shift_hours || 0) * 3600) } : {}),
  handoff: d.handoff,
  ...(d.rotation === 'weekly' ? { handoff_day: d.handoff_day } : {}),
  starts_at: fromLocalInput(d.starts_at, tz) || d.starts_at,
  restrictions: d.restrictions,
});

/** The problems the API named under `prefix` (`layers[1].users[0]`, …) as one line, else undefined. */
export const problemsUnder = (p: Problems, prefix: string) =>
  Object.entries(p)
    .filter(([k, v]) => v && (k === prefix || k.startsWith(`${prefix}[`) || k.startsWith(`${prefix}.`)))
    .map(([, v]) => v)
    .join(' ') || undefined;

const RestrictionFields = (props: {
  id: string;
  n: number;
  value: Restriction;
  problems: Problems;
  path: string;
  onValue: (r: Restriction) => void;
  onRemove: () => void;
}) => {
  const r = props.value;
  const daysProblem = problemsUnder(props.problems, `${props.path}.days`);
  return (
    <fieldset class="restriction">
      <legend>Restriction {props.n}</legend>
      <fieldset class="days" aria-describedby={daysProblem ? `${props.id}-days-problem` : undefined}>
        <legend class="visually-hidden">Days</legend>
        {WEEKDAYS.map(([d, label]) => (
          <label key={d} class="check">
            <input
              type="checkbox"
              checked={r.days.includes(d)}
              onChange={(e) =>
                props.onValue({
                  ...r,
                  days: e.currentTarget.checked
                    ? WEEKDAYS.map(([x]) => x).filter((x) => x === d || r.days.includes(x))
                    : r.days.filter((x) => x !== d),
                })
              }
            />
            {label}
          </label>
        ))}
        {daysProblem && (
          <span class="field-problem" id={`${props.id}-days-problem`}>
            {daysProblem}
          </span>
        )}
      </fieldset>
      <TextField
        id={`${props.id}-start`}
        label="From"
        problem={props.problems[`${props.path}.start`]}
        placeholder="09:00"
        inputMode="numeric"
        maxLength={5}
        size={6}
        value={r.start}
        onValue={(start) => props.onValue({ ...r, start })}
      />
      <TextField
        id={`${props.id}-end`}
        label="Until"
        problem={props.problems[`${props.path}.end`]}
        placeholder="17:00"
        inputMode="numeric"
        maxLength={5}
        size={6}
        value={r.end}
        onValue={(end) => props.onValue({ ...r, end })}
      />
      <button type="button" class="button small danger-outline" onClick={props.onRemove}>
        Remove restriction {props.n}
      </button>
    </fieldset>
  );
};

export const LayerFields = (props: {
  index: number;
  count: number;
  value: LayerDraft;
  users: UserRef[];
  problems: Problems;
  onValue: (d: LayerDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) => {
  const d = props.value;
  const i = props.index;
  const n = i + 1;
  const path = `layers[${i}]`;
  const id = `layer-${d.key}`;
  const set = (change: Partial<LayerDraft>) => props.onValue({ ...d, ...change });
  const emailOf = (uid: string) =>
    props.users.find((u) => u.id === uid)?.email ?? 'a user no longer in the workspace';
  const usersProblem = problemsUnder(props.problems, `${path}.users`);
  const restrictionsProblem = props.problems[`${path}.restrictions`];
  const others = props.users.filter((u) => !d.users.includes(u.id));
  return (
    <fieldset class="layer">
      <legend>Layer {n}</legend>
      <div class="form-row">
        <TextField
          id={`${id}-name`}
          label="Name"
          class="grow"
          problem={props.problems[`${path}.name`]}
          maxLength={100}
          placeholder={`Layer ${n}`}
          value={d.name}
          onValue={(name) => set({ name })}
        />
      </div>
      <div class="field">
        <span class="label" id={`${id}-users-title`}>
          Users, in rotation order
        </span>
        {d.users.length === 0 && <p class="muted small">Nobody yet.</p>}
        <ol class="rotation-users" aria-labelledby={`${id}-users-title`}>
          {d.users.map((uid, j) => (
            <li key={uid}>
              <span class="muted" aria-hidden="true">
                {j + 1}.
              </span>
              <span class="email">{emailOf(uid)}</span>
              <button
                type="button"
                class="button small"
                disabled={j === 0}
                aria-label={`Move ${emailOf(uid)} earlier in layer ${n}`}
                onClick={() => {
                  const users = [...d.users];
                  [users[j - 1], users[j]] = [users[j]!, users[j - 1]!];
                  set({ users });
                }}
              >
                ↑
              </button>
              <button
                type="button"
                class="button small danger-outline"
                aria-label={`Remove ${emailOf(uid)} from layer ${n}`}
                onClick={() => set({ users: d.users.filter((x) => x !== uid) })}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
        <Field id={`${id}-add-user`} label="Add user" problem={usersProblem}>
          {(a) => (
            <select
              {...a}
              value=""
              onChange={(e) => {
                const v = e.currentTarget.value;
                if (v) set({ users: [...d.users, v] });
                e.currentTarget.value = '';
              }}
            >
              <option value="">{others.length ? 'Choose a user…' : 'Everyone is in this layer'}</option>
              {others.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.email}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div class="form-row">
        <Field id={`${id}-rotation`} label="Rotation" problem={props.problems[`${path}.rotation`]}>
          {(a) => (
            <select
              {...a}
              value={d.rotation}
              onChange={(e) => set({ rotation: e.currentTarget.value as Rotation })}
            >
              <option value="daily">Daily</option>
              <option value="weekly">Weekly</option>
              <option value="custom">Custom length</option>
            </select>
          )}
        </Field>
        {d.rotation === 'custom' && (
          <TextField
            id={`${id}-hours`}
            label="Shift length (hours)"
            type="number"
            min={0.5}
            step={0.5}
            problem={props.problems[`${path}.shift_seconds`]}
            value={d.shift_hours}
            onValue={(shift_hours) => set({ shift_hours })}
          />
        )}
        <TextField
          id={`${id}-handoff`}
          label="Handoff time"
          type="time"
          problem={props.problems[`${path}.handoff`]}
          value={d.handoff}
          onValue={(handoff) => set({ handoff })}
        />
        {d.rotation === 'weekly' && (
          <Field id={`${id}-day`} label="Handoff day" problem={props.problems[`${path}.handoff_day`]}>
            {(a) => (
              <select
                {...a}
                value={d.handoff_day}
                onChange={(e) => set({ handoff_day: e.currentTarget.value as Weekday })}
              >
                {WEEKDAYS.map(([v, label]) => (
                  <option key={v} value={v}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <TextField
          id={`${id}-starts`}
          label="Starts"
          type="datetime-local"
          problem={props.problems[`${path}.starts_at`]}
          value={d.starts_at}
          onValue={(starts_at) => set({ starts_at })}
        />
      </div>
      <p class="hint tight">
        Restrictions: the layer covers only these times (weekdays 09:00–17:00, say); the rotation keeps
        counting outside them. None: all the time.
      </p>
      {restrictionsProblem && <p class="field-problem">{restrictionsProblem}</p>}
      {d.restrictions.map((r, j) => (
        <RestrictionFields
          key={j}
          id={`${id}-r${j}`}
          n={j + 1}
          value={r}
          problems={props.problems}
          path={`${path}.restrictions[${j}]`}
          onValue={(v) => set({ restrictions: d.restrictions.map((x, k) => (k === j ? v : x)) })}
          onRemove={() => set({ restrictions: d.restrictions.filter((_, k) => k !== j) })}
        />
      ))}
      <div class="form-actions">
        <button
          type="button"
          class="button small"
          disabled={d.restrictions.length >= 20}
          onClick={() =>
            set({
              restrictions: [
                ...d.restrictions,
                { days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' },
              ],
            })
          }
        >
          Add restriction to layer {n}
        </button>
        <button type="button" class="button small" disabled={i === 0} onClick={() => props.onMove(-1)}>
          Move layer {n} up
        </button>
        <button
          type="button"
          class="button small"
          disabled={i === props.count - 1}
          onClick={() => props.onMove(1)}
        >
          Move layer {n} down
        </button>
        <button
          type="button"
          class="button small danger-outline"
          disabled={props.count === 1}
          onClick={props.onRemove}
        >
          Remove layer {n}
        </button>
      </div>
    </fieldset>
  );
};
