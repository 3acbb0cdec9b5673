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

/**
 * A check's one deadline, as a prober sees it: what an AbortSignal tells, without one per check
 * (an AbortController and its signal cost ~5 µs to make in Node 20, ~2 % of a check). A prober
 * listens with `onAbort`; an API that takes a real AbortSignal gets `signal`, made on first use.
 */
export interface Deadline {
  /** True once the check's time is up. */
  readonly aborted: boolean;
  /** Why: the TimeoutError the run fails with (undefined before). */
  readonly reason: unknown;
  /** `fn` is called once when the time is up (at once if it is); one listener at a time, `null` removes it. */
  onAbort(fn: ((reason: unknown) => void) | null): void;
  /** The same deadline as an AbortSignal (made on first use). */
  readonly signal: AbortSignal;
}

export interface Prober {
  run(spec: ProbeSpec, deadline: Deadline): Promise<ProbeOutcome>;
}
