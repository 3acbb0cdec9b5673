/** The assertion list of a monitor: one row per assertion, its words from the field's JSON Schema. */
import { TARGETLESS } from '../../../../../shared/src/assertions.js';
import type { CheckTypeField, MonitorDetail } from '../../api.js';
import { describedBy, FieldNotes } from '../../kit/field.js';
import type { Schema } from './type-fields.js';

export interface AssertionRow {
  source: string;
  property: string;
  comparison: string;
  target: string;
}

const WITH_PROPERTY: Record<string, { label: string; placeholder: string }> = {
  json_body: { label: 'JSONPath', placeholder: '$.status' },
  headers: { label: 'Header', placeholder: 'Content-Type' },
};
const NUMERIC_SOURCES = ['status_code', 'response_time', 'packet_loss'];
const NUMERIC_COMPARISONS = ['less_than', 'greater_than'];
const targetless = (comparison: string) => (TARGETLESS as readonly string[]).includes(comparison);

/** `json_body` → "JSON body", `less_than` → "less than". */
const words = (w: string) =>
  w
    .replace('json', 'JSON')
    .replaceAll('_', ' ')
    .replace('response time', 'response time (ms)')
    .replace('packet loss', 'packet loss (%)');

/** One assertion in a line: `$.status equals "ok"`, `status code equals 200`, `header Server contains "nginx"`. */
export const assertionText = (a: {
  source: string;
  property?: string;
  comparison: string;
  target?: unknown;
}) => {
  const what =
    a.source === 'json_body'
      ? (a.property ?? '$')
      : a.source === 'headers'
        ? `header ${a.property ?? ''}`
        : a.source === 'text_body'
          ? 'body'
          : words(a.source);
  const target = a.target === undefined || targetless(a.comparison) ? '' : ` ${JSON.stringify(a.target)}`;
  return `${what} ${words(a.comparison)}${target}`;
};

export const rowsOf = (m: MonitorDetail | null): AssertionRow[] =>
  (
    (
      m as {
        assertions?: { source: string; property?: string; comparison: string; target?: unknown }[];
      } | null
    )?.assertions ?? []
  ).map((a) => ({
    source: a.source,
    property: a.property ?? '',
    comparison: a.comparison,
    target: a.target === undefined || a.target === null ? '' : String(a.target),
  }));

/** Rows as the API takes them: a number where the comparison or the source is numeric. */
export const assertionsOf = (rows: readonly AssertionRow[]) =>
  rows.map((r) => {
    const numeric = NUMERIC_SOURCES.includes(r.source) || NUMERIC_COMPARISONS.includes(r.comparison);
    const t = r.target.trim();
    return {
      source: r.source,
      comparison: r.comparison,
      ...(WITH_PROPERTY[r.source] && r.property.trim() !== '' ? { property: r.property.trim() } : {}),
      ...(targetless(r.comparison) || t === ''
        ? {}
        : { target: numeric && Number.isFinite(Number(t)) ? Number(t) : r.target }),
    };
  });

