import { isIP } from 'node:net';
import { z } from 'zod';
import { DNS_RECORD_TYPES } from '../types.js';
import type { CheckType } from './check-type.js';
import { TIMED } from './common-fields.js';
import { domainTarget, hostTarget } from './targets.js';

/** The port of tcp and smtp checks (one field, one schema). */
export const PORT = z.int().min(1).max(65535);

/** A record set: its records of one type, and the values expected among them. */
export const dns: CheckType = {
  label: 'DNS',
  target: hostTarget('dns', { addresses: false }),
  fields: {
    dns_record_type: { schema: z.enum(DNS_RECORD_TYPES), stored: 'column', default: 'A' },
    dns_expected_values: { schema: z.array(z.string().min(1).max(1024)).max(20), stored: 'column' },
    dns_resolver: { schema: z.string().min(1).max(255).nullable(), stored: 'column' },
    ...TIMED,
  },
  rules: (m) =>
    m.dns_resolver !== null && isIP(m.dns_resolver) === 0
      ? [{ field: 'dns_resolver', message: 'must be an IP address' }]
      : [],
  wire: (m) => ({
    case: 'dns',
    value: {
      dnsRecordType: m.dns_record_type ?? 'A',
      dnsExpectedValues: m.dns_expected_values,
      dnsResolver: m.dns_resolver ?? '',
    },
  }),
};

/** A port that accepts connections. */
export const tcp: CheckType = {
  label: 'TCP port',
  target: hostTarget('tcp', { addresses: true }),
  fields: { port: { schema: PORT, stored: 'column', required: true }, ...TIMED },
  wire: (m) => ({ case: 'tcp', value: { port: m.port ?? 0 } }),
};

/** A domain's registration expiry (RDAP). Checked daily; no retries. */
export const domain: CheckType = {
  label: 'Domain expiry',
  target: domainTarget,
  fields: {
    domain_expiry_alert_days: {
      schema: z.int().min(1).max(365).describe('Days before expiry to alert.'),
      stored: 'column',
    },
  },
  wire: () => ({ case: 'domain', value: {} }),
};
