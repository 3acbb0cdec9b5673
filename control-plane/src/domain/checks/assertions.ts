import {
  ASSERTION_COMPARISONS,
  ASSERTION_SOURCES,
  type Assertion,
  type AssertionComparison,
  type AssertionSource,
  JSON_PATH_MAX_LENGTH,
  type MonitorType,
  parseJsonPath,
  TARGETLESS,
} from '@lookout/shared';
import { RE2JS } from 're2js';
import { z } from 'zod';

/**
 * The `assertions` field of the types that read a response (README.md, "Assertions"): at most
 * MAX_ASSERTIONS conditions `{source, property?, comparison, target?}`, each checked here as the agent
 * will run it (agent/src/assertions/), so a list the API accepts never fails at the agent for its own
 * sake: a JSONPath parses with the agent's parser (shared/src/json-path.ts), a pattern compiles in
 * the agent's engine (re2js, linear time). Every bad field is named: `assertions[2].target`. The
 * output is the agent's shape: `property` and `target` are '' when absent, a numeric target a string.
 */
export const MAX_ASSERTIONS = 20;
export const ASSERTION_TARGET_MAX = 1024;

/** The sources whose value is a number: their target must be one. */
const NUMERIC_SOURCES: readonly AssertionSource[] = ['status_code', 'response_time', 'packet_loss'];
const NUMERIC_COMPARISONS: readonly AssertionComparison[] = ['less_than', 'greater_than'];
/** The numbers the agent reads (agent/src/assertions/evaluate.ts). */
const NUMBER = /^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/**
 * One assertion as far as it could be read: null for a field that is itself wrong (zod named it
 * already), '' for one left out.
 */
interface Read {
  source: AssertionSource | null;
  property: string | null;
  comparison: AssertionComparison | null;
  target: string | null;
}

/** Each problem of one assertion between its fields, by field (what depends on an unreadable field is skipped). */
const problemsOf = (a: Read): [field: 'property' | 'target', message: string][] => {
  const out: [field: 'property' | 'target', message: string][] = [];
  if (a.property !== null && a.source !== null) {
    if (a.source === 'json_body' || a.source === 'headers') {
      if (a.property === '') out.push(['property', `is required for ${a.source} assertions`]);
      else if (a.source === 'headers' && !HEADER_NAME.test(a.property))
        out.push(['property', 'must be a header name']);
      else if (a.source === 'json_body') {
        const { error } = parseJsonPath(a.property);
        if (error) out.push(['property', `is not a JSONPath this service reads: it ${error}`]);
      }
    } else if (a.property !== '') {
      out.push(['property', 'is only for json_body and headers assertions']);
    }
  }
  const t = a.target;
  const c = a.comparison;
  if (t === null || c === null) return out;
  if (TARGETLESS.includes(c)) {
    if (t !== '') out.push(['target', `must be left out for ${c}`]);
  } else if (t === '') {
    out.push(['target', `is required for ${c}`]);
  } else if (NUMERIC_COMPARISONS.includes(c) && !NUMBER.test(t)) {
    out.push(['target', `must be a number for ${c}`]);
  } else if (a.source !== null && NUMERIC_SOURCES.includes(a.source) && c !== 'matches' && !NUMBER.test(t)) {
    out.push(['target', `must be a number for ${a.source} assertions`]);
  } else if (c === 'matches') {
    try {
      RE2JS.compile(t);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      out.push([
        'target',
        `is not a regular expression this service runs (RE2 syntax): ${why.slice(0, 200)}`,
      ]);
    }
  }
  return out;
};

const targetText = (v: unknown): string | null => {
  if (v === undefined) return '';
  if (typeof v === 'string') return v;
  if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean') return String(v);
  return null;
};

const assertionOf = (sources: readonly AssertionSource[]) =>
  z
    .strictObject({
      source: z.enum(sources as [AssertionSource, ...AssertionSource[]]),
      property: z.string().max(JSON_PATH_MAX_LENGTH).optional(),
      comparison: z.enum(ASSERTION_COMPARISONS),
      target: z
        .union([z.string().max(ASSERTION_TARGET_MAX), z.number(), z.boolean()], {
          error: 'must be a string, a number or a boolean',
        })
        .optional(),
    })
    // Runs when a field is already wrong too (`when`), so one answer names every bad field.
    .superRefine(
      (raw, ctx) => {
        if (typeof raw !== 'object' || raw === null) return;
        const r = raw as Record<string, unknown>;
        const read: Read = {
          source: sources.includes(r.source as AssertionSource) ? (r.source as AssertionSource) : null,
          property: r.property === undefined ? '' : typeof r.property === 'string' ? r.property : null,
          comparison: ASSERTION_COMPARISONS.includes(r.comparison as AssertionComparison)
            ? (r.comparison as AssertionComparison)
            : null,
          target: targetText(r.target),
        };
        // Too long: zod said so; the rules below would only say it again.
        if (read.property !== null && read.property.length > JSON_PATH_MAX_LENGTH) read.property = null;
        if (read.target !== null && read.target.length > ASSERTION_TARGET_MAX) read.target = null;
        for (const [field, message] of problemsOf(read))
          ctx.addIssue({ code: 'custom', path: [field], message });
      },
      { when: () => true },
    );

/** The field for a type that reads these sources (a source it does not read is refused by name). */
export const assertionsFor = (sources: readonly AssertionSource[]) =>
  z.array(assertionOf(sources)).max(MAX_ASSERTIONS);

/** A monitor's `assertions` field: one schema for every type that has it (registry.test.ts). */
export const assertionsField = assertionsFor(ASSERTION_SOURCES).describe(
  'Conditions the response must meet, e.g. [{"source": "json_body", "property": "$.status", "comparison": "equals", "target": "ok"}].',
);
/** The same, by the name the issue gives it. */
export const assertions = assertionsField;

/** An assertion as the API takes and stores it (a numeric target stays a number). */
export type StoredAssertion = z.output<typeof assertionsField>[number];

/** Assertions as the agent protocol carries them: every value text, '' when absent. */
export const wireAssertions = (list: readonly StoredAssertion[] | undefined): Assertion[] =>
  (list ?? []).map((a) => ({
    source: a.source,
    property: a.property ?? '',
    comparison: a.comparison,
    target: a.target === undefined ? '' : String(a.target),
  }));

/**
 * What a monitor checks, as assertions: for http and api, `expected_status_code` as `status_code
 * equals` and `required_keyword` as `text_body contains` (the agent checks them as they always were,
 * with their own error kinds), then the monitor's own `assertions`. For display (API, web, MCP):
 * never write it back as `assertions`, or the first two would be checked twice.
 */
export const shownAssertions = (monitor: {
  monitor_type: MonitorType;
  expected_status_code?: number | null;
  required_keyword?: string | null;
  assertions?: readonly StoredAssertion[] | null;
}): StoredAssertion[] => {
  const shown: StoredAssertion[] = [];
  if (monitor.monitor_type === 'http' || monitor.monitor_type === 'api') {
    shown.push({ source: 'status_code', comparison: 'equals', target: monitor.expected_status_code ?? 200 });
    if (monitor.required_keyword) {
      shown.push({ source: 'text_body', comparison: 'contains', target: monitor.required_keyword });
    }
  }
  return [...shown, ...(monitor.assertions ?? [])];
};
