import { describe, expect, it } from 'vitest';
import { mappedRole, passwordRefused, type SsoSettings } from './sso.js';
import { issuerProblem } from './sso-settings.js';

describe('mappedRole', () => {
  const map = [
    { group: 'staff', role: 'viewer' as const },
    { group: 'admins', role: 'admin' as const },
    { group: 'ops', role: 'member' as const },
  ];
  it('the highest role of the user’s mapped groups, whatever their order', () => {
    expect(mappedRole(map, ['staff', 'ops'])).toBe('member');
    expect(mappedRole(map, ['admins', 'staff'])).toBe('admin');
    expect(mappedRole([...map].reverse(), ['ops', 'admins', 'staff'])).toBe('admin');
  });
  it('null when no group is mapped (names compared exactly)', () => {
    expect(mappedRole(map, [])).toBeNull();
    expect(mappedRole(map, ['Admins', 'admins '])).toBeNull();
  });
});

describe('issuerProblem', () => {
  it('takes https, and http on loopback only', () => {
    expect(issuerProblem('https://login.example.com/tenant')).toBeNull();
    expect(issuerProblem('http://localhost:8080')).toBeNull();
    expect(issuerProblem('http://127.0.0.1:9000')).toBeNull();
    expect(issuerProblem('http://login.example.com')).toMatch(/https/);
    expect(issuerProblem('http://127.0.0.1.nip.io')).toMatch(/https/);
    expect(issuerProblem('ftp://login.example.com')).toMatch(/https/);
  });
  it('refuses what an issuer may not have: a query, a fragment, credentials', () => {
    expect(issuerProblem('https://login.example.com/?x=1')).toMatch(/query/);
    expect(issuerProblem('https://login.example.com/#a')).toMatch(/fragment/);
    expect(issuerProblem('https://user:pw@login.example.com')).toMatch(/credentials/);
    expect(issuerProblem('not a url')).toMatch(/URL/);
  });
});

describe('passwordRefused', () => {
  const s = { enforced: true, break_glass_user_ids: ['a'] } as SsoSettings;
  it('only while enforced, and never for a break-glass user', () => {
    expect(passwordRefused(null, 'b')).toBe(false);
    expect(passwordRefused({ ...s, enforced: false }, 'b')).toBe(false);
    expect(passwordRefused(s, 'a')).toBe(false);
    expect(passwordRefused(s, 'b')).toBe(true);
  });
});
