import { parseJsonPath } from '@lookout/shared';
import { RE2JS } from 're2js';
import { SECRET_NAME } from '../secrets/sealed-secrets.js';

/**
 * The rules of a multi-step check across its steps (docs/scripted-checks.md, "Multi-step checks"), as
 * the agent will run them (agent/src/probers/templates.ts, extract.ts), so a check the API accepts
 * never fails at the agent for its own sake:
 * - `{{name}}` in a step's url, header values and body is `url` (the monitor's URL), `secrets.NAME`
 *   (whether it is set is the secrets rule's), or a variable an EARLIER step extracts;
 * - a template is well formed: every `{{` has its `}}`, the name inside is not empty;
 * - an extract from json_body or headers has a `property` (json_body: a JSONPath the agent reads), a
 *   `regex` compiles in the agent's engine (RE2) with exactly one capture group;
 * - step names differ; a step URL whose scheme and host are written out is http(s).
 * Every problem is named with its path (`steps[1].url`), all in one answer.
 */

/** One problem, its path from the steps array (`[1, 'url']`). */
export interface StepProblem {
  path: (string | number)[];
  message: string;
}

/** An extract as far as it could be read (a field of the wrong type: null; zod names it already). */
interface ExtractRead {
  name: string | null;
  source: string | null;
  property: string | null | undefined;
  regex: string | null | undefined;
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const optionalText = (v: unknown): string | null | undefined => (v === undefined ? undefined : text(v));
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/** The names a text's templates use, or what is wrong with the first malformed one. */
export const templateNames = (text: string): { names: string[]; error: string | null } => {
  const names: string[] = [];
  let i = text.indexOf('{{');
  while (i !== -1) {
    const end = text.indexOf('}}', i + 2);
    if (end === -1) return { names, error: 'has {{ without its closing }}' };
    const name = text.slice(i + 2, end).trim();
    if (name === '') return { names, error: 'has an empty {{}}: name a variable inside' };
    if (name.startsWith('secrets.')) {
      if (!SECRET_NAME.test(name.slice(8)))
        return { names, error: `uses {{${short(name)}}}: a secret's name is upper case, digits and _` };
    } else if (!VARIABLE.test(name))
      return { names, error: `uses {{${short(name)}}}, which is not a variable name` };
    names.push(name);
    i = text.indexOf('{{', end + 2);
  }
  return { names, error: null };
};

const short = (s: string) => (s.length > 40 ? `${s.slice(0, 40)}…` : s);

/** What is wrong with a step's URL: http(s) when its scheme is written out, a URL when its host is too. */
const urlProblem = (url: string): string | null => {
  const first = url.indexOf('{{');
  if (first === 0) return null; // {{url}}/login: the agent checks what it becomes
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url);
  if (!scheme) return 'must be a full http:// or https:// URL, or start with a {{variable}} such as {{url}}';
  const protocol = scheme[1]!.toLowerCase();
  if (protocol !== 'http' && protocol !== 'https') return 'must be an http:// or https:// URL';
  // The host is written out when the authority ends before the first template.
  const rest = url.slice(scheme[0].length);
  if (!rest.startsWith('//')) return 'must be a full http:// or https:// URL';
  const authorityEnd = rest.slice(2).search(/[/?#]/);
  const hostLiteral = first === -1 || (authorityEnd !== -1 && scheme[0].length + 2 + authorityEnd <= first);
  if (!hostLiteral) return null;
  let u: URL;
  try {
    u = new URL(url.replaceAll(/\{\{[^}]*\}\}/g, 'x'));
  } catch {
    return 'must be a full http:// or https:// URL';
  }
  if (u.username || u.password) return 'must not carry credentials; send them in a header';
  return null;
};

/** What is wrong with one extract, by field. */
const extractProblems = (e: ExtractRead, at: (string | number)[], out: StepProblem[]) => {
  const add = (field: string, message: string) => out.push({ path: [...at, field], message });
  if (e.name === 'url') add('name', 'is the monitor’s URL ({{url}}); choose another name');
  if (e.property === null) return;
  if (e.source === 'json_body' || e.source === 'headers') {
    if (e.property === undefined) add('property', `is required for ${e.source}`);
    else if (e.source === 'headers' && !HEADER_NAME.test(e.property))
      add('property', 'must be a header name');
    else if (e.source === 'json_body') {
      const { error } = parseJsonPath(e.property);
      if (error) add('property', `is not a JSONPath this service reads: it ${error}`);
    }
  } else if (e.source === 'text_body' && e.property !== undefined)
    add('property', 'is only for json_body and headers; text_body reads the body');
  if (typeof e.regex === 'string') {
    try {
      const groups = RE2JS.compile(e.regex).groupCount();
      if (groups !== 1)
        add('regex', `must have exactly one capture group (the value taken), it has ${groups}`);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      add('regex', `is not a regular expression this service runs (RE2 syntax): ${why.slice(0, 200)}`);
    }
  }
};

/**
 * Every problem of `steps` as the client sent them: run by the steps field's schema (multistep.ts)
 * even when zod found something else wrong, so one answer names every bad field. Reads defensively:
 * what is not of its type is skipped (zod names it).
 */
export const stepProblems = (steps: unknown, maxSteps: number): StepProblem[] => {
  if (!Array.isArray(steps) || steps.length > maxSteps) return [];
  const out: StepProblem[] = [];
  const read = steps.map((raw) => {
    const s = isRecord(raw) ? raw : {};
    const extract = Array.isArray(s.extract) ? s.extract : [];
    return {
      name: text(s.name),
      url: text(s.url),
      headers: isRecord(s.headers) ? s.headers : {},
      body: text(s.body),
      extract: extract.map(
        (e): ExtractRead =>
          isRecord(e)
            ? {
                name: text(e.name),
                source: text(e.source),
                property: optionalText(e.property),
                regex: optionalText(e.regex),
              }
            : { name: null, source: null, property: null, regex: null },
      ),
    };
  });
  /** The first step extracting each name, for the message. */
  const firstBy = new Map<string, string>();
  for (const s of read)
    for (const e of s.extract) if (e.name !== null && !firstBy.has(e.name)) firstBy.set(e.name, s.name ?? '');
  /** Variables extracted by the steps so far. */
  const known = new Set<string>();
  const firstOfName = new Map<string, number>();
  read.forEach((s, i) => {
    if (s.name !== null) {
      const seen = firstOfName.get(s.name);
      if (seen === undefined) firstOfName.set(s.name, i);
      else
        out.push({
          path: [i, 'name'],
          message: `'${s.name}' is the name of step ${seen + 1} too: each step needs its own name`,
        });
    }
    const texts: [(string | number)[], string][] = [];
    if (s.url !== null) texts.push([[i, 'url'], s.url]);
    for (const [name, value] of Object.entries(s.headers))
      if (typeof value === 'string') texts.push([[i, 'headers', name], value]);
    if (s.body !== null) texts.push([[i, 'body'], s.body]);
    for (const [path, t] of texts) {
      const { names, error } = templateNames(t);
      if (error) {
        out.push({ path, message: error });
        continue;
      }
      const unknown = names.find((n) => n !== 'url' && !n.startsWith('secrets.') && !known.has(n));
      if (unknown !== undefined) {
        const later = firstBy.get(unknown);
        out.push({
          path,
          message:
            later === undefined
              ? `uses {{${unknown}}}, which no earlier step extracts`
              : later === s.name
                ? `uses {{${unknown}}}, which no earlier step extracts ('${later}' extracts it from its own response)`
                : `uses {{${unknown}}}, which no earlier step extracts ('${later}' extracts it later)`,
        });
      } else if (path[1] === 'url') {
        const wrong = urlProblem(t);
        if (wrong) out.push({ path, message: wrong });
      }
    }
    for (let j = 0; j < s.extract.length; j++) extractProblems(s.extract[j]!, [i, 'extract', j], out);
    for (const e of s.extract) if (e.name !== null) known.add(e.name);
  });
  return out;
};
