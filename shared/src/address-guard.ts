import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * The SSRF guard for hosted use: addresses a check or a webhook must not reach when the operator says
 * so — loopback, private (RFC 1918, unique-local), link-local (cloud metadata lives there), carrier-grade
 * NAT, unspecified, benchmark, multicast and reserved ranges, in IPv4 and IPv6 (and IPv4-mapped IPv6).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** True for an address in one of the blocked ranges (IPv4-mapped IPv6 judged as its IPv4). */
export const isPrivateAddress = (address: string): boolean => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return blocked.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return false;
};

/** The error a blocked target fails with (code `EBLOCKED`). */
export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED';
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a private or loopback address, which this service may not reach`);
  }
}

/** Throws when `host` is itself a blocked IP literal (sockets skip `lookup` for those). */
export const assertPublicLiteral = (host: string) => {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare) && isPrivateAddress(bare)) throw new BlockedAddressError(host, bare);
};

/**
 * A `lookup` for node:net/http/https that refuses host names resolving to a blocked address. Checked
 * on the addresses actually connected to, so DNS rebinding between check and connect cannot slip by.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, options.all ? [] : '');
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new BlockedAddressError(hostname, bad.address), options.all ? [] : '');
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
};
