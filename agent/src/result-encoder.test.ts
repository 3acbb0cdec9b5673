import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { type CheckResult, CheckResultSchema, ReportResultsRequestSchema } from '@lookout/proto';
import { describe, expect, it } from 'vitest';
import { filledMessage } from '../../test/support/filled-message.js';
import type { ProbeOutcome } from './probe-port.js';
import { encodeRecord } from './result-encoder.js';
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

/** What protobuf-es writes for these results as ReportResultsRequest's `results` (field 2). */
const asList = (results: CheckResult[]) =>
  Buffer.from(toBinary(ReportResultsRequestSchema, create(ReportResultsRequestSchema, { results })));
/** The records encodeRecord writes for them, back to back (each copied out before the next call). */
const records = (results: CheckResult[]) =>
  Buffer.concat(results.map((r) => Buffer.from(encodeRecord(2, r))));

describe('encodeRecord', () => {
  it('writes every field of CheckResult as protobuf-es does, byte for byte, as one record of a list', () => {
    // Built by reflection: a field added to CheckResult (or its messages) fails here until encoded.
    const all = filledMessage(CheckResultSchema) as unknown as CheckResult;
    expect(records([all])).toEqual(asList([all]));
    expect(fromBinary(ReportResultsRequestSchema, new Uint8Array(records([all]))).results).toEqual([all]);
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
    expect(records(results)).toEqual(asList(results));
    const back = fromBinary(ReportResultsRequestSchema, records(results)).results;
    expect(back[3]!.dnsRecords).toEqual(['', '192.0.2.1', 'x'.repeat(300)]);
    expect(back[4]!.resultId).toBe('m1:eu-west:1800000000000');
  });

  it('writes a record longer than its first scratch buffer, and one whose length takes three bytes', () => {
    const long = result({
      ok: false,
      error: { kind: 'status_mismatch', message: 'é'.repeat(70_000) },
      response_time_ms: 1,
    });
    const small = result({ ok: true, error: null, response_time_ms: 1 });
    expect(records([small, long, small])).toEqual(asList([small, long, small]));
    // The length of a 140 KB record is a three-byte varint after the one-byte tag.
    const record = encodeRecord(2, long);
    expect([record[0], record.length]).toEqual([0x12, 1 + 3 + toBinary(CheckResultSchema, long).length]);
  });
});
