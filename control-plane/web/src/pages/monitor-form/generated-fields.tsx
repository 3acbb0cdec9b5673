/** A check type's fields that the form builds from their JSON Schemas (GET /check-types). */
import type { CheckTypeField } from '../../api.js';
import { describedBy, Field, FieldNotes } from '../../kit/field.js';
import { fieldHint, fieldLabel, shapeOf, type Typed } from './type-fields.js';

export const GeneratedField = (props: {
  field: CheckTypeField;
  value: Typed;
  problem: string | undefined;
  editing: boolean;
  onChange: (v: Typed) => void;
}) => {
  const f = props.field;
  const shape = shapeOf(f.schema);
  const id = `mf-${f.name}`;
  const label = fieldLabel(f.name);
  const hint = fieldHint(f, shape, props.editing);
  if (shape.control === 'checkbox')
    return (
      <div class="field check wide">
        <label>
          <input
            type="checkbox"
            id={id}
            checked={props.value === true}
            {...describedBy(id, props.problem, hint)}
            onChange={(e) => props.onChange(e.currentTarget.checked)}
          />{' '}
          {label}
        </label>
        <FieldNotes id={id} problem={props.problem} hint={hint} />
      </div>
    );
  const text = String(props.value);
  return (
    <Field
      id={id}
      label={label}
      problem={props.problem}
      hint={hint}
      class={shape.control === 'textarea' ? 'wide' : undefined}
    >
      {(a) =>
        shape.control === 'select' ? (
          <select {...a} value={text} onChange={(e) => props.onChange(e.currentTarget.value)}>
            {shape.nullable && <option value="">None</option>}
            {shape.choices.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        ) : shape.control === 'textarea' ? (
          <textarea
            {...a}
            rows={3}
            value={text}
            placeholder={typeof f.default === 'string' ? f.default : undefined}
            onInput={(e) => props.onChange(e.currentTarget.value)}
          />
        ) : (
          <input
            {...a}
            type={shape.control === 'number' ? 'number' : 'text'}
            inputMode={shape.control === 'number' ? 'numeric' : undefined}
            min={shape.schema.minimum}
            max={shape.schema.maximum}
            maxLength={shape.schema.maxLength}
            value={text}
            onInput={(e) => props.onChange(e.currentTarget.value)}
          />
        )
      }
    </Field>
  );
};
