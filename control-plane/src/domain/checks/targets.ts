import { isIP } from 'node:net';
import type { CheckTarget } from './check-type.js';

const HOSTNAME =
  /^(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)*\.?$/i;

const notUrl = (url: string) => url.includes('/') || (url.includes(':') && isIP(url) === 0);

/** A full URL of one of `protocols`, with no credentials in it. */
export const urlTarget = (protocols: readonly string[], example: string): CheckTarget => ({
  label: 'URL',
  example,
  problem(url) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return `must be a full URL such as ${example}`;
    }
    if (!protocols.includes(u.protocol))
      return `must be a ${protocols.map((p) => `${p}//`).join(' or ')} URL`;
    if (u.username || u.password) return 'must not carry credentials; use the auth field';
    return null;
  },
});

/** A host name (or, with `addresses`, an IP address). */
export const hostTarget = (type: string, opts: { addresses: boolean; label?: string }): CheckTarget => ({
  label: opts.label ?? 'Host',
  example: 'example.com',
  problem(url) {
    if (notUrl(url)) return `must be a host name for ${type} monitors, not a URL`;
    if (opts.addresses)
      return HOSTNAME.test(url) || isIP(url) !== 0 ? null : 'must be a host name or an IP address';
    return HOSTNAME.test(url) ? null : 'must be a host name such as example.com';
  },
});

/** A registrable domain name. */
export const domainTarget: CheckTarget = {
  label: 'Domain',
  example: 'example.com',
  problem: (url) =>
    notUrl(url)
      ? 'must be a host name for domain monitors, not a URL'
      : HOSTNAME.test(url) && url.includes('.') && isIP(url) === 0
        ? null
        : 'must be a domain name such as example.com',
};

/** host:port, the host a name or an address ([::1]:50051 for IPv6). */
export const hostPortTarget: CheckTarget = {
  label: 'Host and port',
  example: 'grpc.example.com:443',
  problem(url) {
    const m = /^(\[[0-9a-f:.]+\]|[^:/[\]]+):(\d{1,5})$/i.exec(url);
    if (!m) return 'must be host:port such as grpc.example.com:443';
    const host = m[1]!.startsWith('[') ? m[1]!.slice(1, -1) : m[1]!;
    const port = Number(m[2]);
    if (port < 1 || port > 65535) return 'must have a port from 1 to 65535';
    if (m[1]!.startsWith('[') ? isIP(host) !== 6 : !HOSTNAME.test(host) && isIP(host) === 0)
      return 'must be host:port such as grpc.example.com:443';
    return null;
  },
};

/** A database connection URL (a secret: it holds the password). */
export const connectionTarget = (protocols: readonly string[], example: string): CheckTarget => ({
  label: 'Connection URL',
  example,
  secret: true,
  problem(url) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return `must be a connection URL such as ${example}`;
    }
    if (!protocols.includes(u.protocol))
      return `must be a ${protocols.map((p) => `${p}//`).join(' or ')} URL`;
    if (!u.hostname) return `must name a host, such as ${example}`;
    return null;
  },
});

/** What a secret target shows: its scheme and host, never its credentials, and its last four characters. */
export const connectionHint = (url: string): string => {
  const last = url.slice(-4);
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}/…${last}`;
  } catch {
    return `••••${last}`;
  }
};
