import type { Assertion } from '@lookout/shared';
import { evaluateAssertions } from '../assertions/index.js';

/**
 * Assertions on a measured number (`response_time` in ms, `packet_loss` in %), for the probers that
 * read no response body, evaluated as every assertion is (assertions/evaluate.ts: the same
 * comparisons, RE2 patterns and message, `packet_loss was 66.7, expected less_than 50`). Assertions
 * on other sources do not apply to these values and pass.
 */
export const numericAssertionFailure = (
  assertions: readonly Assertion[],
  values: Partial<Record<'response_time' | 'packet_loss', number>>,
): string | null => {
  const applying = assertions.filter((a) => values[a.source as keyof typeof values] !== undefined);
  if (applying.length === 0) return null;
  const failure = evaluateAssertions(
    { response_time: values.response_time ?? 0, packet_loss: values.packet_loss },
    applying,
  );
  return failure?.message ?? null;
};
