/**
 * A multi-step monitor's steps as the form holds them (every input as typed), to and from the API's
 * `steps` (docs/scripted-checks.md). A browser monitor's example script for a new monitor.
 */
import type { CheckTypeInfo, MonitorDetail } from '../../api.js';
import { type AssertionRow, assertionsOf } from './assertions-editor.js';
import type { Schema } from './type-fields.js';

export interface HeaderRow {
  name: string;
  value: string;
}

export interface ExtractRow {
  name: string;
  source: string;
  property: string;
  regex: string;
}

export interface StepRow {
  name: string;
  method: string;
  url: string;
  headers: HeaderRow[];
  body: string;
  timeout_seconds: string;
  extract: ExtractRow[];
  assertions: AssertionRow[];
}

/** A step as the API stores it. */
interface ApiStep {
  name: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeout_seconds?: number;
  extract?: { name: string; source: string; property?: string; regex?: string }[];
  assertions?: { source: string; property?: string; comparison: string; target?: unknown }[];
}

export const EXTRACT_SOURCES: { value: string; label: string; property: string; placeholder: string }[] = [
  { value: 'json_body', label: 'JSON body', property: 'JSONPath', placeholder: '$.token' },
  { value: 'headers', label: 'Header', property: 'Header', placeholder: 'Location' },
  { value: 'text_body', label: 'Text body', property: '', placeholder: '' },
];

export const blankStep = (n: number): StepRow => ({
  name: n === 1 ? 'Home page' : `Step ${n}`,
  method: 'GET',
  url: n === 1 ? '{{url}}' : '',
  headers: [],
  body: '',
  timeout_seconds: '',
  extract: [],
  assertions: [],
});

/** A monitor's steps as rows; a new monitor starts with one. */
export const stepRowsOf = (m: MonitorDetail | null): StepRow[] => {
  const steps = (m as { steps?: ApiStep[] } | null)?.steps;
  if (!steps?.length) return [blankStep(1)];
  return steps.map((s) => ({
    name: s.name,
    method: s.method,
    url: s.url,
    headers: Object.entries(s.headers ?? {}).map(([name, value]) => ({ name, value })),
    body: s.body ?? '',
    timeout_seconds: s.timeout_seconds === undefined ? '' : String(s.timeout_seconds),
    extract: (s.extract ?? []).map((e) => ({
      name: e.name,
      source: e.source,
      property: e.property ?? '',
      regex: e.regex ?? '',
    })),
    assertions: (s.assertions ?? []).map((a) => ({
      source: a.source,
      property: a.property ?? '',
      comparison: a.comparison,
      target: a.target === undefined || a.target === null ? '' : String(a.target),
    })),
  }));
};

/** Rows as the API takes them: empty optional inputs left out; a number that is not one sent as typed. */
export const stepsOf = (rows: readonly StepRow[]) =>
  rows.map((r) => {
    const t = r.timeout_seconds.trim();
    const headers = r.headers.filter((h) => h.name.trim() !== '' || h.value !== '');
    return {
      name: r.name,
      method: r.method,
      url: r.url.trim(),
      ...(headers.length
        ? { headers: Object.fromEntries(headers.map((h) => [h.name.trim(), h.value])) }
        : {}),
      ...(r.body !== '' ? { body: r.body } : {}),
      ...(t !== '' ? { timeout_seconds: Number.isFinite(Number(t)) ? Number(t) : t } : {}),
      ...(r.extract.length
        ? {
            extract: r.extract.map((e) => ({
              name: e.name.trim(),
              source: e.source,
              ...(e.property.trim() !== '' && e.source !== 'text_body'
                ? { property: e.property.trim() }
                : {}),
              ...(e.regex !== '' ? { regex: e.regex } : {}),
            })),
          }
        : {}),
      ...(r.assertions.length ? { assertions: assertionsOf(r.assertions) } : {}),
    };
  });

/** The step's assertion field as the assertions editor reads it: from the steps field's JSON Schema. */
export const stepAssertionField = (ct: CheckTypeInfo | undefined) => {
  const steps = ct?.fields.find((f) => f.name === 'steps');
  const item = (steps?.schema as Schema | undefined)?.items;
  const schema = (item?.properties?.assertions ?? {}) as Schema;
  return {
    field: { name: 'assertions', required: false, default: null, schema: schema as Record<string, unknown> },
    sources: (schema.items?.properties?.source?.enum ?? ['status_code']).map(String),
    max: (steps?.schema as { maxItems?: number } | undefined)?.maxItems ?? 20,
  };
};

/** What a browser monitor starts with: a script that works against most sites, to edit. */
export const EXAMPLE_SCRIPT = `// page, expect, test.step, url (the monitor's URL) and secrets.NAME are at hand.
await test.step('Open the home page', async () => {
  await page.goto(url);
  await expect(page).toHaveTitle(/.+/);
});
`;
