/** Parts of the steps editor: a step's labelled control and its rows of extracted variables. */
import type { ComponentChildren } from 'preact';
import { Field, FieldNotes, TextField } from '../../kit/field.js';
import { EXTRACT_SOURCES, type ExtractRow } from './step-rows.js';

type Problems = Record<string, string | undefined>;

/** One labelled control of a step: a Field (kit/field.tsx) whose control also carries its full name for assistive technology. */
export const Control = (props: {
  id: string;
  label: string;
  name: string;
  problem: string | undefined;
  hint?: string;
  class?: string;
  children: (a: Record<string, unknown>) => ComponentChildren;
}) => (
  <Field
    id={props.id}
    label={props.label}
    problem={props.problem}
    hint={props.hint}
    {...(props.class ? { class: props.class } : {})}
  >
    {(a) => props.children({ ...a, 'aria-label': props.name })}
  </Field>
);

export const move = <T,>(xs: readonly T[], i: number, by: number) => {
  const out = [...xs];
  const [x] = out.splice(i, 1);
  out.splice(i + by, 0, x!);
  return out;
};

/** Step `n`'s variables: each a name, where it comes from (JSON body, header, text) and an optional regex. */
export const ExtractRows = (props: {
  n: number;
  rows: ExtractRow[];
  problems: Problems;
  onChange: (rows: ExtractRow[]) => void;
}) => {
  const putExtract = (j: number, e: Partial<ExtractRow>) =>
    props.onChange(props.rows.map((x, k) => (k === j ? { ...x, ...e } : x)));
  return (
    <fieldset class="sub">
      <legend>Extract variables</legend>
      <FieldNotes
        id={`mf-steps-${props.n - 1}-extract`}
        problem={props.problems[`steps[${props.n - 1}].extract`]}
      />
      {props.rows.map((e, j) => {
        const src = EXTRACT_SOURCES.find((x) => x.value === e.source) ?? EXTRACT_SOURCES[0]!;
        const p = (k: string) => props.problems[`steps[${props.n - 1}].extract[${j}].${k}`];
        const name = `Step ${props.n} variable ${j + 1}`;
        return (
          <div class="pair-row" key={j}>
            <TextField
              id={`mf-steps-${props.n - 1}-extract-${j}-name`}
              label="Variable"
              aria-label={`${name} name`}
              problem={p('name')}
              spellcheck={false}
              placeholder="token"
              value={e.name}
              onValue={(v) => putExtract(j, { name: v })}
            />
            <Control
              id={`mf-steps-${props.n - 1}-extract-${j}-source`}
              label="From"
              name={`${name} source`}
              problem={p('source')}
            >
              {(a) => (
                <select
                  {...a}
                  value={e.source}
                  onChange={(ev) => putExtract(j, { source: ev.currentTarget.value })}
                >
                  {EXTRACT_SOURCES.map((x) => (
                    <option key={x.value} value={x.value}>
                      {x.label}
                    </option>
                  ))}
                </select>
              )}
            </Control>
            {src.property && (
              <TextField
                id={`mf-steps-${props.n - 1}-extract-${j}-property`}
                label={src.property}
                aria-label={`${name} ${src.property}`}
                problem={p('property')}
                spellcheck={false}
                placeholder={src.placeholder}
                value={e.property}
                onValue={(v) => putExtract(j, { property: v })}
              />
            )}
            <TextField
              id={`mf-steps-${props.n - 1}-extract-${j}-regex`}
              label="Regex (optional)"
              aria-label={`${name} regex`}
              problem={p('regex')}
              class="grow"
              spellcheck={false}
              placeholder={e.source === 'text_body' ? 'order-(\\d+)' : 'one group: (\\w+)'}
              value={e.regex}
              onValue={(v) => putExtract(j, { regex: v })}
            />
            <button
              type="button"
              class="button small"
              aria-label={`Remove ${name.toLowerCase()}`}
              onClick={() => props.onChange(props.rows.filter((_, k) => k !== j))}
            >
              Remove
            </button>
          </div>
        );
      })}
      <button
        type="button"
        class="button small"
        disabled={props.rows.length >= 10}
        onClick={() =>
          props.onChange([...props.rows, { name: '', source: 'json_body', property: '', regex: '' }])
        }
      >
        Add variable to step {props.n}
      </button>
    </fieldset>
  );
};
