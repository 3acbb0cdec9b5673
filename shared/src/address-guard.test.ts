import { describe, expect, it } from 'vitest';
import { assertPublicLiteral, isPrivateAddress, publicOnlyLookup } from './address-guard.js';

describe('address guard', () => {
  it('knows the private, loopback, link-local and reserved ranges of IPv4 and IPv6', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of [
      '8.8.8.8',
      '172.32.0.1',
      '192.0.2.10',
      '2001:db8::1',
      '2606:4700::1111',
      '::ffff:1.1.1.1',
    ])
      expect(isPrivateAddress(a), a).toBe(false);
    expect(isPrivateAddress('example.com')).toBe(false);
  });

  it('refuses blocked literals (brackets too) and names that resolve to blocked addresses', async () => {
    expect(() => assertPublicLiteral('[::1]')).toThrow(/private or loopback/);
    expect(() => assertPublicLiteral('10.0.0.8')).toThrow(expect.objectContaining({ code: 'EBLOCKED' }));
    expect(() => assertPublicLiteral('8.8.8.8')).not.toThrow();
    expect(() => assertPublicLiteral('example.com')).not.toThrow();
    const err = await new Promise<Error | null>((resolve) =>
      publicOnlyLookup('localhost', { all: false }, (e) => resolve(e)),
    );
    expect(err).toMatchObject({ code: 'EBLOCKED' });
  });
});
