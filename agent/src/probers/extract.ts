import { parseJsonPath } from '@lookout/shared';
import { JSON_CAP, MATCH_TEXT_CAP } from '../assertions/index.js';
import { selectAll } from '../assertions/json-path.js';
import { jsonPrefix } from '../assertions/json-text.js';
import { compiled } from '../assertions/regex.js';
import type { StepExtract } from '../probe-port.js';

/**
 * A multi-step check's extraction: a variable taken from a step's response, by JSONPath from the body
 * (the assertions' parser and walker, with their caps: JSON_CAP), from a header, or the whole text
 * body; then, with `regex`, its one capture group (re2js, linear time; the value read is at most
 * MATCH_TEXT_CAP, as for `matches`). A value is at most VALUE_CAP characters: it goes into a URL,
 * a header or a body. Pure: no I/O.
 */
export const VALUE_CAP = 16 * 1024;

/** What a step read, for its extracts. */
export interface ExtractView {
  /** Undefined when not kept (no extract or assertion read it). */
  body: string | undefined;
  headers: Readonly<Record<string, string>> | undefined;
}

/** The body as JSON, parsed once per step (several extracts share it); null until asked for. */
export interface JsonCache {
  parsed: { value: unknown; error: string | null } | null;
}

const parsedBody = (view: ExtractView, cache: JsonCache) => {
  if (cache.parsed) return cache.parsed;
  const body = view.body ?? '';
  if (body.length > JSON_CAP)
    cache.parsed = {
      value: null,
      error: `the body is larger than ${JSON_CAP / 1024} KiB, the cap for json_body`,
    };
  else {
    try {
      cache.parsed = { value: JSON.parse(body), error: null };
    } catch {
      cache.parsed = { value: null, error: 'the body is not JSON' };
    }
  }
  return cache.parsed;
};

/** The value `e` takes from the response, or why it took none (the message names no value). */
export const extractOne = (
  e: StepExtract,
  view: ExtractView,
  cache: JsonCache,
): { value: string } | { error: string } => {
  let found: string | undefined;
  if (e.source === 'json_body') {
    const json = parsedBody(view, cache);
    if (json.error !== null) return { error: json.error };
    const path = parseJsonPath(e.property ?? '').path;
    if (!path) return { error: `${e.property} is not a JSONPath this agent reads` };
    const values = selectAll(json.value, path);
    if (!values) return { error: `${e.property} visits too many values of the body` };
    const v = values[0];
    if (v === undefined) return { error: `${e.property} found nothing in the body` };
    found = typeof v === 'string' ? v : jsonPrefix(v, VALUE_CAP + 1).text;
  } else if (e.source === 'headers') {
    found = view.headers?.[(e.property ?? '').toLowerCase()];
    if (found === undefined) return { error: `the response has no ${e.property} header` };
  } else found = view.body ?? '';
  if (e.regex !== null) {
    if (found.length > MATCH_TEXT_CAP)
      return { error: `the value is longer than ${MATCH_TEXT_CAP / 1024} KiB, the cap for regex` };
    const re = compiled(e.regex);
    if (re instanceof Error) return { error: 'its regex does not compile or is too large' };
    const m = re.matcher(found);
    if (!m.find()) return { error: 'its regex found no match' };
    const g = m.group(1);
    if (g === null || g === undefined) return { error: 'its regex matched without its capture group' };
    found = g;
  }
  if (found.length > VALUE_CAP) return { error: `the value is longer than ${VALUE_CAP / 1024} KiB` };
  return { value: found };
};
