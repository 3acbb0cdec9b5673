import type { Assertion } from '@lookout/shared';
import type { ProbeOutcome } from '../probe-port.js';

/**
 * Assertions on what a grpc or websocket check read: its status code, its response time and its text
 * (the first message, or the serving status's name). Plain comparisons only; an assertion this
 * evaluator cannot judge (`json_body`, `headers`, `matches`) fails the check saying so, never passes
 * unseen. An outcome that already failed is left as it is. Returns the same outcome.
 */
export const applyReadingAssertions = (
  outcome: ProbeOutcome,
  assertions: readonly Assertion[],
  text: string | null,
): ProbeOutcome => {
  if (!outcome.ok) return outcome;
  for (const a of assertions) {
    const failure = judge(a, outcome, text);
    if (failure) {
      outcome.ok = false;
      outcome.error = { kind: 'assertion_failed', message: failure };
      return outcome;
    }
  }
  return outcome;
};

const SHOWN = 80;
const shown = (v: string | number | null): string =>
  v === null
    ? 'absent'
    : typeof v === 'number'
      ? String(Math.round(v * 10) / 10)
      : JSON.stringify(v.slice(0, SHOWN));

/** Why `a` does not hold, or null when it does. */
const judge = (a: Assertion, outcome: ProbeOutcome, text: string | null): string | null => {
  let actual: string | number | null;
  if (a.source === 'status_code') actual = outcome.status_code ?? null;
  else if (a.source === 'response_time') actual = outcome.response_time_ms;
  else if (a.source === 'text_body') actual = text;
  else
    return `${a.source} cannot be read from a ${a.source === 'json_body' ? 'message' : 'check'} of this type by this agent`;
  const target = a.target;
  const n = Number(target);
  const asText = actual === null ? null : String(actual);
  let holds: boolean;
  switch (a.comparison) {
    case 'equals':
      holds = typeof actual === 'number' ? actual === n : asText === target;
      break;
    case 'not_equals':
      holds = typeof actual === 'number' ? actual !== n : asText !== target;
      break;
    case 'contains':
      holds = asText?.includes(target) === true;
      break;
    case 'not_contains':
      holds = asText === null || !asText.includes(target);
      break;
    case 'less_than':
    case 'greater_than': {
      const v = typeof actual === 'number' ? actual : Number(asText);
      if (asText === null || target.trim() === '' || Number.isNaN(v) || Number.isNaN(n)) holds = false;
      else holds = a.comparison === 'less_than' ? v < n : v > n;
      break;
    }
    case 'is_empty':
      holds = asText === null || asText === '';
      break;
    case 'not_empty':
      holds = asText !== null && asText !== '';
      break;
    default:
      return `${a.source} ${a.comparison} cannot be judged by this agent`;
  }
  if (holds) return null;
  const expected =
    a.comparison === 'is_empty' || a.comparison === 'not_empty'
      ? a.comparison
      : `${a.comparison} ${JSON.stringify(target)}`;
  return `${a.source} was ${shown(actual)}, expected ${expected}`;
};
