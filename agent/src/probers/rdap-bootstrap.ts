export type Bootstrap = { services: [string[], string[]][] };

/** What a domain check asks of the bootstrap data (domain-prober.ts). */
export interface BootstrapSource {
  current(): Bootstrap;
  /** Makes the data fresh enough for a check; never rejects (a failure keeps the data there is). */
  ensure(): Promise<EnsureOutcome>;
}
export type EnsureOutcome = 'fresh' | 'cached' | 'fetched' | 'failed' | 'off';

/**
 * A subset of IANA's RDAP bootstrap for domains (format of https://data.iana.org/rdap/dns.json),
 * shipped so the agent works offline. Refresh from IANA with `loadBootstrap(url)` in domain-prober.ts (rdap-refresh.ts does, when a domain check needs it)
 * or override the base per agent with LOOKOUT_AGENT_RDAP_BASE_URL.
 */
export const RDAP_BOOTSTRAP = {
  description: 'RDAP bootstrap file for Domain Name System registrations (subset shipped with Lookout)',
  publication: '2026-10-01T00:00:00Z',
  version: '1.0',
  services: [
    [['com', 'net'], ['https://rdap.verisign.com/com/v1/']],
    [['org'], ['https://rdap.publicinterestregistry.org/rdap/']],
    [['dev', 'app', 'page'], ['https://pubapi.registry.google/rdap/']],
    [['io'], ['https://rdap.identitydigital.services/rdap/']],
    [['info'], ['https://rdap.identitydigital.services/rdap/']],
    [['xyz'], ['https://rdap.centralnic.com/xyz/']],
    [['nl'], ['https://rdap.sidn.nl/']],
    [['fr'], ['https://rdap.nic.fr/']],
  ] as [string[], string[]][],
};
