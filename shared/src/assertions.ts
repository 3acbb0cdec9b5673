/**
 * Assertions: conditions on what a check read, `{source, property?, comparison, target?}`. The control
 * plane validates them (domain/checks/assertions.ts), the agent evaluates them (agent/src/assertions/).
 */
export const ASSERTION_SOURCES = [
  'status_code',
  'text_body',
  'json_body',
  'headers',
  'response_time',
  'packet_loss',
] as const;
export type AssertionSource = (typeof ASSERTION_SOURCES)[number];

export const ASSERTION_COMPARISONS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'matches',
  'less_than',
  'greater_than',
  'is_empty',
  'not_empty',
] as const;
export type AssertionComparison = (typeof ASSERTION_COMPARISONS)[number];

/** Comparisons that take no target. */
export const TARGETLESS: readonly AssertionComparison[] = ['is_empty', 'not_empty'];

/** One assertion as the agent runs it: `property` and `target` are '' when not given. */
export interface Assertion {
  source: AssertionSource;
  property: string;
  comparison: AssertionComparison;
  target: string;
}
