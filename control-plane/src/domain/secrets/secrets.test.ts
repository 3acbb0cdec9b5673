import { isAppError } from '@lookout/shared';
import { describe, expect, it } from 'vitest';
import {
  checkSecretName,
  checkSecretRoom,
  MAX_SECRET_VALUE,
  MAX_SECRETS,
  secretHint,
  secretPut,
} from './secrets.js';

const problems = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (isAppError(e)) return { code: e.code, details: e.details };
    throw e;
  }
  return null;
};

describe('workspace secrets', () => {
  it('takes names like PAY_TOKEN and refuses others, naming the field', () => {
    expect(checkSecretName('PAY_TOKEN')).toBe('PAY_TOKEN');
    expect(checkSecretName(`A${'1'.repeat(63)}`)).toHaveLength(64);
    for (const bad of ['pay_token', '1A', '_A', 'A-B', '', `A${'1'.repeat(64)}`, 'A B'])
      expect(problems(() => checkSecretName(bad))?.details.map((d) => d.field)).toEqual(['name']);
  });

  it('shows the last four characters of a value of 12 or more, else nothing', () => {
    expect(secretHint('sk_live_abcd')).toBe('abcd');
    expect(secretHint('sk_live_abc')).toBe('');
    expect(secretHint('')).toBe('');
    expect(secretHint('passwörd-😀😀x1')).toBe('😀😀x1');
  });

  it('takes a value of 1 to 8192 characters and nothing else in the body', () => {
    expect(secretPut('A', { value: 'x' })).toEqual({ name: 'A', value: 'x' });
    expect(secretPut('A', { value: 'x'.repeat(MAX_SECRET_VALUE) }).value).toHaveLength(MAX_SECRET_VALUE);
    for (const body of [{ value: '' }, { value: 'x'.repeat(MAX_SECRET_VALUE + 1) }, {}, { value: 5 }])
      expect(problems(() => secretPut('A', body))?.details.map((d) => d.field)).toEqual(['value']);
    expect(
      problems(() => secretPut('a', { value: '', more: 1 }))
        ?.details.map((d) => d.field)
        .sort(),
    ).toEqual(['more', 'name', 'value']);
  });

  it(`holds at most ${MAX_SECRETS} per workspace, a replaced value always fits`, () => {
    const full = Array.from({ length: MAX_SECRETS }, (_, i) => ({ name: `S${i}` }));
    expect(problems(() => checkSecretRoom(full, 'S5'))).toBeNull();
    expect(problems(() => checkSecretRoom(full, 'NEW'))?.code).toBe('conflict');
    expect(problems(() => checkSecretRoom(full.slice(1), 'NEW'))).toBeNull();
  });
});
