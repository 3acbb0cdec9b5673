import { type FieldProblem, validationError } from '@lookout/shared';
import { z } from 'zod';

/** A zod issue path as a field name: `auth.username`, `UUIDs[2]`. */
export const fieldName = (path: PropertyKey[]): string =>
  path.reduce<string>(
    (acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)),
    '',
  );

const describeType = (t: string) => (t === 'int' ? 'an integer' : /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);

/** One sentence per problem, in the same words everywhere. */
const messageFor = (iss: z.core.$ZodRawIssue): string | undefined => {
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined) return 'is required';
      return `must be ${describeType(iss.expected)}`;
    case 'too_big':
      if (iss.origin === 'string') return `must be at most ${iss.maximum} characters`;
      if (iss.origin === 'array') return `must have at most ${iss.maximum} items`;
      return iss.inclusive === false ? `must be less than ${iss.maximum}` : `must be at most ${iss.maximum}`;
    case 'too_small':
      if (iss.origin === 'string')
        return Number(iss.minimum) === 1 ? 'must not be empty' : `must be at least ${iss.minimum} characters`;
      if (iss.origin === 'array')
        return `must have at least ${iss.minimum} item${Number(iss.minimum) === 1 ? '' : 's'}`;
      return iss.inclusive === false ? `must be more than ${iss.minimum}` : `must be at least ${iss.minimum}`;
    case 'invalid_value':
      return `must be one of: ${iss.values.map((v) => String(v)).join(', ')}`;
    case 'invalid_union':
      return 'has an invalid shape';
    default:
      return undefined;
  }
};

export const problemsOf = (error: z.ZodError): FieldProblem[] =>
  error.issues.flatMap((iss) =>
    iss.code === 'unrecognized_keys'
      ? iss.keys.map((k) => ({ field: fieldName([...iss.path, k]), message: 'is not a known field' }))
      : [{ field: fieldName(iss.path) || '(body)', message: iss.message }],
  );

/** Parses or throws one 422 listing every bad field. */
export const parseOrThrow = <S extends z.ZodType>(schema: S, input: unknown, where = 'body'): z.output<S> => {
  const r = schema.safeParse(input, { error: messageFor });
  if (r.success) return r.data;
  const details = problemsOf(r.error).map((d) => (d.field === '(body)' ? { ...d, field: where } : d));
  throw validationError(details);
};

/** Every problem of `input` against `schema`, in the API's words (none when it is valid). */
export const problemsIn = <S extends z.ZodType>(
  schema: S,
  input: unknown,
): { data: z.output<S>; problems: [] } | { data: null; problems: FieldProblem[] } => {
  const r = schema.safeParse(input, { error: messageFor });
  return r.success ? { data: r.data, problems: [] } : { data: null, problems: problemsOf(r.error) };
};

/** Throws one 422 when there are problems. */
export const throwIfProblems = (problems: FieldProblem[]) => {
  if (problems.length > 0) throw validationError(problems);
};

/**
 * What a name or title may not hold: C0 controls (tab and line breaks too: names are one line), DEL,
 * C1 controls, the Unicode line and paragraph separators, and the bidirectional formatting characters
 * (the marks ALM U+061C, LRM U+200E, RLM U+200F; the embeddings and overrides U+202A–U+202E; the
 * isolates U+2066–U+2069), which make a name show as something other than what it is (U+202E turns
 * the rest of the line around). Markup is allowed: every place that shows a name escapes it.
 */
const NOT_IN_NAMES =
  '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const forbiddenInName = new RegExp(`[${NOT_IN_NAMES}]`);
/** The rule as a pattern; the OpenAPI document shows it on every name field (and a test checks it is on each). */
export const NAME_PATTERN = new RegExp(`^[^${NOT_IN_NAMES}]*$`);

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * What shows nothing on its own: white space, format characters (zero-width space U+200B, joiners,
 * U+FEFF, soft hyphen, …), other invisible C categories, combining marks without a base, and the
 * blank letters (Hangul fillers U+115F, U+1160, U+3164, U+FFA0; Braille blank U+2800). A name needs
 * at least one character outside this set.
 */
const INVISIBLE = /^[\p{White_Space}\p{C}\p{M}\u115f\u1160\u3164\uffa0\u2800]*$/u;
/** True when `s` shows at least one character. */
export const hasVisible = (s: string) => !INVISIBLE.test(s);

/**
 * A name, title or label: one line of at most `max` characters, not empty once trimmed, without the
 * characters of NOT_IN_NAMES (checked before trimming, so a trailing line break is refused rather
 * than dropped), and with at least one visible character (`"\u200b\u200b"` is not a name). Every
 * name and title field of every schema is one of these.
 */
