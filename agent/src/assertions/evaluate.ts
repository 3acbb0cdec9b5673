import { type Assertion, parseJsonPath } from '@lookout/shared';
import { MAX_VISITED, selectAll } from './json-path.js';
import { jsonPrefix } from './json-text.js';
import { MATCH_TEXT_CAP, regexFinds } from './regex.js';

/**
 * Assertions, evaluated against what a check read: pure functions, no I/O. The first assertion that
 * does not hold fails the check, and the message says which and what was there instead:
 * `$.status was "degraded", expected equals "ok"`.
 *
 * Caps (a target may be hostile; README.md, "Assertions"):
 * - a prober reads at most BODY_CAP of a body (text_body sees that much);
 * - json_body parses at most JSON_CAP: a larger or malformed body is a failed check (JSON.parse of
 *   1 MiB holds the event loop ~15 ms; 256 KiB, ~3 ms), and one nested deeper than MAX_JSON_DEPTH too
 *   (120 KB of brackets took V8 ~100 ms to parse, and kept every later walk and JSON.stringify deep);
 * - `matches` reads a value of at most 64 KiB (regex.ts): a longer one is a failed check;
 * - the actual value in a message is cut at SHOWN_CAP characters.
 */
export const BODY_CAP = 1 << 20;
export const JSON_CAP = 256 * 1024;
/** Deeper nesting fails json_body before JSON.parse: V8 parses a deep body far slower than a flat one. */
export const MAX_JSON_DEPTH = 128;
export const SHOWN_CAP = 80;

/** What a check read, for its assertions. Sources a type does not read are left out (absent). */
export interface ResponseView {
  status_code?: number | undefined;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers?: Readonly<Record<string, string>> | undefined;
  /** The body (or the message, the query's first value…) as text, at most BODY_CAP. */
  body?: string | undefined;
  /** The body went on past what was read: json_body refuses it. */
  body_truncated?: boolean | undefined;
  /** ms */
  response_time: number;
  /** % (ping) */
  packet_loss?: number | undefined;
}

export interface AssertionFailure {
  kind: 'assertion_failed';
  message: string;
}

/** A value an assertion looks at: `undefined` when the source has nothing there (absent). */
type Actual = unknown;
const ABSENT = undefined;

const NUMERIC_SOURCES = new Set(['status_code', 'response_time', 'packet_loss']);
const NUMBER = /^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

const numberOf = (v: Actual): number | null => {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && NUMBER.test(v)) return Number(v);
  return null;
};

/**
 * A value as text: a string as it is, anything else as its JSON, at most `limit` characters (a single
 * value of a body under JSON_CAP is shorter; only a selection of many values may be cut).
 */
const textOf = (v: Actual, limit = 2 * JSON_CAP): string =>
  typeof v === 'string' ? v : jsonPrefix(v, limit).text;

const equalsTarget = (v: Actual, target: string): boolean => {
  if (v === ABSENT) return false;
  if (typeof v === 'string') return v === target;
  if (typeof v === 'number') return numberOf(target) === v;
  if (v === null || typeof v === 'boolean') return String(v) === target.trim();
  // An array or object equals a target that is the same JSON (compared no further than its length).
  const first = target.trimStart()[0];
  if (first !== '[' && first !== '{') return false;
  let canonical: string;
  try {
    canonical = JSON.stringify(JSON.parse(target));
  } catch {
    return false;
  }
  const text = jsonPrefix(v, canonical.length);
  return !text.cut && text.text === canonical;
};

const isEmpty = (v: Actual): boolean =>
  v === ABSENT ||
  v === null ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

const contains = (v: Actual, target: string): boolean => {
  if (v === ABSENT) return false;
  if (Array.isArray(v)) return v.some((item) => equalsTarget(item, target));
  return textOf(v).includes(target);
};

/** Whether the assertion holds for `v`; null when its pattern does not compile. */
const holds = (a: Assertion, v: Actual): boolean | null => {
  switch (a.comparison) {
    case 'equals':
      return equalsTarget(v, a.target);
    case 'not_equals':
      return !equalsTarget(v, a.target);
    case 'contains':
      return contains(v, a.target);
    case 'not_contains':
      return !contains(v, a.target);
    case 'matches':
      return v === ABSENT ? false : regexFinds(a.target, textOf(v));
    case 'less_than':
    case 'greater_than': {
      const n = numberOf(v);
      const t = numberOf(a.target);
      if (n === null || t === null) return false;
      return a.comparison === 'less_than' ? n < t : n > t;
    }
    case 'is_empty':
      return isEmpty(v);
    case 'not_empty':
      return !isEmpty(v);
  }
};

