import { describe, expect, it } from 'vitest';
import { checkJsonDepth, MAX_JSON_DEPTH, parseJson } from './body.js';

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    const { code, message, details } = e as { code: string; message: string; details: unknown[] };
    return { code, message, details };
  }
  throw new Error('expected an error');
};

const nested = (depth: number, inner = '') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

describe('JSON bodies (parseJson)', () => {
  it('nesting up to MAX_JSON_DEPTH parses; one level more is a 400 naming the limit', () => {
    expect(parseJson(Buffer.from(nested(MAX_JSON_DEPTH, '1')))).toBeDefined();
    const deeper = `{"a":${nested(MAX_JSON_DEPTH - 1, '{}')}}`;
    expect(errorOf(() => parseJson(Buffer.from(deeper)))).toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/nested more than 64 levels deep/),
    });
    // Far deeper than any stack: refused by the scan, not by a crash.
    expect(errorOf(() => parseJson(Buffer.from(nested(1_000_000)))).code).toBe('bad_request');
  });

  it('brackets inside strings (escaped quotes too) do not count', () => {
    const text = JSON.stringify({ s: '['.repeat(500), t: `\\"${'{'.repeat(500)}`, u: ['\\'] });
    expect(() => checkJsonDepth(Buffer.from(text))).not.toThrow();
    expect(parseJson(Buffer.from(text))).toEqual(JSON.parse(text));
  });

  it('bytes that are not UTF-8 are a 400, not silently replaced', () => {
    const bad = Buffer.concat([
      Buffer.from('{"display_name":"a'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}'),
    ]);
    expect(errorOf(() => parseJson(bad))).toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/not valid UTF-8/),
    });
  });

  it('lone surrogates and __proto__ keys are a 422 naming each field', () => {
    const text =
      '{"display_name":"a\\ud800","ok":"\\ud83d\\ude00","request_headers":{"__proto__":{"x":"y"},"\\udc00":"v"},"list":["\\udfff"]}';
    const e = errorOf(() => parseJson(Buffer.from(text)));
    expect(e.code).toBe('validation_failed');
    expect((e.details as { field: string }[]).map((d) => d.field)).toEqual([
      'display_name',
      'request_headers.__proto__',
      'request_headers.\udc00',
      'list[0]',
    ]);
    expect(errorOf(() => parseJson(Buffer.from('"\\ud800"'))).details).toEqual([
      { field: 'body', message: expect.stringMatching(/lone UTF-16 surrogate/) },
    ]);
  });
});