export const nameText = (max: number) =>
  z
    .string()
    .regex(NAME_PATTERN, {
      error: (iss) => {
        const found = typeof iss.input === 'string' ? forbiddenInName.exec(iss.input)?.[0] : undefined;
        return `must be one line without control or bidirectional formatting characters${found ? ` (found ${codePoint(found)})` : ''}`;
      },
      abort: true,
    })
    .trim()
    .min(1)
    .max(max)
    // The empty string is min's to name (one problem a field).
    .refine((s) => s === '' || hasVisible(s), 'must have at least one visible character');

/**
 * What free text (descriptions, messages, post-mortems) may not hold: the characters of
 * NOT_IN_NAMES, except that multi-line text keeps tab, line feed and carriage return; and the
 * noncharacters U+FFFE and U+FFFF. What is left is valid in XML 1.0 (feeds), JSON and HTML.
 */
const NOT_IN_TEXT = `${NOT_IN_NAMES}\\ufffe\\uffff`;
const NOT_IN_LINES = NOT_IN_TEXT.replace('\\u0000-\\u001f', '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f');
/** The rules as patterns (shown in the OpenAPI document). */
export const TEXT_PATTERN = new RegExp(`^[^${NOT_IN_TEXT}]*$`);
export const LINES_PATTERN = new RegExp(`^[^${NOT_IN_LINES}]*$`);

/**
 * Free text of at most `max` characters: one line (`lines: 'one'`, a component's description) or
 * several (`'many'`: tab and line breaks allowed, an incident message, a post-mortem), never a control
 * or bidirectional formatting character. Neither trimmed nor required: chain `.trim().min(1)`.
 */
export const freeText = (max: number, lines: 'one' | 'many') => {
  const pattern = lines === 'one' ? TEXT_PATTERN : LINES_PATTERN;
  const forbidden = new RegExp(`[${lines === 'one' ? NOT_IN_TEXT : NOT_IN_LINES}]`);
  const what = lines === 'one' ? 'must be one line without' : 'must not contain';
  return z
    .string()
    .regex(pattern, {
      error: (iss) => {
        const found = typeof iss.input === 'string' ? forbidden.exec(iss.input)?.[0] : undefined;
        return `${what} control or bidirectional formatting characters${found ? ` (found ${codePoint(found)})` : ''}`;
      },
      abort: true,
    })
    .max(max);
};

/**
 * Outside text made fit for a title (other tools' alert summaries, which we take as sent rather than
 * refuse): line breaks and tabs become spaces, the other characters nameText refuses are dropped.
 */
export const oneLine = (s: string) =>
  s
    .replace(/[\t\n\v\f\r\u0085\u2028\u2029]+/g, ' ')
    .replace(new RegExp(`[${NOT_IN_NAMES}]`, 'g'), '')
    .trim();

export const uuid = () =>
  z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID');

/** At most this many malformed strings or keys are named in one answer. */
const MALFORMED_MAX = 100;

/** `String.prototype.isWellFormed` (ES2024; Node 20 has it): false when a lone UTF-16 surrogate is in it. */
const wellFormed = (s: string) => (s as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * Strings and keys a parsed JSON body must not carry, since they would be stored altered or dropped
 * rather than as sent: lone UTF-16 surrogates (`"\ud800"`; a store re-encodes them as U+FFFD) and
 * `__proto__` keys (JSON.parse makes them own properties, every later copy of the object drops them).
 * One problem per field (`request_headers.__proto__`, `display_name`), at most MALFORMED_MAX. An
 * explicit stack, so no depth of input can exhaust the call stack.
 */
export const malformedTextProblems = (value: unknown): FieldProblem[] => {
  interface Node {
    value: unknown;
    parent: Node | null;
    key: string | number | null;
  }
  const pathOf = (n: Node): string => {
    const path: (string | number)[] = [];
    for (let at: Node | null = n; at && at.key !== null; at = at.parent) path.push(at.key);
    return fieldName(path.reverse()) || 'body';
  };
  const problems: FieldProblem[] = [];
  const stack: Node[] = [{ value, parent: null, key: null }];
  while (stack.length > 0 && problems.length < MALFORMED_MAX) {
    const n = stack.pop()!;
    const v = n.value;
    if (typeof v === 'string') {
      if (!wellFormed(v))
        problems.push({
          field: pathOf(n),
          message: 'contains a lone UTF-16 surrogate; send valid Unicode text',
        });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], parent: n, key: i });
    } else if (v !== null && typeof v === 'object') {
      const children: Node[] = [];
      for (const key of Object.keys(v)) {
        const child: Node = { value: (v as Record<string, unknown>)[key], parent: n, key };
        if (key === '__proto__')
          problems.push({ field: pathOf(child), message: 'is a reserved name; use another key' });
        else if (!wellFormed(key))
          problems.push({
            field: pathOf(child),
            message: 'is a key with a lone UTF-16 surrogate; send valid Unicode text',
          });
        else children.push(child);
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
  return problems.slice(0, MALFORMED_MAX);
};
