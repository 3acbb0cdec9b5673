import { type FieldProblem, parseJsonPath } from '@lookout/shared';
import { RE2JS } from 're2js';
import { SECRET_NAME } from '../secrets/sealed-secrets.js';
import type { Monitor } from '../types.js';

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

/** A step as stored (the schema of multistep.ts checked its shape already). */
interface StepShape {
  name: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  extract?: { name: string; source: string; property?: string; regex?: string }[];
}

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
const extractProblems = (e: NonNullable<StepShape['extract']>[number], at: string, out: FieldProblem[]) => {
  if (e.name === 'url')
    out.push({ field: `${at}.name`, message: 'is the monitor’s URL ({{url}}); choose another name' });
  if (e.source === 'json_body' || e.source === 'headers') {
    if (e.property === undefined)
      out.push({ field: `${at}.property`, message: `is required for ${e.source}` });
    else if (e.source === 'headers' && !HEADER_NAME.test(e.property))
      out.push({ field: `${at}.property`, message: 'must be a header name' });
    else if (e.source === 'json_body') {
      const { error } = parseJsonPath(e.property);
      if (error)
        out.push({ field: `${at}.property`, message: `is not a JSONPath this service reads: it ${error}` });
    }
  } else if (e.property !== undefined)
    out.push({
      field: `${at}.property`,
      message: 'is only for json_body and headers; text_body reads the body',
    });
  if (e.regex !== undefined) {
    try {
      const groups = RE2JS.compile(e.regex).groupCount();
      if (groups !== 1)
        out.push({
          field: `${at}.regex`,
          message: `must have exactly one capture group (the value taken), it has ${groups}`,
        });
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      out.push({
        field: `${at}.regex`,
        message: `is not a regular expression this service runs (RE2 syntax): ${why.slice(0, 200)}`,
      });
    }
  }
};

export const multistepRules = (m: Pick<Monitor, 'settings'>): FieldProblem[] => {
  const steps = m.settings.steps as StepShape[] | undefined;
  if (!Array.isArray(steps)) return [];
  const out: FieldProblem[] = [];
  /** Variables extracted by the steps so far; and the first step extracting each, for the message. */
  const known = new Set<string>();
  const laterBy = new Map<string, string>();
  for (const s of steps)
    for (const e of s.extract ?? []) if (!laterBy.has(e.name)) laterBy.set(e.name, s.name);
  const firstOfName = new Map<string, number>();
  steps.forEach((s, i) => {
    const at = `steps[${i}]`;
    const seen = firstOfName.get(s.name);
    if (seen === undefined) firstOfName.set(s.name, i);
    else
      out.push({
        field: `${at}.name`,
        message: `'${s.name}' is the name of step ${seen + 1} too: each step needs its own name`,
      });
    const urlWrong = urlProblem(s.url);
    const texts: [string, string][] = [[`${at}.url`, s.url]];
    for (const [name, value] of Object.entries(s.headers ?? {})) texts.push([`${at}.headers.${name}`, value]);
    if (s.body !== undefined) texts.push([`${at}.body`, s.body]);
    for (const [field, text] of texts) {
      const { names, error } = templateNames(text);
      if (error) {
        out.push({ field, message: error });
        continue;
      }
      const unknown = names.find((n) => n !== 'url' && !n.startsWith('secrets.') && !known.has(n));
      if (unknown !== undefined) {
        const later = laterBy.get(unknown);
        out.push({
          field,
          message:
            later === undefined
              ? `uses {{${unknown}}}, which no earlier step extracts`
              : later === s.name
                ? `uses {{${unknown}}}, which no earlier step extracts ('${s.name}' extracts it from its own response)`
                : `uses {{${unknown}}}, which no earlier step extracts ('${later}' extracts it later)`,
        });
      } else if (field === `${at}.url` && urlWrong) out.push({ field, message: urlWrong });
    }
    const extract = s.extract ?? [];
    for (let j = 0; j < extract.length; j++) extractProblems(extract[j]!, `${at}.extract[${j}]`, out);
    for (const e of extract) known.add(e.name);
  });
  return out;
};
