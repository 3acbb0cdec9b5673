import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { problemsIn } from '../validation.js';
import { multistep } from './multistep.js';
import { templateNames } from './multistep-rules.js';

/** The problems of `steps` as the API finds them: the field's schema, its rules run by it. */
const body = z.strictObject({ steps: multistep.fields.steps!.schema });
const rules = (steps: unknown[]) => problemsIn(body, { steps }).problems;

const signIn = {
  name: 'Sign in',
  method: 'POST',
  url: '{{url}}/login',
  body: '{"password": "{{secrets.SHOP_PASSWORD}}"}',
  extract: [{ name: 'token', source: 'json_body', property: '$.token' }],
};

describe('multi-step rules', () => {
  it('accepts {{url}}, secrets and variables extracted by an earlier step', () => {
    expect(
      rules([
        signIn,
        {
          name: 'Create order',
          method: 'POST',
          url: 'https://shop.example.com/orders?t={{ token }}',
          headers: { Authorization: 'Bearer {{token}}' },
          extract: [
            { name: 'order', source: 'headers', property: 'Location', regex: '/orders/(\\d+)' },
            { name: 'body_id', source: 'text_body', regex: '"id":\\s*"([^"]+)"' },
          ],
        },
        { name: 'Read', method: 'GET', url: '{{url}}/orders/{{order}}', body: '{{body_id}}' },
      ]),
    ).toEqual([]);
  });

  it('names each unknown variable by field, and a later step that extracts it', () => {
    expect(
      rules([
        { name: 'First', method: 'GET', url: '{{url}}/a', headers: { 'X-Id': '{{id}}' } },
        {
          name: 'Second',
          method: 'GET',
          url: '{{url}}/{{token}}',
          body: '{{nothing}}',
          extract: [{ name: 'token', source: 'text_body', regex: '(.+)' }],
        },
        {
          name: 'Third',
          method: 'GET',
          url: '{{url}}/x',
          extract: [{ name: 'id', source: 'text_body', regex: '(.+)' }],
        },
      ]),
    ).toEqual([
      {
        field: 'steps[0].headers.X-Id',
        message: "uses {{id}}, which no earlier step extracts ('Third' extracts it later)",
      },
      {
        field: 'steps[1].url',
        message:
          "uses {{token}}, which no earlier step extracts ('Second' extracts it from its own response)",
      },
      { field: 'steps[1].body', message: 'uses {{nothing}}, which no earlier step extracts' },
    ]);
  });

  it('refuses malformed templates', () => {
    expect(templateNames('a {{token')).toEqual({ names: [], error: 'has {{ without its closing }}' });
    expect(templateNames('{{ }}').error).toBe('has an empty {{}}: name a variable inside');
    expect(templateNames('{{secrets.lower}}').error).toContain("a secret's name is upper case");
    expect(templateNames('{{a-b}}').error).toBe('uses {{a-b}}, which is not a variable name');
    expect(templateNames('{{a}}{{secrets.B}} {{ c }}')).toEqual({
      names: ['a', 'secrets.B', 'c'],
      error: null,
    });
    expect(rules([{ name: 'A', method: 'GET', url: '{{url', body: '}} {{}}' }])).toEqual([
      { field: 'steps[0].url', message: 'has {{ without its closing }}' },
      { field: 'steps[0].body', message: 'has an empty {{}}: name a variable inside' },
    ]);
  });

  it('checks each extract: property, JSONPath, one capture group, and names every bad field', () => {
    expect(
      rules([
        {
          name: 'A',
          method: 'GET',
          url: 'https://a.example/',
          extract: [
            { name: 'a', source: 'json_body' },
            { name: 'b', source: 'json_body', property: 'token' },
            { name: 'c', source: 'headers', property: 'bad header' },
            { name: 'd', source: 'text_body', regex: 'no group' },
            { name: 'e', source: 'text_body', regex: '(a)(b)' },
            { name: 'f', source: 'text_body', regex: '(unclosed' },
            { name: 'url', source: 'text_body', property: '$.x', regex: '(.)' },
          ],
        },
      ]).map((p) => `${p.field}: ${p.message}`),
    ).toEqual([
      'steps[0].extract[0].property: is required for json_body',
      'steps[0].extract[1].property: is not a JSONPath this service reads: it must start with $',
      'steps[0].extract[2].property: must be a header name',
      'steps[0].extract[3].regex: must have exactly one capture group (the value taken), it has 0',
      'steps[0].extract[4].regex: must have exactly one capture group (the value taken), it has 2',
      expect.stringMatching(
        /^steps\[0\]\.extract\[5\]\.regex: is not a regular expression this service runs/,
      ),
      'steps[0].extract[6].name: is the monitor’s URL ({{url}}); choose another name',
      'steps[0].extract[6].property: is only for json_body and headers; text_body reads the body',
    ]);
  });

  it('refuses repeated step names, naming the step', () => {
    expect(
      rules([
        { name: 'Pay', method: 'GET', url: '{{url}}' },
        { name: 'Pay', method: 'GET', url: '{{url}}' },
      ]),
    ).toEqual([
      { field: 'steps[1].name', message: "'Pay' is the name of step 1 too: each step needs its own name" },
    ]);
  });

  it("names the rules' problems together with the schema's, in one answer", () => {
    expect(
      rules([
        { name: 'A', method: 'FETCH', url: '{{url}}/{{nope}}', headers: { 'bad header': 'x', Ok: '{{' } },
        {
          name: 'A',
          method: 'GET',
          url: 'ftp://x.example/',
          timeout_seconds: 0,
          extract: [{ name: 'v', source: 'xml' }],
        },
      ]).map((p) => p.field),
    ).toEqual(
      expect.arrayContaining([
        'steps[0].method',
        'steps[0].headers.bad header',
        'steps[0].url',
        'steps[0].headers.Ok',
        'steps[1].name',
        'steps[1].url',
        'steps[1].timeout_seconds',
        'steps[1].extract[0].source',
      ]),
    );
    // Not an array, or elements of the wrong shape: the schema says so, the rules skip them.
    expect(problemsIn(body, { steps: 'x' }).problems).toEqual([
      { field: 'steps', message: expect.any(String) },
    ]);
    expect(rules([null, { name: 7, url: 3, extract: [5, { name: 1, regex: 2 }] }]).length).toBeGreaterThan(0);
  });

  it('a URL whose scheme and host are written out must be http(s)', () => {
    const url = (u: string) => rules([{ name: 'A', method: 'GET', url: u }]).map((p) => p.message);
    expect(url('https://shop.example.com/{{x}}')).toEqual(['uses {{x}}, which no earlier step extracts']);
    expect(url('https://shop.example.com/a?b={{url}}')).toEqual([]);
    expect(url('http://{{url}}/a')).toEqual([]); // the host comes from a variable: the agent checks it
    expect(url('ftp://shop.example.com/')).toEqual(['must be an http:// or https:// URL']);
    expect(url('file:///etc/passwd')).toEqual(['must be an http:// or https:// URL']);
    expect(url('/login')).toEqual([
      'must be a full http:// or https:// URL, or start with a {{variable}} such as {{url}}',
    ]);
    expect(url('https://user:pw@shop.example.com/')).toEqual([
      'must not carry credentials; send them in a header',
    ]);
    expect(url('https:shop')).toEqual(['must be a full http:// or https:// URL']);
  });
});