/** Cut to SHOWN_CAP characters (never inside a surrogate pair), with "…" when cut. */
const cut = (s: string): string => {
  if (s.length <= SHOWN_CAP) return s;
  let end = SHOWN_CAP;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${s.slice(0, end)}…`;
};

const showNumber = (n: number) => String(Number.isInteger(n) ? n : Math.round(n * 10) / 10);

const shown = (v: Actual): string => {
  if (v === ABSENT) return 'absent';
  if (typeof v === 'number') return showNumber(v);
  if (typeof v === 'string') return JSON.stringify(cut(v));
  return cut(textOf(v, SHOWN_CAP + 1));
};

const labelOf = (a: Assertion): string =>
  a.source === 'json_body' ? a.property : a.source === 'headers' ? `header ${a.property}` : a.source;

const expectation = (a: Assertion): string => {
  if (a.comparison === 'is_empty' || a.comparison === 'not_empty') return a.comparison;
  const numeric =
    NUMERIC_SOURCES.has(a.source) || a.comparison === 'less_than' || a.comparison === 'greater_than';
  const target = numeric && numberOf(a.target) !== null ? a.target.trim() : JSON.stringify(cut(a.target));
  return `${a.comparison} ${target}`;
};

const failed = (message: string): AssertionFailure => ({ kind: 'assertion_failed', message });

/**
 * Whether JSON text nests arrays and objects deeper than `max`: one pass with a counter (brackets
 * inside strings do not count), as the control plane checks the bodies it is sent.
 */
const nestedDeeperThan = (text: string, max: number): boolean => {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
};

/** The body as JSON, parsed once per evaluation (several json_body assertions share it). */
type Parsed = { value: unknown; error: null } | { value: null; error: string };
const parseBody = (view: ResponseView): Parsed => {
  const body = view.body ?? '';
  if (view.body_truncated || body.length > JSON_CAP) {
    return { value: null, error: `the body is larger than ${JSON_CAP / 1024} KiB, the cap for json_body` };
  }
  if (nestedDeeperThan(body, MAX_JSON_DEPTH)) {
    return { value: null, error: `the body is nested more than ${MAX_JSON_DEPTH} levels deep` };
  }
  try {
    return { value: JSON.parse(body), error: null };
  } catch {
    return { value: null, error: 'the body is not JSON' };
  }
};

/**
 * The first assertion that does not hold, as a failure naming it and the value it saw; null when
 * they all hold. Never throws: a malformed, huge or deeply nested body is a failure like any other.
 */
export const evaluateAssertions = (
  view: ResponseView,
  assertions: readonly Assertion[],
): AssertionFailure | null => {
  let json: Parsed | undefined;
  for (const a of assertions) {
    let v: Actual;
    switch (a.source) {
      case 'status_code':
        v = view.status_code;
        break;
      case 'response_time':
        v = view.response_time;
        break;
      case 'packet_loss':
        v = view.packet_loss;
        break;
      case 'text_body':
        v = view.body;
        break;
      case 'headers':
        v = view.headers?.[a.property.toLowerCase()];
        break;
      case 'json_body': {
        json ??= parseBody(view);
        if (json.error !== null) return failed(`${labelOf(a)}: ${json.error}`);
        const path = parseJsonPath(a.property).path;
        if (!path) return failed(`${labelOf(a)}: not a JSONPath this agent reads`);
        const found = selectAll(json.value, path);
        if (!found)
          return failed(`${labelOf(a)}: the path visits more than ${MAX_VISITED} values of the body`);
        v = path.singular ? found[0] : found;
        break;
      }
    }
    if (a.comparison === 'matches' && v !== ABSENT && textOf(v, MATCH_TEXT_CAP + 1).length > MATCH_TEXT_CAP) {
      return failed(
        `${labelOf(a)}: the value is longer than ${MATCH_TEXT_CAP / 1024} KiB, the cap for matches`,
      );
    }
    const ok = holds(a, v);
    if (ok === null)
      return failed(`${labelOf(a)}: the pattern ${JSON.stringify(cut(a.target))} does not compile`);
    if (!ok) return failed(`${labelOf(a)} was ${shown(v)}, expected ${expectation(a)}`);
  }
  return null;
};
