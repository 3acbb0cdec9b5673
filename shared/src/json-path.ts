/**
 * The JSONPath subset assertions read (`json_body`'s `property`), parsed once here for both sides: the
 * control plane refuses a path that does not parse, the agent evaluates the parsed segments
 * (agent/src/assertions/json-path.ts). It is data, never code: no filter (`[?…]`) or script (`(…)`)
 * expressions, which are where other JSONPath libraries run code.
 *
 * Grammar (a subset of RFC 9535): `$` then segments, each `.name`, `.*`, `[n]` (n < 0 counts from the
 * end), `[*]`, `['name']` / `["name"]`, or the same after `..` (every descendant, document order).
 */
export type JsonPathSelector =
  | { kind: 'name'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'wildcard' };

export interface JsonPathSegment {
  /** `..`: the selector applies to every descendant, not only the children. */
  descendant: boolean;
  selector: JsonPathSelector;
}

export interface ParsedJsonPath {
  segments: JsonPathSegment[];
  /** Only names and indexes, never `*` or `..`: selects at most one value (RFC 9535 2.3.5.1). */
  singular: boolean;
}

export const JSON_PATH_MAX_LENGTH = 256;
const MAX_SEGMENTS = 32;

const NAME_FIRST = /[A-Za-z_\u0080-\uffff]/;
const NAME_CHAR = /[A-Za-z0-9_\u0080-\uffff]/;

class PathError extends Error {}

/** Parses `text`, or says (in a short sentence) where it is wrong. */
export const parseJsonPath = (
  text: string,
): { path: ParsedJsonPath; error: null } | { path: null; error: string } => {
  try {
    return { path: parse(text), error: null };
  } catch (e) {
    if (e instanceof PathError) return { path: null, error: e.message };
    throw e;
  }
};

const parse = (text: string): ParsedJsonPath => {
  if (text.length > JSON_PATH_MAX_LENGTH)
    throw new PathError(`is longer than ${JSON_PATH_MAX_LENGTH} characters`);
  if (text[0] !== '$') throw new PathError('must start with $');
  const segments: JsonPathSegment[] = [];
  let i = 1;
  const at = () => `at character ${i + 1}`;
  while (i < text.length) {
    if (segments.length >= MAX_SEGMENTS) throw new PathError(`has more than ${MAX_SEGMENTS} segments`);
    let descendant = false;
    const c = text[i];
    if (c === '.') {
      i++;
      if (text[i] === '.') {
        descendant = true;
        i++;
      }
      if (text[i] === '[') {
        if (!descendant) throw new PathError(`has ".[" ${at()}`);
        const [selector, next] = bracket(text, i);
        segments.push({ descendant, selector });
        i = next;
        continue;
      }
      if (text[i] === '*') {
        segments.push({ descendant, selector: { kind: 'wildcard' } });
        i++;
        continue;
      }
      const start = i;
      if (i >= text.length || !NAME_FIRST.test(text[i]!)) throw new PathError(`expects a name ${at()}`);
      while (i < text.length && NAME_CHAR.test(text[i]!)) i++;
      segments.push({ descendant, selector: { kind: 'name', name: text.slice(start, i) } });
    } else if (c === '[') {
      const [selector, next] = bracket(text, i);
      segments.push({ descendant, selector });
      i = next;
    } else {
      throw new PathError(`has an unexpected "${c}" ${at()}`);
    }
  }
  const singular = segments.every((s) => !s.descendant && s.selector.kind !== 'wildcard');
  return { segments, singular };
};

/** The selector in brackets starting at `text[open]` ('['), and the index after its ']'. */
const bracket = (text: string, open: number): [JsonPathSelector, number] => {
  let i = open + 1;
  const c = text[i];
  let selector: JsonPathSelector;
  if (c === '*') {
    selector = { kind: 'wildcard' };
    i++;
  } else if (c === "'" || c === '"') {
    let name = '';
    i++;
    for (;;) {
      if (i >= text.length) throw new PathError('has an unterminated string');
      const ch = text[i]!;
      if (ch === c) break;
      if (ch === '\\') {
        const e = text[i + 1];
        if (e !== '\\' && e !== "'" && e !== '"')
          throw new PathError(`has an unknown escape at character ${i + 1}`);
        name += e;
        i += 2;
        continue;
      }
      name += ch;
      i++;
    }
    i++;
    selector = { kind: 'name', name };
  } else if (c !== undefined && /[-0-9]/.test(c)) {
    const m = /^-?(0|[1-9][0-9]{0,8})/.exec(text.slice(i, i + 11));
    if (!m) throw new PathError(`expects an index at character ${i + 1}`);
    selector = { kind: 'index', index: Number(m[0]) };
    i += m[0].length;
  } else if (c === '?' || c === '(') {
    throw new PathError('uses a filter or script expression, which is not supported');
  } else {
    throw new PathError(`expects a name, an index or * at character ${i + 1}`);
  }
  if (text[i] === ':' || text[i] === ',')
    throw new PathError('uses slices or unions, which are not supported');
  if (text[i] !== ']') throw new PathError(`expects "]" at character ${i + 1}`);
  return [selector, i + 1];
};
