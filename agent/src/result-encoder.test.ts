import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { type CheckResult, CheckResultSchema } from '@lookout/proto';
import { describe, expect, it } from 'vitest';
import { filledMessage } from '../../test/support/filled-message.js';
import type { ProbeOutcome } from './probe-port.js';
import { encodeResults } from './result-encoder.js';
import { resultOf } from './wire.js';

const result = (
  outcome: ProbeOutcome,
  over: { id?: string; runNowRequestId?: string; version?: bigint } = {},
) => {
  const r = resultOf({
    monitorId: 'm1',
    version: over.version ?? 7n,
    scheduledAt: 1_800_000_000_000,
    startedAt: 1_800_000_000_004,
    outcome,
    ...(over.runNowRequestId ? { runNowRequestId: over.runNowRequestId } : {}),
  });
  // Agents leave the id empty; a message from elsewhere (an older agent's) may carry one.
  if (over.id !== undefined) r.resultId = over.id;
  return r;
};

const timings = { dns_ms: 0, connect_ms: 1.2, tls_ms: 0, first_byte_ms: 3.6, total_ms: 4 };

describe('encodeResults', () => {
  it('writes every field of CheckResult as protobuf-es does, byte for byte', () => {
    // Built by reflection: a field added to CheckResult (or its messages) fails here until encoded.
    const all = filledMessage(CheckResultSchema) as unknown as CheckResult;
    const [bytes] = encodeResults([all]);
    expect(Buffer.from(bytes!)).toEqual(Buffer.from(toBinary(CheckResultSchema, all)));
    expect(fromBinary(CheckResultSchema, bytes!)).toEqual(all);
  });

  it('writes the results the agent makes, and the edges of each type, as protobuf-es does', () => {
    const results: CheckResult[] = [
      result({ ok: true, error: null, response_time_ms: 4.4, status_code: 200, timings }),
      result({
        ok: false,
        error: { kind: 'timeout', message: 'timed out after 5000 ms' },
        response_time_ms: 5001,
      }),
      result(
        {
          ok: true,
          error: null,
          response_time_ms: 12,
          status_code: 200,
          timings: { dns_ms: 0, connect_ms: 0, tls_ms: 0, first_byte_ms: 0, total_ms: 0 },
          tls: {
            valid_to: '1969-07-20T20:17:00Z',
            days_remaining: -1,
            subject: 'ünïcødé.example',
            issuer: '',
          },
        },
        { runNowRequestId: 'req-1', version: 2n ** 63n + 5n },
      ),
      result({
        ok: true,
        error: null,
        response_time_ms: 2 ** 32 - 1,
        dns: { records: ['', '192.0.2.1', 'x'.repeat(300)] },
        domain: { expires_at: '2031-01-01T00:00:00Z', days_remaining: 1500 },
      }),
      result(
        { ok: false, error: { kind: 'agent_error', message: 'lone \ud800 surrogate' }, response_time_ms: 0 },
        { id: 'm1:eu-west:1800000000000' },
      ),
    ];
    const encoded = encodeResults(results);
    expect(encoded).toHaveLength(results.length);
    for (const [i, r] of results.entries()) {
      expect(Buffer.from(encoded[i]!)).toEqual(Buffer.from(toBinary(CheckResultSchema, r)));
    }
    // Views on one buffer, each holding only its own result.
    expect(new Set(encoded.map((b) => b.buffer)).size).toBe(1);
    expect(fromBinary(CheckResultSchema, encoded[3]!).dnsRecords).toEqual(['', '192.0.2.1', 'x'.repeat(300)]);
  });

  it('grows past its first buffer, and a later call does not touch what an earlier one returned', () => {
    const big = Array.from({ length: 2000 }, (_, i) =>
      result({
        ok: false,
        error: { kind: 'status_mismatch', message: `expected 200, got ${i}` },
        response_time_ms: i,
      }),
    );
    const first = encodeResults(big);
    const copy = first.map((b) => Buffer.from(b));
    encodeResults([result({ ok: true, error: null, response_time_ms: 1 })]);
    expect(first.map((b) => Buffer.from(b))).toEqual(copy);
    expect(fromBinary(CheckResultSchema, first[1999]!)).toEqual(big[1999]);
    expect(encodeResults([])).toEqual([]);
  });
});
