/**
 * `depends_on` in the monitor and heartbeat forms: the dependencies chosen (each with a Remove button)
 * and an "Add" row: the kind, a RecordPicker over the whole set of that kind (server search and
 * paging) and an Add button. At most MAX dependencies, as the API allows.
 */
import { useState } from 'preact/hooks';
import type { Schemas } from '../../../src/api-client/client.js';
import { FieldNotes } from './field.js';
import { type RecordKind, RecordPicker, useRecordName } from './record-picker.js';

export type Dependency = Schemas['Dependency'];
const MAX = 20;
const KINDS: { kind: RecordKind; label: string }[] = [
  { kind: 'monitor', label: 'Monitor' },
  { kind: 'heartbeat', label: 'Heartbeat' },
  { kind: 'group', label: 'Group' },
];

export const DependsOnField = (props: {
  id: string;
  /** The record being edited (it cannot depend on itself); null for a new one. */
  self: string | null;
  value: Dependency[];
  problem?: string | undefined;
  onChange: (v: Dependency[]) => void;
}) => {
  const [kind, setKind] = useState<Dependency['kind']>('monitor');
  const [chosen, setChosen] = useState('');
  const name = useRecordName(kind, chosen);
  const taken = new Set(props.value.map((d) => d.id));
  const add = () => {
    if (!chosen || taken.has(chosen)) return;
    props.onChange([...props.value, { id: chosen, kind, name: name || chosen }]);
    setChosen('');
  };
  return (
    <fieldset
      id={props.id}
      class="depends-on"
      tabIndex={-1}
      aria-describedby={`${props.problem ? `${props.id}-problem ` : ''}${props.id}-hint`}
    >
      <legend>Depends on</legend>
      <FieldNotes
        id={props.id}
        problem={props.problem}
        hint="While one of these is down, this one's failures raise no alert: it shows down, held back by it, and the dependency's alert counts it. A group is down while any of its members is."
      />
      {props.value.length === 0 ? (
        <p class="muted small">Nothing: its failures always alert.</p>
      ) : (
        <ul class="dependency-list">
          {props.value.map((d) => (
            <li key={d.id}>
              <span>
                {d.name} <span class="muted small">({d.kind})</span>
              </span>
              <button
                type="button"
                class="button small"
                aria-label={`Remove ${d.name}`}
                onClick={() => props.onChange(props.value.filter((x) => x.id !== d.id))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {props.value.length < MAX && (
        <div class="dependency-add">
          <div class="field">
            <label for={`${props.id}-kind`}>Kind of dependency</label>
            <select
              id={`${props.id}-kind`}
              value={kind}
              onChange={(e) => {
                setKind(e.currentTarget.value as Dependency['kind']);
                setChosen('');
              }}
            >
              {KINDS.map((k) => (
                <option key={k.kind} value={k.kind}>
                  {k.label}
                </option>
              ))}
            </select>
          </div>
          <RecordPicker
            key={kind}
            id={`${props.id}-pick`}
            kind={kind}
            label={`Dependency ${kind}`}
            value={chosen}
            onChange={setChosen}
          />
          <button
            type="button"
            class="button"
            disabled={!chosen || taken.has(chosen) || chosen === props.self}
            onClick={add}
          >
            Add dependency
          </button>
        </div>
      )}
    </fieldset>
  );
};
