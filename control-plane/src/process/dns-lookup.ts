import { Resolver } from 'node:dns/promises';
import type { DomainLookup } from '../domain/status-pages/custom-domain-proof.js';

/** Codes that mean "no such record" (an answer), not "no answer". */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/**
 * Custom-domain proofs asked of DNS (c-ares, never the OS's cache) through the configured servers
 * (`LOOKOUT_CUSTOM_DOMAIN_DNS_SERVERS`; none: the system's), 5 s and 2 tries a question.
 */
export const createDomainLookup = (servers: string[]): DomainLookup => {
  const resolver = new Resolver({ timeout: 5_000, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  const none = (e: NodeJS.ErrnoException): string[] => {
    if (e.code && NO_RECORD.has(e.code)) return [];
    throw e;
  };
  return {
    txt: (name) => resolver.resolveTxt(name).then((records) => records.map((r) => r.join('')), none),
    cname: (name) =>
      resolver
        .resolveCname(name)
        .then((targets) => targets.map((t) => t.toLowerCase().replace(/\.$/, '')), none),
  };
};
