/** A form field: its label, its control, a hint and the API's problem, tied together for assistive technology. */
import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { ApiError } from '../api.js';

/** Problems by field name, plus one for the form; from an API error or from checks in the page. */
export type Problems = Record<string, string | undefined> & { form?: string };

export const problemsOf = (e: unknown): Problems => {
  if (e instanceof ApiError) {
    const p: Problems = {};
    for (const d of e.details) p[d.field] ??= d.message;
    if (!e.details.length) p.form = e.message;
    return p;
  }
  return { form: e instanceof Error ? e.message : 'That did not work.' };
};

/**
 * What a control carries to be tied to its hint and problem. The one rule: `aria-describedby` lists
 * the problem's id and the hint's id, each when it is shown; `aria-invalid` is set while there is a problem.
 */
export const describedBy = (id: string, problem: string | undefined, hint: string | undefined) => {
  const ids = [problem ? `${id}-problem` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return {
    ...(problem ? { 'aria-invalid': true as const } : {}),
    ...(ids ? { 'aria-describedby': ids } : {}),
  };
};

/** The hint and the problem under a control, with the ids `describedBy` names. */
export const FieldNotes = (props: {
  id: string;
  problem?: string | undefined;
  hint?: string | undefined;
}) => (
  <>
    {props.problem && (
      <span class="field-problem" id={`${props.id}-problem`}>
        {props.problem}
      </span>
    )}
    {props.hint && (
      <span class="hint tight" id={`${props.id}-hint`}>
        {props.hint}
      </span>
    )}
  </>
);

/** A labelled control with its hint and its problem under it. */
export const Field = (props: {
  id: string;
  label: string;
  problem?: string | undefined;
  hint?: string | undefined;
  class?: string;
  children: (a: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ComponentChildren;
}) => (
  <div class={props.class ? `field ${props.class}` : 'field'}>
    <label for={props.id}>{props.label}</label>
    {props.children({ id: props.id, ...describedBy(props.id, props.problem, props.hint) })}
    <FieldNotes id={props.id} problem={props.problem} hint={props.hint} />
  </div>
);

/** The common case: a Field holding one text-like input; `onValue` gets what was typed. */
export const TextField = ({
  id,
  label,
  problem,
  hint,
  class: cls,
  value,
  onValue,
  ...input
}: {
  id: string;
  label: string;
  problem?: string | undefined;
  hint?: string | undefined;
  class?: string;
  value: string;
  onValue: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'class' | 'value' | 'onInput' | 'label'>) => (
  <Field id={id} label={label} problem={problem} hint={hint} {...(cls ? { class: cls } : {})}>
    {(a) => (
      <input type="text" {...input} {...a} value={value} onInput={(e) => onValue(e.currentTarget.value)} />
    )}
  </Field>
);
