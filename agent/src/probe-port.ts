import type { Assertion, MonitorType } from '@lookout/shared';

/**
 * What the agent asks of a prober, and what it gets back. The probers (probers/) implement it and
 * know nothing of the transport; wire.ts translates to and from the agent protocol. Each type has its
 * own settings (the control plane applied the defaults); a prober sees only its own.
 */
export type HttpAuth =
  | { type: 'basic'; username: string; password: string }
  | { type: 'bearer'; token: string };

/** http and api monitors. */
export interface HttpSettings {
  http_method: string;
  request_headers: Record<string, string>;
  request_body: string | null;
  auth: HttpAuth | null;
  expected_status_code: number;
  required_keyword: string | null;
  follow_redirects: boolean;
  /** With follow_redirects: the most redirects followed before the check fails. */
  max_redirects: number;
  ssl_cert_monitoring: boolean;
  assertions: readonly Assertion[];
}

export interface DnsSettings {
  dns_record_type: string;
  dns_expected_values: string[];
  dns_resolver: string | null;
}

export interface TcpSettings {
  port: number;
}

/** ICMP echo; `response_time` is the mean round trip, `packet_loss` a percentage. */
export interface PingSettings {
  packet_count: number;
  assertions: readonly Assertion[];
}

/** grpc.health.v1.Health/Check on the spec's host:port. */
export interface GrpcSettings {
  /** '' asks about the server as a whole. */
  grpc_service: string;
  grpc_tls: boolean;
  assertions: readonly Assertion[];
}

export interface WebSocketSettings {
  /** Sent once open; null sends nothing. */
  ws_message: string | null;
  assertions: readonly Assertion[];
}

export interface SmtpSettings {
  port: number;
  smtp_security: 'none' | 'starttls' | 'tls';
  ssl_cert_monitoring: boolean;
  assertions: readonly Assertion[];
}

/** postgres, mysql and redis: the spec's url is the connection URL. */
export interface DatabaseSettings {
  /** What runs once connected ('SELECT 1' or 'PING' by default, applied by the control plane). */
  query: string;
  assertions: readonly Assertion[];
}

/** A variable taken from a step's response (`regex`: one capture group, applied to the value found). */
export interface StepExtract {
  name: string;
  source: 'json_body' | 'headers' | 'text_body';
  property: string | null;
  regex: string | null;
}

/** One request of a multi-step check; url, headers and body may hold {{name}} and {{secrets.NAME}}. */
export interface Step {
  name: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
  /** null: what is left of the check's timeout. */
  timeout_ms: number | null;
  extract: readonly StepExtract[];
  assertions: readonly Assertion[];
}

export interface MultistepSettings {
  steps: readonly Step[];
  /** The workspace secrets the steps name, opened: substituted, never reported. */
  secrets: Record<string, string>;
}

/** A browser check: JavaScript using Playwright's `page`, run in the sandbox (agent/src/browser/). */
export interface BrowserSettings {
  script: string;
  /** The workspace secrets the script names (secrets.NAME), opened: never reported. */
  secrets: Record<string, string>;
}

export interface SettingsByType {
  http: HttpSettings;
  api: HttpSettings;
  dns: DnsSettings;
  tcp: TcpSettings;
  domain: Record<string, never>;
  ping: PingSettings;
  grpc: GrpcSettings;
  websocket: WebSocketSettings;
  smtp: SmtpSettings;
  postgres: DatabaseSettings;
  mysql: DatabaseSettings;
  redis: DatabaseSettings;
  multistep: MultistepSettings;
  browser: BrowserSettings;
}

/** One check to run: its target, its deadline and its type's settings (a union on monitor_type). */
export type ProbeSpec<T extends MonitorType = MonitorType> = {
  [K in T]: {
    monitor_id: string;
    monitor_type: K;
    /** The target: a URL, a host, host:port or a connection URL, by type. */
    url: string;
    timeout_ms: number;
    settings: SettingsByType[K];
  };
}[T];

export interface ProbeOutcome {
  ok: boolean;
  error: { kind: string; message: string } | null;
  response_time_ms: number;
  /** ping: the share of echoes not answered, in % (one decimal). */
  packet_loss?: number | undefined;
  status_code?: number | undefined;
  timings?:
    | { dns_ms: number; connect_ms: number; tls_ms: number; first_byte_ms: number; total_ms: number }
    | undefined;
  tls?: { valid_to: string; days_remaining: number; subject: string; issuer: string } | undefined;
  domain?: { expires_at: string; days_remaining: number } | undefined;
  dns?: { records: string[] } | undefined;
  /** multistep and browser checks: each step, and what the page showed. */
  script?: ScriptReport | undefined;
}

export interface StepReport {
  name: string;
  ok: boolean;
  duration_ms: number;
  /** Why it failed (null when ok); never holds a secret's value. */
  error: string | null;
  /** multistep: the response's status. */
  status_code: number | null;
}

/** What a scripted run reports beyond pass or fail (CheckResult.script on the wire). */
export interface ScriptReport {
  steps: StepReport[];
  /** 1-based index of the failed step; null: none (or the run failed outside a step). */
  failed_step: number | null;
  /** browser: the script's line the error was thrown at. */
  error_line: number | null;
  /** browser: the first navigation's Web Vitals (null: the script opened no page). */
  web_vitals: { ttfb_ms: number; lcp_ms: number | null; cls: number | null } | null;
  /** browser: at most 20 of each, one line each. */
  console_errors: string[];
  failed_requests: string[];
  /** browser, failed runs: at most 256 KiB. */
  screenshot: { type: 'image/jpeg' | 'image/png'; data: Uint8Array } | null;
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

export interface Prober<T extends MonitorType = MonitorType> {
  run(spec: ProbeSpec<T>, deadline: Deadline): Promise<ProbeOutcome>;
}
