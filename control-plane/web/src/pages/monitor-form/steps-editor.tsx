/**
 * A multi-step monitor's steps: an ordered list, each a request with its headers, body, timeout, the
 * variables it extracts and its assertions. Each control is named with its step ("Step 2 URL"), so a
 * screen reader and the error summary say which; the API's problems (`steps[1].url`) stand beside it.
 */
import type { CheckTypeInfo } from '../../api.js';
import { FieldNotes, TextField } from '../../kit/field.js';
import { followLink } from '../../router.js';
import { AssertionsEditor } from './assertions-editor.js';
import { METHODS } from './monitor-draft.js';
import { Control, ExtractRows, move } from './step-parts.js';
import { blankStep, type HeaderRow, type StepRow, stepAssertionField } from './step-rows.js';

type Problems = Record<string, string | undefined>;

/** The problem keys a step's controls show; any other `steps[i]…` problem is listed under the step. */
const shownKeys = (i: number, s: StepRow) => {
  const p = `steps[${i}]`;
  return new Set([
    p,
    ...['name', 'method', 'url', 'body', 'timeout_seconds', 'headers', 'extract', 'assertions'].map(
      (k) => `${p}.${k}`,
    ),
    ...s.headers.map((h) => `${p}.headers.${h.name.trim()}`),
    ...s.extract.flatMap((_, j) =>
      ['name', 'source', 'property', 'regex'].map((k) => `${p}.extract[${j}].${k}`),
    ),
    ...s.assertions.flatMap((_, j) =>
      ['source', 'property', 'comparison', 'target'].map((k) => `${p}.assertions[${j}].${k}`),
    ),
  ]);
};

