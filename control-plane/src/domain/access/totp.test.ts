import { hashSecret } from '@lookout/shared';
import { Secret } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { matchTotp, newRecoveryCodes, RECOVERY_CODE_COUNT } from './totp.js';

// RFC 6238 appendix B, SHA-1: the secret "12345678901234567890", at T = 59 s the 8-digit code 94287082.
const RFC_SECRET = Secret.fromLatin1('12345678901234567890').base32;

describe('TOTP codes', () => {
  it('matches the RFC 6238 test vector (6 digits) and names its time step', () => {
    expect(matchTotp(RFC_SECRET, '287082', new Date(59_000))).toBe(1);
    expect(matchTotp(RFC_SECRET, '287 082', new Date(59_000))).toBe(1);
  });

  it('accepts one step either side and no further', () => {
    // The code of step 1 (30–59 s), checked at steps 0, 2 and 3.
    expect(matchTotp(RFC_SECRET, '287082', new Date(29_000))).toBe(1);
    expect(matchTotp(RFC_SECRET, '287082', new Date(89_000))).toBe(1);
    expect(matchTotp(RFC_SECRET, '287082', new Date(90_000))).toBeNull();
  });

  it('refuses what is not six digits', () => {
    for (const code of ['', '28708', '2870822', 'abcdef', '28708a'])
      expect(matchTotp(RFC_SECRET, code, new Date(59_000))).toBeNull();
  });
});

describe('recovery codes', () => {
  it('makes ten distinct codes of 80 bits, stored as the SHA-256 of the code without dashes', () => {
    const { plain, records } = newRecoveryCodes({ workspace_id: 'w', id: 'u' }, new Date(0));
    expect(plain).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(plain).size).toBe(RECOVERY_CODE_COUNT);
    for (const c of plain) expect(c).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/);
    expect(records.map((r) => r.code_hash)).toEqual(plain.map((c) => hashSecret(c.replaceAll('-', ''))));
    expect(records.every((r) => r.user_id === 'u' && r.workspace_id === 'w')).toBe(true);
  });
});
