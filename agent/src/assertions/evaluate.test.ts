import type { Assertion, AssertionComparison, AssertionSource } from '@lookout/shared';
import { describe, expect, it } from 'vitest';
import type { ProbeOutcome } from '../probe-port.js';
import {
  applyAssertions,
  evaluateAssertions,
  JSON_CAP,
  MATCH_TEXT_CAP,
  MAX_JSON_DEPTH,
  needsBody,
  needsHeaders,
  type ResponseView,
} from './index.js';
import { cachedPatterns } from './regex.js';

const a = (
  source: AssertionSource,
  comparison: AssertionComparison,
  target = '',
  property = '',
): Assertion => ({
  source,
  property,
  comparison,
  target,
});

const body = JSON.stringify({
  status: 'degraded',
  count: 12,
  ratio: 0.5,
  ok: false,
  none: null,
  empty: [],
  data: [
    { status: 'ok', id: 1 },
    { status: 'down', id: 2 },
  ],
  nested: { deep: { status: 'ok' } },
});
const view: ResponseView = {
  status_code: 503,
  headers: { 'content-type': 'application/json; charset=utf-8', 'x-empty': '' },
  body,
  response_time: 734.26,
};
const check = (...assertions: Assertion[]) => evaluateAssertions(view, assertions)?.message ?? null;

