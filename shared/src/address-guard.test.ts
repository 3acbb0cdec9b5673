import { describe, expect, it } from 'vitest';
import { addressRange, assertPublicLiteral, isPrivateAddress, publicOnlyLookup } from './address-guard.js';

describe('address guard', () => {
  // Every form the guard must refuse: IPv4 non-public space, IPv6 non-public space, and every IPv6
  // form that embeds an IPv4 address judged by that address.
  const refused: [address: string, why: string][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'this network'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.10', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fd00::1', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'multicast'],
    ['100::1', 'discard'],
    ['2001:db8::1', 'documentation'],
    ['2001:2::1', 'benchmarking'],
    ['3fff::1', 'documentation (RFC 9637)'],
    ['4000::1', 'outside global unicast 2000::/3'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
    ['::ffff:0:10.0.0.1', 'IPv4-translated private'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::7f00:1', 'IPv4-compatible loopback, hex'],
    ['::a9fe:a9fe', 'IPv4-compatible metadata'],
    ['::8.8.8.8', 'IPv4-compatible (deprecated, never public)'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of metadata'],
    ['64:ff9b::10.0.0.1', 'NAT64 of private'],
    ['64:ff9b:1::8.8.8.8', 'local-use NAT64 (RFC 8215, not globally reachable)'],
    ['64:ff9b:1::7f00:1', 'local-use NAT64 of loopback'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:a00:1::1', '6to4 of private'],
    ['2002:a9fe:a9fe::1', '6to4 of metadata'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo whose client is 127.0.0.1'],
    ['2001:0:7f00:1:8000:63bf:f7f7:f7f7', 'Teredo whose server is 127.0.0.1'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo whose client is 192.0.2.45 (documentation)'],
  ];
  const allowed: [address: string, why: string][] = [
    ['8.8.8.8', 'public IPv4'],
    ['1.1.1.1', 'public IPv4'],
    ['172.32.0.1', 'just past 172.16.0.0/12'],
    ['100.128.0.1', 'just past carrier-grade NAT'],
    ['2606:4700::1111', 'public IPv6'],
    ['2a00:1450:4001:80b::200e', 'public IPv6'],
    ['::ffff:1.1.1.1', 'IPv4-mapped public'],
    ['::ffff:0:8.8.8.8', 'IPv4-translated public'],
    ['64:ff9b::808:808', 'NAT64 of a public address'],
    ['2002:808:808::1', '6to4 of a public address'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'Teredo with public server and client 8.8.8.8'],
  ];

  it.each(refused)('refuses %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
    expect(() => assertPublicLiteral(address.includes(':') ? `[${address}]` : address)).toThrow(
      expect.objectContaining({ code: 'EBLOCKED' }),
    );
  });

  it.each(allowed)('allows %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
    expect(addressRange(address)).toBe('public');
    expect(() => assertPublicLiteral(address)).not.toThrow();
  });

  it('names the range of an embedded IPv4 address and says nothing of host names', () => {
    expect(addressRange('64:ff9b::7f00:1')).toBe('NAT64 of 127.0.0.1: loopback');
    expect(addressRange('fec0::1')).toBe('deprecatedSiteLocal');
    expect(addressRange('example.com')).toBeUndefined();
    expect(isPrivateAddress('example.com')).toBe(false);
    // Forms the system resolver reads as IPv4 (inet_aton) are judged as the address they stand for.
    expect(addressRange('0x7f.1')).toBe('loopback');
    expect(isPrivateAddress('2130706433')).toBe(true);
  });

  it('refuses blocked literals (brackets too) and names that resolve to blocked addresses', async () => {
    expect(() => assertPublicLiteral('[::1]')).toThrow(/^\[::1\] is not an allowed destination$/);
    expect(() => assertPublicLiteral('10.0.0.8')).toThrow(expect.objectContaining({ code: 'EBLOCKED' }));
    expect(() => assertPublicLiteral('8.8.8.8')).not.toThrow();
    expect(() => assertPublicLiteral('example.com')).not.toThrow();
    const err = await new Promise<Error | null>((resolve) =>
      publicOnlyLookup('localhost', { all: false }, (e) => resolve(e)),
    );
    expect(err).toMatchObject({ code: 'EBLOCKED' });
  });
});