export const AssertionsEditor = (props: {
  /** What the type's checks read, the first for a new row (GET /check-types). */
  sources: readonly string[];
  field: CheckTypeField;
  rows: AssertionRow[];
  problems: Record<string, string | undefined>;
  onChange: (rows: AssertionRow[]) => void;
  /** Where the rows are in the body, for their problems' keys and ids: `steps[1].assertions` (a step's). */
  path?: string;
  /** Said before each control's name: "Step 2 " makes "Step 2 assertion 1 source". */
  named?: string;
}) => {
  const path = props.path ?? 'assertions';
  const base = `mf-${path.replace(/[[\].]+/g, '-').replace(/-$/, '')}`;
  const named = props.named ? `${props.named}assertion` : 'Assertion';
  const item = (props.field.schema as Schema).items;
  const sources = props.sources;
  const comparisons = (item?.properties?.comparison?.enum ?? []).map(String);
  const max = (props.field.schema as Schema & { maxItems?: number }).maxItems ?? 20;
  const put = (i: number, r: Partial<AssertionRow>) =>
    props.onChange(props.rows.map((x, j) => (j === i ? { ...x, ...r } : x)));
  const control = (i: number, part: keyof AssertionRow) => {
    const id = `${base}-${i}-${part}`;
    const problem = props.problems[`${path}[${i}].${part}`];
    return { id, problem, a: { id, ...describedBy(id, problem, undefined) } };
  };
  return (
    <fieldset class="assertions" aria-describedby={`${base}-hint`}>
      <legend>Assertions</legend>
      <p class="hint tight" id={`${base}-hint`}>
        {props.path
          ? 'The step fails unless every assertion holds.'
          : 'The check fails unless every assertion holds; a failed one is named in the result with the value seen.'}
      </p>
      <FieldNotes id={base} problem={props.problems[path]} />
      {props.rows.length > 0 && (
        <ol class="assertion-rows">
          {props.rows.map((r, i) => {
            const n = i + 1;
            const prop = WITH_PROPERTY[r.source];
            const [s, p, c, t] = (['source', 'property', 'comparison', 'target'] as const).map((k) =>
              control(i, k),
            );
            return (
              <li key={i} class="assertion-row">
                <div class="field">
                  <label for={s!.id}>Source</label>
                  <select
                    {...s!.a}
                    aria-label={`${named} ${n} source`}
                    value={r.source}
                    onChange={(e) => put(i, { source: e.currentTarget.value })}
                  >
                    {sources.map((x) => (
                      <option key={x} value={x}>
                        {words(x)}
                      </option>
                    ))}
                  </select>
                  <FieldNotes id={s!.id} problem={s!.problem} />
                </div>
                {prop && (
                  <div class="field">
                    <label for={p!.id}>{prop.label}</label>
                    <input
                      {...p!.a}
                      type="text"
                      aria-label={`${named} ${n} ${prop.label}`}
                      placeholder={prop.placeholder}
                      value={r.property}
                      onInput={(e) => put(i, { property: e.currentTarget.value })}
                    />
                    <FieldNotes id={p!.id} problem={p!.problem} />
                  </div>
                )}
                <div class="field">
                  <label for={c!.id}>Comparison</label>
                  <select
                    {...c!.a}
                    aria-label={`${named} ${n} comparison`}
                    value={r.comparison}
                    onChange={(e) => put(i, { comparison: e.currentTarget.value })}
                  >
                    {comparisons.map((x) => (
                      <option key={x} value={x}>
                        {words(x)}
                      </option>
                    ))}
                  </select>
                  <FieldNotes id={c!.id} problem={c!.problem} />
                </div>
                {!targetless(r.comparison) && (
                  <div class="field grow">
                    <label for={t!.id}>Target</label>
                    <input
                      {...t!.a}
                      type="text"
                      aria-label={`${named} ${n} target`}
                      value={r.target}
                      onInput={(e) => put(i, { target: e.currentTarget.value })}
                    />
                    <FieldNotes id={t!.id} problem={t!.problem} />
                  </div>
                )}
                <button
                  type="button"
                  class="button small"
                  aria-label={`Remove ${named.toLowerCase()} ${n}`}
                  onClick={() => props.onChange(props.rows.filter((_, j) => j !== i))}
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ol>
      )}
      <button
        type="button"
        class="button small"
        disabled={props.rows.length >= max}
        onClick={() =>
          props.onChange([
            ...props.rows,
            {
              source: sources[0] ?? 'status_code',
              property: '',
              comparison: comparisons[0] ?? 'equals',
              target: '',
            },
          ])
        }
      >
        {props.named ? `Add assertion to ${props.named.trim().toLowerCase()}` : 'Add assertion'}
      </button>
    </fieldset>
  );
};
