import { describe, expect, it } from 'vitest';
import { reserveMs, runError } from './browser-prober.js';
import type { SandboxOutcome } from './protocol.js';

const step = (name: string, ok: boolean, error: string | null = null) => ({
  name,
  ok,
  duration_ms: 10,
  error,
  status_code: null,
});
const outcome = (o: Partial<SandboxOutcome>): SandboxOutcome => ({
  ok: false,
  kind: 'script_error',
  error: 'locator.click: Timeout 5000ms exceeded',
  line: 7,
  steps: [],
  ...o,
});

describe('a failed browser run’s error (pinned words)', () => {
  it('names the failed step, its number and the line', () => {
    const out = outcome({ steps: [step('Open', true), step('Sign in', false, 'x')] });
    expect(runError(out)).toEqual({
      message: "step 2 'Sign in' failed: locator.click: Timeout 5000ms exceeded (line 7)",
      failedStep: 2,
    });
  });
  it('outside any step: the error and the line; without a line: the error alone', () => {
    expect(runError(outcome({ steps: [step('Open', true)] })).message).toBe(
      'locator.click: Timeout 5000ms exceeded (line 7)',
    );
    expect(runError(outcome({ line: null, kind: 'timeout', error: 'timed out after 8000 ms' })).message).toBe(
      'timed out after 8000 ms',
    );
  });
  it('keeps a reserve of the timeout for the report: 20 %, between 1 and 5 s', () => {
    expect([reserveMs(2_000), reserveMs(15_000), reserveMs(60_000)]).toEqual([1_000, 3_000, 5_000]);
  });
});
