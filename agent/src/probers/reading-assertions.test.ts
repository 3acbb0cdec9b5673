import type { Assertion } from '@lookout/shared';
import { describe, expect, it } from 'vitest';
import type { ProbeOutcome } from '../probe-port.js';
import { applyReadingAssertions } from './reading-assertions.js';

const ok = (): ProbeOutcome => ({ ok: true, error: null, response_time_ms: 42.34, status_code: 101 });
const a = (source: Assertion['source'], comparison: Assertion['comparison'], target = ''): Assertion => ({
  source,
  property: '',
  comparison,
  target,
});
const failure = (assertion: Assertion, text: string | null = 'hello world') =>
  applyReadingAssertions(ok(), [assertion], text).error?.message ?? null;

describe('assertions on what a grpc or websocket check read', () => {
  it('holds or fails per comparison, naming the value seen', () => {
    const table: [Assertion, string | null][] = [
      [a('text_body', 'equals', 'hello world'), null],
      [a('text_body', 'equals', 'hello'), 'text_body was "hello world", expected equals "hello"'],
      [a('text_body', 'not_equals', 'hello'), null],
      [a('text_body', 'contains', 'world'), null],
      [a('text_body', 'not_contains', 'world'), 'text_body was "hello world", expected not_contains "world"'],
      [a('text_body', 'not_empty'), null],
      [a('text_body', 'is_empty'), 'text_body was "hello world", expected is_empty'],
      [a('status_code', 'equals', '101'), null],
      [a('status_code', 'greater_than', '199'), 'status_code was 101, expected greater_than "199"'],
      [a('response_time', 'less_than', '100'), null],
      [a('response_time', 'less_than', '10'), 'response_time was 42.3, expected less_than "10"'],
      [a('response_time', 'greater_than', 'x'), 'response_time was 42.3, expected greater_than "x"'],
    ];
    for (const [assertion, expected] of table)
      expect(failure(assertion), JSON.stringify(assertion)).toBe(expected);
  });

  it('a check that read no message: its text is absent', () => {
    expect(failure(a('text_body', 'is_empty'), null)).toBeNull();
    expect(failure(a('text_body', 'contains', 'x'), null)).toBe(
      'text_body was absent, expected contains "x"',
    );
  });

  it('fails, never passes unseen, on what it cannot judge', () => {
    expect(failure({ source: 'json_body', property: '$.a', comparison: 'equals', target: '1' })).toMatch(
      /cannot be read/,
    );
    expect(failure(a('text_body', 'matches', '^h'))).toMatch(/cannot be judged/);
  });

  it('leaves a failed outcome as it is, and cuts what it shows', () => {
    const failed: ProbeOutcome = {
      ok: false,
      error: { kind: 'timeout', message: 'timed out' },
      response_time_ms: 1,
    };
    expect(applyReadingAssertions(failed, [a('text_body', 'equals', 'x')], 'y').error?.kind).toBe('timeout');
    expect(failure(a('text_body', 'equals', 'x'), 'y'.repeat(500))).toBe(
      `text_body was "${'y'.repeat(80)}", expected equals "x"`,
    );
  });
});
