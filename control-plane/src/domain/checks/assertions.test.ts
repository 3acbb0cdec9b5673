import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { problemsIn } from '../validation.js';
import { assertions, assertionsFor, MAX_ASSERTIONS, shownAssertions, wireAssertions } from './assertions.js';

const body = z.strictObject({ assertions });
const problems = (list: unknown) => problemsIn(body, { assertions: list }).problems;

describe('assertions field', () => {
  it('accepts each source and comparison, keeps them as given, and gives the agent its shape', () => {
    const r = problemsIn(body, {
      assertions: [
        { source: 'status_code', comparison: 'equals', target: 200 },
        { source: 'json_body', property: '$.data[0].status', comparison: 'equals', target: 'ok' },
        { source: 'json_body', property: '$..errors', comparison: 'is_empty' },
        { source: 'headers', property: 'Content-Type', comparison: 'contains', target: 'json' },
        { source: 'text_body', comparison: 'matches', target: '(?i)^ok\\b' },
        { source: 'response_time', comparison: 'less_than', target: '500' },
        { source: 'text_body', comparison: 'not_contains', target: 'error' },
      ],
    });
    expect(r.problems).toEqual([]);
    expect(r.data?.assertions[0]).toEqual({ source: 'status_code', comparison: 'equals', target: 200 });
    expect(wireAssertions(r.data?.assertions).slice(0, 3)).toEqual([
      { source: 'status_code', property: '', comparison: 'equals', target: '200' },
      { source: 'json_body', property: '$.data[0].status', comparison: 'equals', target: 'ok' },
      { source: 'json_body', property: '$..errors', comparison: 'is_empty', target: '' },
    ]);
    expect(problems([{ source: 'json_body', property: '$.ok', comparison: 'equals', target: true }])).toEqual(
      [],
    );
    expect(problems([{ source: 'packet_loss', comparison: 'less_than', target: 5 }])).toEqual([]);
  });

  it('names every bad field of every assertion in one answer', () => {
    expect(
      problems([
        { source: 'json_body', comparison: 'equals', target: 'ok' },
        { source: 'json_body', property: 'data.status', comparison: 'equals', target: 'ok' },
        { source: 'json_body', property: '$[?(@.a)]', comparison: 'not_empty' },
        { source: 'headers', comparison: 'not_empty' },
        { source: 'headers', property: 'bad header', comparison: 'not_empty' },
        { source: 'text_body', property: '$.x', comparison: 'contains', target: 'x' },
        { source: 'text_body', comparison: 'contains' },
        { source: 'text_body', comparison: 'is_empty', target: 'x' },
        { source: 'json_body', property: '$.n', comparison: 'less_than', target: 'ten' },
        { source: 'status_code', comparison: 'equals', target: 'OK' },
        { source: 'response_time', comparison: 'not_equals', target: 'fast' },
        { source: 'text_body', comparison: 'matches', target: '(a' },
        { source: 'text_body', comparison: 'matches', target: '(?<=a)b' },
        { source: 'ping_time', comparison: 'sorta', target: 'x', extra: 1 },
        { source: 'text_body', comparison: 'contains', target: { a: 1 } },
        'equals',
      ]),
    ).toEqual([
      { field: 'assertions[0].property', message: 'is required for json_body assertions' },
      {
        field: 'assertions[1].property',
        message: 'is not a JSONPath this service reads: it must start with $',
      },
      {
        field: 'assertions[2].property',
        message:
          'is not a JSONPath this service reads: it uses a filter or script expression, which is not supported',
      },
      { field: 'assertions[3].property', message: 'is required for headers assertions' },
      { field: 'assertions[4].property', message: 'must be a header name' },
      { field: 'assertions[5].property', message: 'is only for json_body and headers assertions' },
      { field: 'assertions[6].target', message: 'is required for contains' },
      { field: 'assertions[7].target', message: 'must be left out for is_empty' },
      { field: 'assertions[8].target', message: 'must be a number for less_than' },
      { field: 'assertions[9].target', message: 'must be a number for status_code assertions' },
      { field: 'assertions[10].target', message: 'must be a number for response_time assertions' },
      {
        field: 'assertions[11].target',
        message: expect.stringMatching(
          /^is not a regular expression this service runs \(RE2 syntax\): .*missing/,
        ),
      },
      {
        field: 'assertions[12].target',
        message: expect.stringMatching(/^is not a regular expression this service runs \(RE2 syntax\)/),
      },
      {
        field: 'assertions[13].source',
        message: 'must be one of: status_code, text_body, json_body, headers, response_time, packet_loss',
      },
      { field: 'assertions[13].comparison', message: expect.stringMatching(/^must be one of: equals, /) },
      { field: 'assertions[13].extra', message: 'is not a known field' },
      { field: 'assertions[14].target', message: 'must be a string, a number or a boolean' },
      { field: 'assertions[15]', message: 'must be an object' },
    ]);
  });

  it('says a too-long field once', () => {
    expect(
      problems([
        {
          source: 'json_body',
          property: `$.${'a'.repeat(300)}`,
          comparison: 'equals',
          target: 'x'.repeat(2000),
        },
      ]),
    ).toEqual([
      { field: 'assertions[0].property', message: 'must be at most 256 characters' },
      { field: 'assertions[0].target', message: 'must be at most 1024 characters' },
    ]);
  });

  it(`takes at most ${MAX_ASSERTIONS}`, () => {
    const one = { source: 'status_code', comparison: 'equals', target: '200' };
    expect(problems(Array(MAX_ASSERTIONS).fill(one))).toEqual([]);
    expect(problems(Array(MAX_ASSERTIONS + 1).fill(one))).toEqual([
      { field: 'assertions', message: `must have at most ${MAX_ASSERTIONS} items` },
    ]);
  });

  it('refuses a source the type does not read', () => {
    const ping = z.strictObject({ assertions: assertionsFor(['response_time', 'packet_loss']) });
    expect(
      problemsIn(ping, { assertions: [{ source: 'packet_loss', comparison: 'less_than', target: 5 }] })
        .problems,
    ).toEqual([]);
    expect(
      problemsIn(ping, { assertions: [{ source: 'json_body', property: '$', comparison: 'not_empty' }] })
        .problems,
    ).toEqual([{ field: 'assertions[0].source', message: 'must be one of: response_time, packet_loss' }]);
  });
});

describe('shownAssertions', () => {
  it('shows expected_status_code and required_keyword as the assertions they are, then the rest', () => {
    const own = {
      source: 'json_body' as const,
      property: '$.ok',
      comparison: 'equals' as const,
      target: 'true',
    };
    expect(
      shownAssertions({
        monitor_type: 'api',
        expected_status_code: 204,
        required_keyword: 'pong',
        assertions: [own],
      }),
    ).toEqual([
      { source: 'status_code', comparison: 'equals', target: 204 },
      { source: 'text_body', comparison: 'contains', target: 'pong' },
      own,
    ]);
    expect(
      shownAssertions({ monitor_type: 'http', expected_status_code: 200, required_keyword: null }),
    ).toEqual([{ source: 'status_code', comparison: 'equals', target: 200 }]);
    expect(
      shownAssertions({ monitor_type: 'tcp', expected_status_code: 200, required_keyword: null }),
    ).toEqual([]);
    expect(shownAssertions({ monitor_type: 'ping', assertions: [own] })).toEqual([own]);
  });
});