describe('evaluateAssertions', () => {
  it('says which assertion failed and what was there, in the one form', () => {
    expect(check(a('json_body', 'equals', 'ok', '$.status'))).toBe(
      '$.status was "degraded", expected equals "ok"',
    );
    expect(check(a('status_code', 'equals', '200'))).toBe('status_code was 503, expected equals 200');
    expect(check(a('response_time', 'less_than', '500'))).toBe(
      'response_time was 734.3, expected less_than 500',
    );
    expect(check(a('headers', 'contains', 'text/html', 'Content-Type'))).toBe(
      'header Content-Type was "application/json; charset=utf-8", expected contains "text/html"',
    );
    expect(check(a('json_body', 'is_empty', '', '$.data'))).toBe(
      '$.data was [{"status":"ok","id":1},{"status":"down","id":2}], expected is_empty',
    );
    expect(check(a('json_body', 'equals', 'ok', '$.missing'))).toBe(
      '$.missing was absent, expected equals "ok"',
    );
    expect(check(a('packet_loss', 'less_than', '10'))).toBe('packet_loss was absent, expected less_than 10');
  });

  it('stops at the first assertion that fails, and passes when all hold', () => {
    expect(check(a('status_code', 'equals', '503'), a('json_body', 'equals', 'ok', '$.status'))).toBe(
      '$.status was "degraded", expected equals "ok"',
    );
    expect(
      check(a('status_code', 'equals', '503'), a('json_body', 'equals', 'degraded', '$.status')),
    ).toBeNull();
    expect(check()).toBeNull();
  });

  it.each<[Assertion, boolean]>([
    [a('status_code', 'equals', '503'), true],
    [a('status_code', 'not_equals', '200'), true],
    [a('status_code', 'greater_than', '499'), true],
    [a('status_code', 'less_than', '500'), false],
    [a('text_body', 'contains', '"degraded"'), true],
    [a('text_body', 'not_contains', 'degraded'), false],
    [a('text_body', 'matches', '"count":\\s*1\\d'), true],
    [a('text_body', 'matches', '^\\{"status"'), true],
    [a('text_body', 'not_empty'), true],
    [a('json_body', 'equals', '12', '$.count'), true],
    [a('json_body', 'equals', '12.0', '$.count'), true],
    [a('json_body', 'equals', '0.5', '$.ratio'), true],
    [a('json_body', 'greater_than', '11.5', '$.count'), true],
    [a('json_body', 'less_than', '12', '$.count'), false],
    [a('json_body', 'less_than', '1', '$.status'), false],
    [a('json_body', 'equals', 'false', '$.ok'), true],
    [a('json_body', 'equals', 'null', '$.none'), true],
    [a('json_body', 'is_empty', '', '$.none'), true],
    [a('json_body', 'is_empty', '', '$.empty'), true],
    [a('json_body', 'is_empty', '', '$.missing'), true],
    [a('json_body', 'not_empty', '', '$.missing'), false],
    [a('json_body', 'not_equals', 'ok', '$.missing'), true],
    [a('json_body', 'equals', 'ok', '$.data[0].status'), true],
    [a('json_body', 'equals', 'down', '$.data[-1].status'), true],
    [a('json_body', 'equals', 'ok', '$.data[5].status'), false],
    [a('json_body', 'equals', 'ok', "$['nested']['deep'].status"), true],
    [a('json_body', 'contains', 'down', '$.data[*].status'), true],
    [a('json_body', 'not_contains', 'down', '$.data[*].status'), false],
    [a('json_body', 'contains', 'ok', '$..status'), true],
    [a('json_body', 'equals', '["ok","down"]', '$.data[*].status'), true],
    [a('json_body', 'equals', '{"status":"ok"}', '$.nested.deep'), true],
    [a('json_body', 'is_empty', '', '$.data[*].nope'), true],
    [a('json_body', 'matches', 'degr', '$.status'), true],
    [a('json_body', 'contains', 'grad', '$.status'), true],
    [a('headers', 'equals', 'application/json; charset=utf-8', 'content-type'), true],
    [a('headers', 'is_empty', '', 'x-empty'), true],
    [a('headers', 'is_empty', '', 'x-absent'), true],
    [a('headers', 'not_contains', 'PHP', 'x-powered-by'), true],
    [a('headers', 'matches', '(?i)APPLICATION/json', 'content-type'), true],
    [a('response_time', 'less_than', '1000'), true],
  ])('%j holds: %s', (assertion, holds) => {
    expect(evaluateAssertions(view, [assertion]) === null).toBe(holds);
  });

  it('never looks past the document: prototype names select nothing', () => {
    for (const p of ['$.constructor', '$.__proto__', '$.toString', '$.data.length', "$['hasOwnProperty']"]) {
      expect(check(a('json_body', 'is_empty', '', p))).toBeNull();
    }
    const proto = { ...view, body: '{"__proto__": {"status": "x"}}' };
    expect(evaluateAssertions(proto, [a('json_body', 'equals', '{"status":"x"}', '$.__proto__')])).toBeNull();
  });

  it('fails a check on a body that is not JSON, larger than the cap, or cut short', () => {
    const j = [a('json_body', 'equals', 'ok', '$.status')];
    expect(evaluateAssertions({ ...view, body: '<html>oops' }, j)?.message).toBe(
      '$.status: the body is not JSON',
    );
    expect(evaluateAssertions({ ...view, body: undefined }, j)?.message).toBe(
      '$.status: the body is not JSON',
    );
    const huge = `{"status":"ok","pad":"${'x'.repeat(JSON_CAP)}"}`;
    expect(evaluateAssertions({ ...view, body: huge }, j)?.message).toBe(
      '$.status: the body is larger than 256 KiB, the cap for json_body',
    );
    expect(
      evaluateAssertions({ ...view, body: '{"status":"ok"}', body_truncated: true }, j)?.message,
    ).toMatch(/larger than/);
  });

  it('fails a body nested deeper than the cap before parsing it, and walks one at the cap', () => {
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 1)}"needle"${']'.repeat(MAX_JSON_DEPTH + 1)}`;
    expect(evaluateAssertions({ ...view, body: deep }, [a('json_body', 'not_empty', '', '$')])?.message).toBe(
      `$: the body is nested more than ${MAX_JSON_DEPTH} levels deep`,
    );
    // Brackets inside strings do not count.
    const inString = JSON.stringify({ s: '['.repeat(1000) });
    expect(
      evaluateAssertions({ ...view, body: inString }, [a('json_body', 'not_empty', '', '$.s')]),
    ).toBeNull();
    const atCap = `${'['.repeat(MAX_JSON_DEPTH)}"needle"${']'.repeat(MAX_JSON_DEPTH)}`;
    const v = { ...view, body: atCap };
    expect(evaluateAssertions(v, [a('json_body', 'contains', 'needle', '$..*')])).toBeNull();
    expect(evaluateAssertions(v, [a('json_body', 'contains', 'needle', '$..*..*')])).toBeNull();
    // Each `..` selects the nested values again: many of them over a nested body stop at the bound.
    expect(
      evaluateAssertions(v, [a('json_body', 'contains', 'needle', `$${'..*'.repeat(30)}`)])?.message,
    ).toBe(`$${'..*'.repeat(30)}: the path visits more than 300000 values of the body`);
    expect(evaluateAssertions(v, [a('json_body', 'is_empty', '', '$[0][0]')])?.message).toMatch(
      /^\$\[0\]\[0\] was \[{80}…, expected is_empty$/,
    );
  });

  it('cuts the value it shows, never inside a character', () => {
    const long = `${'é'.repeat(79)}😀tail`;
    const msg = evaluateAssertions({ ...view, body: JSON.stringify({ s: long }) }, [
      a('json_body', 'equals', 'x', '$.s'),
    ])!.message;
    expect(msg).toBe(`$.s was "${'é'.repeat(79)}…", expected equals "x"`);
    expect(evaluateAssertions({ ...view, body: 'a\nb' }, [a('text_body', 'equals', 'x')])!.message).toBe(
      'text_body was "a\\nb", expected equals "x"',
    );
  });

  it('runs a catastrophic pattern in linear time (re2js), on a hostile body', () => {
    // ^(a+)+$ against "aaaa…b" backtracks exponentially in a backtracking engine: 30 a's take V8's
    // RegExp minutes. Here the answer comes at once; the test would time out otherwise.
    const hostile = { ...view, body: `${'a'.repeat(MATCH_TEXT_CAP - 1)}b` };
    expect(evaluateAssertions(hostile, [a('text_body', 'matches', '^(a+)+$')])?.message).toMatch(
      /^text_body was "a{80}…", expected matches "\^\(a\+\)\+\$"$/,
    );
    expect(evaluateAssertions(hostile, [a('text_body', 'matches', '(a|aa)+b$')])).toBeNull();
    expect(evaluateAssertions(hostile, [a('text_body', 'matches', '(x+x+)+y')])?.message).toMatch(
      /expected matches/,
    );
  });

  it('refuses to match a value past the cap rather than cut it (a cut would move `$`)', () => {
    const long = { ...view, body: `${'a'.repeat(MATCH_TEXT_CAP)}b` };
    expect(evaluateAssertions(long, [a('text_body', 'matches', '^(a+)+$')])?.message).toBe(
      'text_body: the value is longer than 64 KiB, the cap for matches',
    );
    expect(evaluateAssertions(long, [a('text_body', 'contains', 'ab')])).toBeNull();
  });

  it('keeps a bounded number of compiled patterns', () => {
    for (let i = 0; i < 600; i++) evaluateAssertions(view, [a('text_body', 'matches', `x${i}`)]);
    expect(cachedPatterns()).toBeLessThanOrEqual(256);
  });

  it('says so when a pattern does not compile (the control plane refuses it first)', () => {
    expect(check(a('text_body', 'matches', '(unclosed'))).toBe(
      'text_body: the pattern "(unclosed" does not compile',
    );
  });
});

describe('applyAssertions', () => {
  const outcome = (): ProbeOutcome => ({ ok: true, error: null, response_time_ms: 40, status_code: 200 });
  it('fails an ok outcome with assertion_failed, reading its status and time', () => {
    const o = applyAssertions(outcome(), [a('status_code', 'equals', '201')]);
    expect(o).toMatchObject({
      ok: false,
      error: { kind: 'assertion_failed', message: 'status_code was 200, expected equals 201' },
    });
    expect(applyAssertions(outcome(), [a('response_time', 'less_than', '50')]).ok).toBe(true);
    expect(applyAssertions(outcome(), [a('packet_loss', 'equals', '0')], { packet_loss: 0 }).ok).toBe(true);
    expect(applyAssertions(outcome(), [a('text_body', 'equals', 'PONG')], { body: 'PONG' }).ok).toBe(true);
  });
  it('leaves a failed outcome as it is', () => {
    const failed: ProbeOutcome = { ok: false, error: { kind: 'timeout', message: 't' }, response_time_ms: 1 };
    expect(applyAssertions(failed, [a('status_code', 'equals', '201')]).error?.kind).toBe('timeout');
  });
  it('tells the prober what to read', () => {
    expect(needsBody([a('status_code', 'equals', '1')])).toBe(false);
    expect(needsBody([a('json_body', 'is_empty', '', '$')])).toBe(true);
    expect(needsHeaders([a('headers', 'is_empty', '', 'x')])).toBe(true);
  });
});
