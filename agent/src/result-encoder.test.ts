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

  it('writes a scripted run’s report (field 16) as protobuf-es does; absent, no field at all', () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const failed = result({
      ok: false,
      error: { kind: 'script_failed', message: "step 2 'Sign in' failed: timeout (line 7)" },
      response_time_ms: 2300,
      script: {
        steps: [
          { name: 'Open', ok: true, duration_ms: 410.6, error: null, status_code: null },
          { name: 'Sign in', ok: false, duration_ms: 1890, error: 'timeout', status_code: 502 },
        ],
        failed_step: 2,
        error_line: 7,
        web_vitals: { ttfb_ms: 35, lcp_ms: null, cls: 0.12 },
        console_errors: ['TypeError: ü is undefined'],
        failed_requests: ['GET http://shop.test/api 502'],
        screenshot: { type: 'image/png', data: png },
      },
    });
    const passed = result({
      ok: true,
      error: null,
      response_time_ms: 40,
      script: {
        steps: [{ name: 'Pay', ok: true, duration_ms: 40, error: null, status_code: 200 }],
        failed_step: null,
        error_line: null,
        web_vitals: null,
        console_errors: [],
        failed_requests: [],
        screenshot: null,
      },
    });
    const plain = result({ ok: true, error: null, response_time_ms: 4 });
    expect(plain.script).toBeUndefined();
    expect(records([failed, passed, plain])).toEqual(asList([failed, passed, plain]));
    const back = fromBinary(ReportResultsRequestSchema, records([failed, passed, plain])).results;
    expect(back[0]!.script).toMatchObject({
      failedStep: 2,
      errorLine: 7,
      screenshotType: 'image/png',
      webVitals: { measured: true, ttfbMs: 35, lcpMs: 0, cls: 0.12 },
      consoleErrors: ['TypeError: ü is undefined'],
    });
    expect(back[0]!.script!.steps.map((st) => [st.name, st.durationMs, st.error, st.statusCode])).toEqual([
      ['Open', 411, '', 0],
      ['Sign in', 1890, 'timeout', 502],
    ]);
    expect(Buffer.from(back[0]!.script!.screenshot).equals(png)).toBe(true);
    expect(back[1]!.script!.webVitals).toBeUndefined();
    expect(back[1]!.script!.screenshot.length).toBe(0);
    expect(back[2]!.script).toBeUndefined();
  });

  it('cuts a report to the bounds the control plane keeps: steps, strings, lines, screenshot size', () => {
    const r = result({
      ok: false,
      error: { kind: 'script_failed', message: 'x' },
      response_time_ms: 1,
      script: {
        steps: Array.from({ length: 80 }, (_, i) => ({
          name: `n${i}`.padEnd(300, 'n'),
          ok: false,
          duration_ms: 1,
          error: 'e'.repeat(5000),
          status_code: null,
        })),
        failed_step: 80,
        error_line: null,
        web_vitals: null,
        console_errors: Array.from({ length: 40 }, () => 'c'.repeat(900)),
        failed_requests: [],
        screenshot: { type: 'image/jpeg', data: new Uint8Array(256 * 1024 + 1) },
      },
    });
    const s = r.script!;
    expect([s.steps.length, s.steps[0]!.name.length, s.steps[0]!.error.length]).toEqual([50, 100, 2000]);
    expect([s.consoleErrors.length, s.consoleErrors[0]!.length]).toEqual([20, 500]);
    expect([s.screenshot.length, s.screenshotType]).toEqual([0, '']);
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
