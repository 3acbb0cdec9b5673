import type { Assertion } from '@lookout/shared';

/**
 * Assertions on a measured number (`response_time` in ms, `packet_loss` in %), for the probers that
 * read no response body. The failure names the assertion and the actual value, in the one form
 * failures take: `packet_loss was 66.7, expected less_than "50"`. Assertions on other sources do not
 * apply to these values and pass.
 */
export const numericAssertionFailure = (
  assertions: readonly Assertion[],
  values: Partial<Record<'response_time' | 'packet_loss', number>>,
): string | null => {
  for (const a of assertions) {
    if (a.source !== 'response_time' && a.source !== 'packet_loss') continue;
    const actual = values[a.source];
    if (actual === undefined) continue;
    const shown = Math.round(actual * 10) / 10;
    if (!holds(a, shown)) {
      const target =
        a.comparison === 'is_empty' || a.comparison === 'not_empty' ? '' : ` "${a.target.slice(0, 100)}"`;
      return `${a.source} was ${shown}, expected ${a.comparison}${target}`;
    }
  }
  return null;
};

const holds = (a: Assertion, actual: number): boolean => {
  const target = Number(a.target);
  const text = String(actual);
  switch (a.comparison) {
    case 'equals':
      return actual === target;
    case 'not_equals':
      return actual !== target;
    case 'less_than':
      return actual < target;
    case 'greater_than':
      return actual > target;
    case 'contains':
      return text.includes(a.target);
    case 'not_contains':
      return !text.includes(a.target);
    case 'is_empty':
      return false;
    case 'not_empty':
      return true;
    case 'matches':
      // The text matched is a number's few characters: no pattern can take long on it.
      try {
        return new RegExp(a.target).test(text);
      } catch {
        return false;
      }
  }
};
