import type { Assertion } from '@lookout/shared';
import type { ProbeOutcome } from '../probe-port.js';
import { evaluateAssertions, type ResponseView } from './evaluate.js';

export {
  type AssertionFailure,
  BODY_CAP,
  evaluateAssertions,
  JSON_CAP,
  MAX_JSON_DEPTH,
  type ResponseView,
  SHOWN_CAP,
} from './evaluate.js';
export { MATCH_TEXT_CAP } from './regex.js';

/** What a prober read besides the outcome's own status code and response time. */
export type Read = Omit<ResponseView, 'status_code' | 'response_time'>;

/** Whether any assertion reads the body (text or JSON): the prober keeps it only then. */
export const needsBody = (assertions: readonly Assertion[]): boolean =>
  assertions.some((a) => a.source === 'text_body' || a.source === 'json_body');

/** Whether any assertion reads a header. */
export const needsHeaders = (assertions: readonly Assertion[]): boolean =>
  assertions.some((a) => a.source === 'headers');

/**
 * A prober's last step: an outcome that is ok so far fails, with kind `assertion_failed` and a message
 * naming the assertion and the value it saw, when one of `assertions` does not hold. `status_code`
 * and `response_time` are the outcome's own; what else the check read is in `read`. An outcome that
 * already failed is left as it is (its cause says more). Returns the same outcome.
 */
export const applyAssertions = (
  outcome: ProbeOutcome,
  assertions: readonly Assertion[],
  read: Read = {},
): ProbeOutcome => {
  if (!outcome.ok || assertions.length === 0) return outcome;
  const failure = evaluateAssertions(
    {
      status_code: outcome.status_code,
      response_time: outcome.response_time_ms,
      headers: read.headers,
      body: read.body,
      body_truncated: read.body_truncated,
      packet_loss: read.packet_loss,
    },
    assertions,
  );
  if (failure) {
    outcome.ok = false;
    outcome.error = failure;
  }
  return outcome;
};
