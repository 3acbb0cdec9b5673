import { describe, expect, it } from 'vitest';
import type { StepExtract } from '../probe-port.js';
import { type ExtractView, extractOne, type JsonCache, VALUE_CAP } from './extract.js';
import { fillTemplates } from './templates.js';

const values = { vars: { url: 'https://shop.example', token: 'abc' }, secrets: { PW: 's3cret' } };

describe('fillTemplates', () => {
  it('fills {{url}}, variables and secrets, spaces inside the braces allowed', () => {
    expect(fillTemplates('{{url}}/orders?t={{ token }}', values)).toBe('https://shop.example/orders?t=abc');
    expect(fillTemplates('{"pw":"{{secrets.PW}}"}', values)).toBe('{"pw":"s3cret"}');
    const plain = 'no templates here';
    expect(fillTemplates(plain, values)).toBe(plain);
  });

  it('fills once: a value that holds a template is sent as it is, never filled in turn', () => {
    const hostile = { vars: { url: 'u', token: '{{secrets.PW}}' }, secrets: { PW: 's3cret' } };
    expect(fillTemplates('Bearer {{token}}', hostile)).toBe('Bearer {{secrets.PW}}');
  });

  it('says what it cannot fill, never inheriting from Object.prototype', () => {
    expect(() => fillTemplates('{{other}}', values)).toThrow('no earlier step extracted {{other}}');
    expect(() => fillTemplates('{{constructor}}', values)).toThrow(
      'no earlier step extracted {{constructor}}',
    );
    expect(() => fillTemplates('{{secrets.NOPE}}', values)).toThrow(
      'the secret NOPE is not available to this check',
    );
    expect(() => fillTemplates('{{url', values)).toThrow('has {{ without its closing }}');
  });
});

const ex = (e: Partial<StepExtract>): StepExtract => ({
  name: 'v',
  source: 'text_body',
  property: null,
  regex: null,
  ...e,
});
const view = { body: '{"token":"t-1","n":42,"list":[{"id":7}]}', headers: { location: '/orders/19' } };
const one = (e: Partial<StepExtract>, v: ExtractView = view) =>
  extractOne(ex(e), v, { parsed: null } as JsonCache);

describe('extractOne', () => {
  it('takes a JSONPath value (a number as text), a header, the body, and a regex group of any', () => {
    expect(one({ source: 'json_body', property: '$.token' })).toEqual({ value: 't-1' });
    expect(one({ source: 'json_body', property: '$.n' })).toEqual({ value: '42' });
    expect(one({ source: 'json_body', property: '$.list[0]' })).toEqual({ value: '{"id":7}' });
    expect(one({ source: 'headers', property: 'Location', regex: '/orders/(\\d+)' })).toEqual({
      value: '19',
    });
    expect(one({ source: 'text_body', regex: '"token":"([^"]+)"' })).toEqual({ value: 't-1' });
  });

  it('fails with a reason that shows no value of the response', () => {
    expect(one({ source: 'json_body', property: '$.missing' })).toEqual({
      error: '$.missing found nothing in the body',
    });
    expect(one({ source: 'json_body', property: '$.x' }, { body: 'not json', headers: {} })).toEqual({
      error: 'the body is not JSON',
    });
    expect(one({ source: 'headers', property: 'X-Id' })).toEqual({
      error: 'the response has no X-Id header',
    });
    expect(one({ source: 'text_body', regex: 'nothing (here)' })).toEqual({
      error: 'its regex found no match',
    });
    expect(one({ source: 'text_body', regex: '(a' })).toEqual({
      error: 'its regex does not compile or is too large',
    });
    expect(one({ source: 'text_body' }, { body: 'x'.repeat(VALUE_CAP + 1), headers: {} })).toEqual({
      error: 'the value is longer than 16 KiB',
    });
  });
});