export const StepsEditor = (props: {
  ct: CheckTypeInfo | undefined;
  steps: StepRow[];
  problems: Problems;
  onChange: (steps: StepRow[]) => void;
}) => {
  const { field, sources, max } = stepAssertionField(props.ct);
  const put = (i: number, s: Partial<StepRow>) =>
    props.onChange(props.steps.map((x, j) => (j === i ? { ...x, ...s } : x)));
  return (
    <fieldset class="steps" aria-describedby="mf-steps-hint">
      <legend>Steps</legend>
      <p class="hint tight" id="mf-steps-hint">
        Requests run in order; the check fails at the first step that fails. In a URL, header or body,{' '}
        <code>{'{{name}}'}</code> is a variable an earlier step extracted, <code>{'{{url}}'}</code> the
        monitor’s URL and <code>{'{{secrets.NAME}}'}</code> a workspace secret (set in{' '}
        <a href="/settings/secrets" onClick={followLink}>
          Settings → Secrets
        </a>
        ; never shown in results).
      </p>
      <FieldNotes id="mf-steps" problem={props.problems.steps} />
      <ol class="step-list">
        {props.steps.map((s, i) => {
          const n = i + 1;
          const key = (k: string) => `steps[${i}].${k}`;
          const id = (k: string) => `mf-steps-${i}-${k}`;
          const shown = shownKeys(i, s);
          const others = Object.entries(props.problems).filter(
            ([k, v]) => v && (k.startsWith(`steps[${i}].`) || k.startsWith(`steps[${i}][`)) && !shown.has(k),
          );
          const text = (
            k: 'name' | 'url',
            label: string,
            extra: { placeholder?: string; cls?: string } = {},
          ) => (
            <TextField
              id={id(k)}
              label={label}
              aria-label={`Step ${n} ${label}`}
              problem={props.problems[key(k)]}
              {...(extra.cls ? { class: extra.cls } : {})}
              spellcheck={false}
              placeholder={extra.placeholder}
              value={s[k]}
              onValue={(v) => put(i, { [k]: v })}
            />
          );
          const putHeader = (j: number, h: Partial<HeaderRow>) =>
            put(i, { headers: s.headers.map((x, k) => (k === j ? { ...x, ...h } : x)) });

          return (
            <li key={i} class="step">
              <fieldset aria-labelledby={`mf-steps-${i}-title`}>
                <div class="step-head">
                  <h3 id={`mf-steps-${i}-title`}>Step {n}</h3>
                  <div class="step-actions">
                    <button
                      type="button"
                      class="button small"
                      disabled={i === 0}
                      aria-label={`Move step ${n} up`}
                      onClick={() => props.onChange(move(props.steps, i, -1))}
                    >
                      ↑ Up
                    </button>
                    <button
                      type="button"
                      class="button small"
                      disabled={i === props.steps.length - 1}
                      aria-label={`Move step ${n} down`}
                      onClick={() => props.onChange(move(props.steps, i, 1))}
                    >
                      ↓ Down
                    </button>
                    <button
                      type="button"
                      class="button small"
                      disabled={props.steps.length === 1}
                      aria-label={`Remove step ${n}`}
                      onClick={() => props.onChange(props.steps.filter((_, j) => j !== i))}
                    >
                      Remove
                    </button>
                  </div>
                </div>
                <div class="step-grid">
                  {text('name', 'Name', { placeholder: 'Sign in', cls: 'step-name' })}
                  <Control
                    id={id('method')}
                    label="Method"
                    name={`Step ${n} Method`}
                    problem={props.problems[key('method')]}
                  >
                    {(a) => (
                      <select
                        {...a}
                        value={s.method}
                        onChange={(e) => put(i, { method: e.currentTarget.value })}
                      >
                        {METHODS.map((m) => (
                          <option key={m}>{m}</option>
                        ))}
                      </select>
                    )}
                  </Control>
                  <Control
                    id={id('timeout_seconds')}
                    label="Timeout (s)"
                    name={`Step ${n} Timeout (seconds)`}
                    problem={props.problems[key('timeout_seconds')]}
                  >
                    {(a) => (
                      <input
                        {...a}
                        type="number"
                        inputMode="numeric"
                        min={1}
                        max={60}
                        placeholder="10"
                        value={s.timeout_seconds}
                        onInput={(e) => put(i, { timeout_seconds: e.currentTarget.value })}
                      />
                    )}
                  </Control>
                  {text('url', 'URL', { placeholder: '{{url}}/api/orders/{{order_id}}', cls: 'wide' })}
                </div>
                <fieldset class="sub">
                  <legend>Headers</legend>
                  <FieldNotes id={id('headers')} problem={props.problems[key('headers')]} />
                  {s.headers.map((h, j) => {
                    const problem = props.problems[key(`headers.${h.name.trim()}`)];
                    return (
                      <div class="pair-row" key={j}>
                        <TextField
                          id={id(`headers-${j}-name`)}
                          label="Name"
                          aria-label={`Step ${n} header ${j + 1} name`}
                          problem={problem}
                          spellcheck={false}
                          placeholder="Authorization"
                          value={h.name}
                          onValue={(v) => putHeader(j, { name: v })}
                        />
                        <TextField
                          id={id(`headers-${j}-value`)}
                          label="Value"
                          aria-label={`Step ${n} header ${j + 1} value`}
                          problem={undefined}
                          class="grow"
                          spellcheck={false}
                          placeholder="Bearer {{token}}"
                          value={h.value}
                          onValue={(v) => putHeader(j, { value: v })}
                        />
                        <button
                          type="button"
                          class="button small"
                          aria-label={`Remove step ${n} header ${j + 1}`}
                          onClick={() => put(i, { headers: s.headers.filter((_, k) => k !== j) })}
                        >
                          Remove
                        </button>
                      </div>
                    );
                  })}
                  <button
                    type="button"
                    class="button small"
                    disabled={s.headers.length >= 50}
                    onClick={() => put(i, { headers: [...s.headers, { name: '', value: '' }] })}
                  >
                    Add header to step {n}
                  </button>
                </fieldset>
                <Control
                  id={id('body')}
                  label="Body"
                  name={`Step ${n} Body`}
                  problem={props.problems[key('body')]}
                  class="wide"
                >
                  {(a) => (
                    <textarea
                      {...a}
                      rows={3}
                      spellcheck={false}
                      placeholder={'{"email": "probe@example.com", "password": "{{secrets.SHOP_PASSWORD}}"}'}
                      value={s.body}
                      onInput={(e) => put(i, { body: e.currentTarget.value })}
                    />
                  )}
                </Control>
                <ExtractRows
                  n={n}
                  rows={s.extract}
                  problems={props.problems}
                  onChange={(extract) => put(i, { extract })}
                />
                <AssertionsEditor
                  sources={sources}
                  field={field}
                  rows={s.assertions}
                  problems={props.problems}
                  path={key('assertions')}
                  named={`Step ${n} `}
                  onChange={(rows) => put(i, { assertions: rows })}
                />
                {others.length > 0 && (
                  <ul class="step-problems">
                    {others.map(([k, v]) => (
                      <li key={k} class="field-problem">
                        {k.replace(`steps[${i}]`, `Step ${n}`)}: {v}
                      </li>
                    ))}
                  </ul>
                )}
              </fieldset>
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        class="button"
        disabled={props.steps.length >= max}
        onClick={() => props.onChange([...props.steps, blankStep(props.steps.length + 1)])}
      >
        Add step
      </button>
    </fieldset>
  );
};
