/**
 * What monitors and heartbeats share to be found and sorted by: a group (the record picker, searching
 * the server), tags (typed, separated by commas or spaces) and a severity. One set of fields for both
 * forms; the API's problems show beside each (`tags[i]` beside Tags).
 */
import type { Severity } from '../api-groups.js';
import { Field, TextField } from './field.js';
import { RecordName, RecordPicker } from './record-picker.js';

export interface Labels {
  /** '' for none. */
  group_id: string;
  /** As typed. */
  tags: string;
  severity: Severity;
}

export const SEVERITY_OPTIONS: { value: Severity; label: string }[] = [
  { value: 'critical', label: 'Critical (pages people)' },
  { value: 'warning', label: 'Warning' },
];

/** The problem of the Tags field: the API's, naming each bad tag by what was typed. */
export const tagsProblem = (
  details: readonly { field: string; message: string }[],
  typed: readonly string[],
): string | undefined => {
  const found = details.flatMap((d) => {
    if (d.field === 'tags') return [d.message];
    const i = /^tags\[(\d+)\]$/.exec(d.field)?.[1];
    return i === undefined ? [] : [`“${typed[Number(i)] ?? ''}” ${d.message}`];
  });
  if (found.length === 0) return undefined;
  const text = found.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
};

export const LabelFields = (props: {
  /** The ids' prefix (`mf`: `mf-group_id`, `mf-tags`, `mf-severity`). */
  prefix: string;
  value: Labels;
  problems: Readonly<Record<string, string | undefined>>;
  onChange: (next: Labels) => void;
}) => {
  const v = props.value;
  const set = <K extends keyof Labels>(k: K, x: Labels[K]) => props.onChange({ ...v, [k]: x });
  return (
    <>
      <RecordPicker
        id={`${props.prefix}-group_id`}
        kind="group"
        label="Group"
        none="No group"
        hint="Groups gather what belongs together (Groups page)."
        problem={props.problems.group_id}
        value={v.group_id}
        onChange={(id) => set('group_id', id)}
      />
      <TextField
        id={`${props.prefix}-tags`}
        label="Tags"
        problem={props.problems.tags}
        hint="Separated by commas or spaces; each key or key:value in lower case, e.g. env:prod, db."
        autoComplete="off"
        spellcheck={false}
        value={v.tags}
        onValue={(t) => set('tags', t)}
      />
      <Field
        id={`${props.prefix}-severity`}
        label="Severity"
        problem={props.problems.severity}
        hint="Warnings can wait for support hours; critical alerts always notify."
      >
        {(a) => (
          <select
            {...a}
            value={v.severity}
            onChange={(e) => set('severity', e.currentTarget.value as Severity)}
          >
            {SEVERITY_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        )}
      </Field>
    </>
  );
};

/** A record's group, tags and severity as a line under its title (detail pages). */
export const LabelsLine = (props: {
  group_id: string | null;
  tags: readonly string[];
  severity: Severity;
}) => (
  <p class="labels-line">
    <span>
      Group: {props.group_id ? <RecordName kind="group" id={props.group_id} missing="(deleted)" /> : 'none'}
    </span>
    <span>Severity: {props.severity === 'warning' ? 'Warning' : 'Critical'}</span>
    <span>
      Tags:{' '}
      {props.tags.length === 0 ? (
        'none'
      ) : (
        <span class="tag-list">
          {props.tags.map((t) => (
            <code key={t} class="tag">
              {t}
            </code>
          ))}
        </span>
      )}
    </span>
  </p>
);
