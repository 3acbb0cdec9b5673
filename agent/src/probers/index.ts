import type { ProbeOutcome, Prober, ProbeSpec } from '../probe-port.js';
import { createDnsProber } from './dns-prober.js';
import { createDomainProber } from './domain-prober.js';
import { createHttpProber, type HttpProberOptions } from './http-prober.js';
import { createTcpProber } from './tcp-prober.js';

export interface ProbersOptions extends HttpProberOptions {
  rdapBaseUrl?: string;
}

/** One prober per check type; a new type is one prober and one case here. */
export const createProbers = (opts: ProbersOptions = {}): Prober => {
  const http = createHttpProber(opts);
  const tcp = createTcpProber();
  const dns = createDnsProber();
  const domain = createDomainProber({
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.rdapBaseUrl ? { rdapBaseUrl: opts.rdapBaseUrl } : {}),
  });
  return {
    run(spec: ProbeSpec, signal: AbortSignal): Promise<ProbeOutcome> {
      switch (spec.monitor_type) {
        case 'http':
        case 'api':
          return http.run(spec, signal);
        case 'tcp':
          return tcp.run(spec, signal);
        case 'dns':
          return dns.run(spec, signal);
        case 'domain':
          return domain.run(spec, signal);
      }
    },
  };
};
