import { describe, expect, it } from 'vitest';
import { refusedResult } from './audit-scope.js';
import { auditChanges, isSecretKey, REDACTED, redact } from './changes.js';

describe('isSecretKey', () => {
  it.each([
    ['password', true],
    ['new_password', true],
    ['client_secret', true],
    ['api_key', true],
    ['routing_key', true],
    ['apiKey', true],
    ['Authorization', true],
    ['bot_token', true],
    ['code', true],
    ['recovery_codes', true],
    ['keyword', false],
    ['display_name', false],
    ['expected_status_code', false],
    ['url', false],
  ])('%s → %s', (k, secret) => expect(isSecretKey(k)).toBe(secret));
  it('knows the fields that are secrets of one resource type only', () => {
    expect(isSecretKey('webhook_url', 'channel')).toBe(true);
    expect(isSecretKey('url', 'channel')).toBe(true);
    expect(isSecretKey('url', 'monitor')).toBe(false);
    expect(isSecretKey('value', 'secret')).toBe(true);
  });
});

describe('redact', () => {
  it('hides secrets at any depth, URL passwords, and bounds sizes', () => {
    expect(
      redact({
        url: 'https://ada:hunter2@example.test/x',
        headers: { Authorization: 'Bearer abc', Accept: 'json' },
        nested: { list: [{ token: 't' }] },
        long: 'x'.repeat(600),
      }),
    ).toEqual({
      url: `https://ada:${REDACTED}@example.test/x`,
      headers: { Authorization: REDACTED, Accept: 'json' },
      nested: { list: [{ token: REDACTED }] },
      long: `${'x'.repeat(500)}…`,
    });
    expect(redact(Array.from({ length: 60 }, (_, i) => i))).toHaveLength(51);
    expect(redact({ a: { b: { c: { d: { e: 1 } } } } })).toEqual({ a: { b: { c: { d: '[…]' } } } });
  });
  it('keeps a channel config’s webhook and header values out', () => {
    expect(
      redact({ config: { url: 'https://hooks.slack.test/T/B/secret', headers: { X: 'y' } } }, 'channel'),
    ).toEqual({
      config: { url: REDACTED, headers: REDACTED },
    });
  });
});

describe('auditChanges', () => {
  it('a create lists what was given, a delete what there was', () => {
    expect(auditChanges('create', 'group', null, { name: 'Core', password: 'p' })).toEqual({
      name: [null, 'Core'],
      password: [null, REDACTED],
    });
    expect(auditChanges('delete', 'group', { id: 'g', name: 'Core' }, undefined)).toEqual({
      id: ['g', null],
      name: ['Core', null],
    });
    expect(auditChanges('delete', 'group', null, undefined)).toBeNull();
  });
  it('an update lists only the fields the body changes, secrets redacted on both sides', () => {
    expect(
      auditChanges(
        'update',
        'monitor',
        { display_name: 'A', interval_seconds: 60, api_key: 'old' },
        { display_name: 'B', interval_seconds: 60, api_key: 'new' },
      ),
    ).toEqual({ display_name: ['A', 'B'], api_key: [REDACTED, REDACTED] });
    expect(auditChanges('update', 'monitor', { display_name: 'A' }, { display_name: 'A' })).toBeNull();
    expect(auditChanges('update', 'monitor', null, 'not an object')).toBeNull();
  });
});

describe('refusedResult', () => {
  it('knows the refusals adapters return, and nothing else', () => {
    for (const r of [
      false,
      null,
      'not_found',
      'name_taken',
      'limit_reached',
      'last_admin',
      { outcome: 'already_resolved' },
    ])
      expect(refusedResult(r), JSON.stringify(r)).toBe(true);
    for (const r of [
      true,
      undefined,
      'inserted',
      'updated',
      'deleted',
      { outcome: 'acknowledged' },
      { id: 'x' },
      0,
    ])
      expect(refusedResult(r), JSON.stringify(r)).toBe(false);
  });
});

describe('the secrets of a second factor', () => {
  it('never shows a TOTP secret, its otpauth URL or QR code, one-time or recovery codes', () => {
    expect(
      redact({
        secret: 'JBSWY3DPEHPK3PXP',
        otpauth_url: 'otpauth://totp/Lookout:ada?secret=JBSWY3DPEHPK3PXP',
        qr_svg: '<svg>…</svg>',
        recovery_codes: ['abcd-efgh', 'ijkl-mnop'],
      }),
    ).toEqual({ secret: REDACTED, otpauth_url: REDACTED, qr_svg: REDACTED, recovery_codes: REDACTED });
    expect(auditChanges('action', 'user', { email: 'ada@x.test' }, { code: '123456' })).toEqual({
      code: [null, REDACTED],
    });
  });

  it("never shows a passkey's credential or public key, only its name", () => {
    const credential = {
      id: 'cred-id',
      rawId: 'cred-id',
      type: 'public-key',
      response: { attestationObject: 'o2NmbXRk', clientDataJSON: 'eyJ0eXBl', publicKey: 'MFkwEwYH' },
    };
    expect(auditChanges('create', 'passkey', null, { name: 'Laptop', credential })).toEqual({
      name: [null, 'Laptop'],
      credential: [null, REDACTED],
    });
    const stored = { id: 'p1', name: 'Laptop', public_key: 'pQECAyYg', credential_id: 'cred-id', counter: 3 };
    expect(JSON.stringify(auditChanges('delete', 'passkey', stored, undefined))).not.toMatch(
      /pQECAyYg|cred-id/,
    );
  });
});
