import { describe, expect, it } from 'vitest';
import { type ConditionTarget, globToRegex, mapCondition } from './conditions.js';
import { durationSeconds } from './values.js';

type Rec = Record<string, unknown>;
const target = (type: string, https = true): ConditionTarget => ({
  type,
  fields: {},
  assertions: [],
  sawStatus: false,
  https,
});

describe('Gatus conditions', () => {
  const cases: [string, string, Rec][] = [
    ['http', '[RESPONSE_TIME] < 300', { source: 'response_time', comparison: 'less_than', target: '300' }],
    ['http', '[RESPONSE_TIME] <= 300', { source: 'response_time', comparison: 'less_than', target: '301' }],
    ['http', '[BODY] == ok', { source: 'text_body', comparison: 'equals', target: 'ok' }],
    [
      'http',
      '[BODY] == pat(*up?[0-9]*)',
      { source: 'text_body', comparison: 'matches', target: '^.*up.[0-9].*$' },
    ],
    [
      'http',
      '[BODY].user.name == john',
      { source: 'json_body', property: '$.user.name', comparison: 'equals', target: 'john' },
    ],
    [
      'http',
      '[BODY].data[0].id != 1',
      { source: 'json_body', property: '$.data[0].id', comparison: 'not_equals', target: '1' },
    ],
    [
      'http',
      '[BODY].n >= 5',
      { source: 'json_body', property: '$.n', comparison: 'greater_than', target: '4' },
    ],
    [
      'http',
      '[BODY].s == any(a.b, c)',
      { source: 'json_body', property: '$.s', comparison: 'matches', target: '^(?:a\\.b|c)$' },
    ],
    [
      'http',
      'has([BODY].errors) == false',
      { source: 'json_body', property: '$.errors', comparison: 'is_empty' },
    ],
    ['ping', '[RESPONSE_TIME] > 1', { source: 'response_time', comparison: 'greater_than', target: '1' }],
  ];
  it.each(cases)('%s: %s → an assertion', (type, condition, assertion) => {
    const t = target(type);
    expect(mapCondition(condition, t).mapped).toBe(true);
    expect(t.assertions).toEqual([assertion]);
  });

  it('implied conditions map to nothing', () => {
    for (const [type, c] of [
      ['tcp', '[CONNECTED] == true'],
      ['dns', '[DNS_RCODE] == NOERROR'],
      ['grpc', '[BODY].status == SERVING'],
    ]) {
      const t = target(type!);
      expect(mapCondition(c!, t)).toEqual({ mapped: true });
      expect(t.assertions).toEqual([]);
      expect(t.fields).toEqual({});
    }
  });

  const unmapped: [string, string, string][] = [
    ['http', '[STATUS] < 300', 'Lookout expects one exact status code'],
    ['http', '[STATUS] == any(200, 429)', 'Lookout expects one exact status code'],
    ['tcp', '[STATUS] == 200', "Lookout's tcp checks have no status code"],
    ['http', '[CONNECTED] == false', 'no condition that expects a failure'],
    ['http', '[IP] == 127.0.0.1', 'does not check the address'],
    ['http', 'len([BODY].data) < 5', 'no condition on a length'],
    ['http', '[BODY].a == [BODY].b', 'not with another placeholder'],
    ['http', '[BODY].a != pat(x*)', 'no negated pattern'],
    ['http', '[BODY].a < abc', 'compares with < only numbers'],
    ['http', '[RESPONSE_TIME] == 100', 'with < or > a number'],
    ['tcp', '[CERTIFICATE_EXPIRATION] > 48h', 'certificates of https and smtp checks'],
    ['http', '[CERTIFICATE_EXPIRATION] < 48h', 'expiring within some days'],
    ['dns', '[DNS_RCODE] == NXDOMAIN', 'other response codes'],
    ['dns', '[BODY] == pat(1.2.*)', 'expects given values'],
    ['tcp', '[BODY] == x', 'read no body'],
    ['http', '[CONTEXT].id == 1', 'no condition on [CONTEXT].id'],
    ['http', 'nonsense', 'PLACEHOLDER OPERATOR VALUE'],
  ];
  it.each(unmapped)('%s: %s → not mapped', (type, condition, reason) => {
    const r = mapCondition(condition, target(type));
    expect(r.mapped).toBe(false);
    expect(r.mapped ? '' : r.reason).toContain(reason);
  });

  it('reads Go durations and globs', () => {
    expect(durationSeconds('1h30m')).toBe(5400);
    expect(durationSeconds('500ms')).toBe(0.5);
    expect(durationSeconds('soon')).toBeNull();
    expect(globToRegex('a.b*')).toBe('^a\\.b.*$');
  });
});
