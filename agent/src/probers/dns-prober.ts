import { Resolver } from 'node:dns/promises';
import { assertPublicLiteral } from '@lookout/shared';
import type { Deadline, ProbeOutcome, ProbeSpec } from '../probe-port.js';
import { classifyError } from './classify-error.js';

const norm = (s: string) => s.toLowerCase().replace(/\.$/, '');
/** `1.2.3.4`, `1.2.3.4:53`, `[::1]:53` or `::1` → the address alone. */
const resolverHost = (s: string) =>
  s.replace(/^\[([^\]]+)\](?::\d+)?$/, '$1').replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1');

/** dns checks through c-ares (a Resolver, never dns.lookup), optionally against a given resolver. */
export const createDnsProber = (opts: { blockPrivate?: boolean } = {}) => ({
  async run(spec: ProbeSpec<'dns'>, deadline: Deadline): Promise<ProbeOutcome> {
    const started = performance.now();
    const resolver = new Resolver({ timeout: spec.timeout_ms, tries: 1 });
    const onAbort = () => resolver.cancel();
    deadline.onAbort(onAbort);
    try {
      if (spec.settings.dns_resolver) {
        // The resolver is an address the check sends packets to: the SSRF guard applies to it.
        if (opts.blockPrivate) assertPublicLiteral(resolverHost(spec.settings.dns_resolver));
        resolver.setServers([spec.settings.dns_resolver]);
      }
      const type = spec.settings.dns_record_type;
      let records: string[];
      if (type === 'A') records = await resolver.resolve4(spec.url);
      else if (type === 'AAAA') records = await resolver.resolve6(spec.url);
      else if (type === 'CNAME') records = await resolver.resolveCname(spec.url);
      else if (type === 'NS') records = await resolver.resolveNs(spec.url);
      else if (type === 'MX')
        records = (await resolver.resolveMx(spec.url)).map((r) => `${r.priority} ${r.exchange}`);
      else if (type === 'TXT')
        records = (await resolver.resolveTxt(spec.url)).map((chunks) => chunks.join(''));
      else
        return {
          ok: false,
          error: { kind: 'bad_record_type', message: `unsupported record type ${type}` },
          response_time_ms: 0,
        };
      const ms = performance.now() - started;
      const have = new Set(records.map(norm));
      const missing = spec.settings.dns_expected_values.filter((v) => !have.has(norm(v)));
      if (missing.length > 0) {
        return {
          ok: false,
          error: {
            kind: 'dns_mismatch',
            message: `missing ${missing.join(', ')}; got ${records.join(', ') || 'nothing'}`,
          },
          response_time_ms: ms,
          dns: { records },
        };
      }
      return { ok: true, error: null, response_time_ms: ms, dns: { records } };
    } catch (e) {
      const err = classifyError(e);
      return {
        ok: false,
        error: deadline.aborted
          ? { kind: 'timeout', message: 'timed out' }
          : { ...err, kind: err.kind === 'error' ? 'dns_failure' : err.kind },
        response_time_ms: performance.now() - started,
      };
    } finally {
      deadline.onAbort(null);
    }
  },
});
