import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF guard for hosted use: only public unicast addresses may be reached when the operator says so.
 * Ranges come from ipaddr.js (the IANA special-purpose registries); anything it names — loopback,
 * private, link-local (cloud metadata), carrier-grade NAT, unspecified, broadcast, multicast,
 * documentation, benchmarking, reserved, unique-local, site-local, discard, … — is refused, and so is
 * IPv6 outside global unicast (2000::/3). IPv6 forms that carry an IPv4 address are judged by it too:
 * IPv4-mapped and IPv4-translated, NAT64 (64:ff9b::/96), 6to4 and Teredo (server and client).
 * IPv4-compatible (::a.b.c.d, deprecated) and local-use NAT64 (64:ff9b:1::/48) are never public.
 */
const PUBLIC = 'public';
const globalUnicast = ipaddr.parseCIDR('2000::/3');
const nat64 = ipaddr.parseCIDR('64:ff9b::/96');

const ipv4At = (hi: number, lo: number) =>
  ipaddr.fromByteArray([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]) as ipaddr.IPv4;

const ipv4Range = (address: ipaddr.IPv4) => {
  const range = address.range();
  return range === 'unicast' ? PUBLIC : range;
};

/** The embedded IPv4 judged; `form` names the IPv6 form in the answer when it is not public. */
const embedded = (form: string, address: ipaddr.IPv4) => {
  const range = ipv4Range(address);
  return range === PUBLIC ? PUBLIC : `${form} of ${address.toString()}: ${range}`;
};

const ipv6Range = (address: ipaddr.IPv6): string => {
  const p = address.parts;
  const range = address.range();
  switch (range) {
    case 'ipv4Mapped':
      return embedded('IPv4-mapped', address.toIPv4Address());
    case 'rfc6145':
      return embedded('IPv4-translated', ipv4At(p[6]!, p[7]!));
    case 'rfc6052':
      return address.match(nat64) ? embedded('NAT64', ipv4At(p[6]!, p[7]!)) : 'local-use NAT64';
    case '6to4':
      return embedded('6to4', ipv4At(p[1]!, p[2]!));
    case 'teredo': {
      const server = embedded('Teredo server', ipv4At(p[2]!, p[3]!));
      // The client's address is carried inverted (RFC 4380 section 4).
      return server !== PUBLIC ? server : embedded('Teredo client', ipv4At(p[6]! ^ 0xffff, p[7]! ^ 0xffff));
    }
    case 'unicast':
      if (p.slice(0, 6).every((part) => part === 0)) return 'IPv4-compatible';
      return address.match(globalUnicast) ? PUBLIC : 'outside global unicast';
    default:
      return range;
  }
};

/**
 * ipaddr.js reads `::a.b.c.d` as IPv4-mapped (`::ffff:a.b.c.d`), but the kernel (inet_pton) reads it as
 * IPv4-compatible (`::a.b.c.d` exactly), so the dotted tail of an IPv6 address is rewritten as its two hex
 * groups before parsing: the guard must judge the address the socket will really use.
 */
const dottedTailToHex = (address: string): string | undefined => {
  const tail = /(?<=:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(%.*)?$/.exec(address);
  if (!tail) return address;
  const [a, b, c, d] = tail.slice(1, 5).map(Number) as [number, number, number, number];
  if ([a, b, c, d].some((octet) => octet > 255)) return undefined;
  const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  return `${address.slice(0, tail.index)}${hex}${tail[5] ?? ''}`;
};

/**
 * `'public'` for a public unicast address, the name of the range that makes it non-public otherwise,
 * undefined when `address` is not an IP address at all (a host name). Forms the system resolver also
 * reads as IPv4 (`0x7f.1`, `2130706433`) count as addresses.
 */
export const addressRange = (address: string): string | undefined => {
  const text = address.includes(':') ? dottedTailToHex(address) : address;
  if (text === undefined || !ipaddr.isValid(text)) return undefined;
  const parsed = ipaddr.parse(text);
  return parsed.kind() === 'ipv4' ? ipv4Range(parsed as ipaddr.IPv4) : ipv6Range(parsed as ipaddr.IPv6);
};

/** True for an IP address that is not public unicast (see {@link addressRange}); false for host names. */
export const isPrivateAddress = (address: string): boolean => {
  const range = addressRange(address);
  return range !== undefined && range !== PUBLIC;
};

/**
 * The error a blocked target fails with (code `EBLOCKED`). Its message says only that the destination
 * is not allowed: it reaches users (a check's error, a notification's outcome), and the address a name
 * resolved to is internal knowledge. `address` and `range` are there for an operator's log.
 */
export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED';
  readonly range: string | undefined;
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} is not an allowed destination`);
    this.range = addressRange(address);
  }
}

/** Throws when `host` is itself a blocked IP literal (sockets skip `lookup` for those). */
export const assertPublicLiteral = (host: string) => {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isPrivateAddress(bare)) throw new BlockedAddressError(host, bare);
};

/**
 * A `lookup` for node:net/http/https that refuses host names resolving to a blocked address. Checked
 * on the addresses actually connected to, so DNS rebinding between check and connect cannot slip by.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  // Object.assign, not `{ ...options, all: true }`: on Node 20 a spread followed by a new key gives
  // each object a hidden class of its own (docs/decisions.md, "Objects on hot paths").
  dnsLookup(hostname, Object.assign({}, options, { all: true as const }), (err, addresses) => {
    if (err) return callback(err, options.all ? [] : '');
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new BlockedAddressError(hostname, bad.address), options.all ? [] : '');
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
};
