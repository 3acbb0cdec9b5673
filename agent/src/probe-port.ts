import type { MonitorType } from '@lookout/shared';

/**
 * What the agent asks of a prober, and what it gets back. The probers (probers/) implement it and
 * know nothing of the transport; wire.ts translates to and from the agent protocol.
 */
export interface ProbeSpec {
  monitor_id: string;
  monitor_type: MonitorType;
  url: string;
  port: number | null;
  http_method: string | null;
  request_headers: Record<string, string>;
  request_body: string | null;
  auth: { type: 'basic'; username: string; password: string } | { type: 'bearer'; token: string } | null;
  expected_status_code: number;
  required_keyword: string | null;
  follow_redirects: boolean;
  timeout_ms: number;
  ssl_cert_monitoring: boolean;
  dns_record_type: string | null;
  dns_expected_values: string[];
  dns_resolver: string | null;
}

export interface ProbeOutcome {
  ok: boolean;
  error: { kind: string; message: string } | null;
  response_time_ms: number;
  status_code?: number | undefined;
  timings?:
    | { dns_ms: number; connect_ms: number; tls_ms: number; first_byte_ms: number; total_ms: number }
    | undefined;
  tls?: { valid_to: string; days_remaining: number; subject: string; issuer: string } | undefined;
  domain?: { expires_at: string; days_remaining: number } | undefined;
  dns?: { records: string[] } | undefined;
}

export interface Prober {
  run(spec: ProbeSpec, signal: AbortSignal): Promise<ProbeOutcome>;
}
