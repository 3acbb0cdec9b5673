import type { ProbeSpec } from '../probe-port.js';

/** A complete ProbeSpec for tests; override what the case needs. */
export const probeSpec = (over: Partial<ProbeSpec>): ProbeSpec => ({
  monitor_id: 'm',
  monitor_type: 'http',
  url: '127.0.0.1',
  port: null,
  http_method: 'GET',
  request_headers: {},
  request_body: null,
  auth: null,
  expected_status_code: 200,
  required_keyword: null,
  follow_redirects: true,
  timeout_ms: 2000,
  ssl_cert_monitoring: false,
  dns_record_type: null,
  dns_expected_values: [],
  dns_resolver: null,
  ...over,
});
