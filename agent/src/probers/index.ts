import type { Deadline, ProbeOutcome, Prober, ProbeSpec } from '../probe-port.js';
import { createDnsProber } from './dns-prober.js';
import { createDomainProber } from './domain-prober.js';
import { createHttpProber, type HttpProberOptions } from './http-prober.js';
import type { BootstrapSource } from './rdap-bootstrap.js';
import { createTcpProber } from './tcp-prober.js';

export interface ProbersOptions extends HttpProberOptions {
  rdapBaseUrl?: string;
  /** The RDAP bootstrap data, fetched and cached when domain checks need it (rdap-refresh.ts); the shipped subset when not given. */
  rdapBootstrap?: BootstrapSource;
}

/** One prober per check type; a new type is one prober and one case here. */
export const createProbers = (opts: ProbersOptions = {}): Prober => {
  const http = createHttpProber(opts);
  const tcp = createTcpProber({ blockPrivate: opts.blockPrivate ?? false });
  const dns = createDnsProber({ blockPrivate: opts.blockPrivate ?? false });
  const domain = createDomainProber({
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.rdapBaseUrl ? { rdapBaseUrl: opts.rdapBaseUrl } : {}),
    ...(opts.rdapBootstrap ? { bootstrap: opts.rdapBootstrap } : {}),
  });
  return {
    run(spec: ProbeSpec, deadline: Deadline): Promise<ProbeOutcome> {
      switch (spec.monitor_type) {
        case 'http':
        case 'api':
          return http.run(spec, deadline);
        case 'tcp':
          return tcp.run(spec, deadline);
        case 'dns':
          return dns.run(spec, deadline);
        case 'domain':
          return domain.run(spec, deadline);
        default: {
          // Every type of the shared list has a case: a new one fails to compile here.
          const missing: never = spec.monitor_type;
          throw new Error(`no prober for monitor type "${missing}"`);
        }
      }
    },
  };
};
