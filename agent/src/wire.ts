import type {
  Assignment,
  CheckResult,
  CheckSpec,
  HttpSettings as HttpSettingsMessage,
  ScriptReport as ScriptReportMessage,
  Assertion as WireAssertion,
} from '@lookout/proto';
import {
  ASSERTION_COMPARISONS,
  ASSERTION_SOURCES,
  type Assertion,
  isMonitorType,
  MONITOR_TYPES,
  type MonitorType,
} from '@lookout/shared';
import type { HttpAuth, ProbeOutcome, ProbeSpec, ScriptReport, SettingsByType } from './probe-port.js';

/** What most specs have: no headers, no expected DNS values, no assertions (one frozen object each). */
const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_VALUES: string[] = Object.freeze([]) as unknown as string[];
const NO_ASSERTIONS: readonly Assertion[] = Object.freeze([]);
const NO_SETTINGS = Object.freeze({}) as Record<string, never>;
/** The type and method strings every spec shares (a decoded message has its own copy of each). */
const interned = new Map<string, string>(
  [...MONITOR_TYPES, 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].map((v) => [v, v]),
);
const intern = <T extends string>(v: T): T => (interned.get(v) as T | undefined) ?? v;

const sources: ReadonlySet<string> = new Set(ASSERTION_SOURCES);
const comparisons: ReadonlySet<string> = new Set(ASSERTION_COMPARISONS);

/** The wire's assertions; one this agent does not know (a newer control plane's) is refused. */
const assertionsOf = (list: readonly WireAssertion[]): readonly Assertion[] => {
  if (list.length === 0) return NO_ASSERTIONS;
  return list.map((a) => {
    if (!sources.has(a.source) || !comparisons.has(a.comparison))
      throw new Error(`unsupported assertion ${a.source} ${a.comparison}`);
    return {
      source: a.source as Assertion['source'],
      property: a.property,
      comparison: a.comparison as Assertion['comparison'],
      target: a.target,
    };
  });
};

type WireAuth = CheckSpec['auth'] | HttpSettingsMessage['auth'];
const authOf = (auth: WireAuth): HttpAuth | null =>
  auth.case === 'basic'
    ? { type: 'basic', username: auth.value.username, password: auth.value.password }
    : auth.case === 'bearerToken'
      ? { type: 'bearer', token: auth.value }
      : null;

const headersOf = (h: Record<string, string>) => (Object.keys(h).length === 0 ? NO_HEADERS : { ...h });

/**
 * The type's settings from the spec's `settings` message. A control plane older than that message
 * sends the first protocol's flat fields only: they are read instead (http, api, dns, tcp, domain).
 */
const settingsOf = (type: MonitorType, s: CheckSpec): SettingsByType[MonitorType] => {
  const w = s.settings;
  switch (w.case) {
    case 'http':
      return {
        http_method: intern(w.value.httpMethod || 'GET'),
        request_headers: headersOf(w.value.requestHeaders),
        request_body: w.value.requestBody || null,
        auth: authOf(w.value.auth),
        expected_status_code: w.value.expectedStatusCode,
        required_keyword: w.value.requiredKeyword || null,
        follow_redirects: w.value.followRedirects,
        max_redirects: w.value.maxRedirects,
        ssl_cert_monitoring: w.value.sslCertMonitoring,
        assertions: assertionsOf(w.value.assertions),
      };
    case 'dns':
      return {
        dns_record_type: intern(w.value.dnsRecordType),
        dns_expected_values:
          w.value.dnsExpectedValues.length === 0 ? NO_VALUES : [...w.value.dnsExpectedValues],
        dns_resolver: w.value.dnsResolver || null,
      };
    case 'tcp':
      return { port: w.value.port };
    case 'domain':
      return NO_SETTINGS;
    case 'ping':
      return { packet_count: w.value.packetCount, assertions: assertionsOf(w.value.assertions) };
    case 'grpc':
      return {
        grpc_service: w.value.grpcService,
        grpc_tls: w.value.grpcTls,
        assertions: assertionsOf(w.value.assertions),
      };
    case 'websocket':
      return { ws_message: w.value.wsMessage || null, assertions: assertionsOf(w.value.assertions) };
    case 'smtp': {
      const security = w.value.smtpSecurity;
      if (security !== 'none' && security !== 'starttls' && security !== 'tls')
        throw new Error(`unsupported smtp_security "${security}"`);
      return {
        port: w.value.port,
        smtp_security: security,
        ssl_cert_monitoring: w.value.sslCertMonitoring,
        assertions: assertionsOf(w.value.assertions),
      };
    }
    case 'database':
      return { query: w.value.query, assertions: assertionsOf(w.value.assertions) };
    case 'multistep':
      return {
        steps: w.value.steps.map((st) => ({
          name: st.name,
          method: st.method,
          url: st.url,
          headers: { ...st.headers },
          body: st.body || null,
          timeout_ms: st.timeoutMs || null,
          extract: st.extract.map((e) => ({
            name: e.name,
            source: e.source as 'json_body' | 'headers' | 'text_body',
            property: e.property || null,
            regex: e.regex || null,
          })),
          assertions: assertionsOf(st.assertions),
        })),
        secrets: { ...w.value.secrets },
      };
    case 'browser':
      return { script: w.value.script, secrets: { ...w.value.secrets } };
    case undefined:
      break;
  }
  // The first protocol's flat fields, with its defaults (a control plane before `settings`).
  if (type === 'http' || type === 'api')
    return {
      http_method: intern(s.httpMethod || 'GET'),
      request_headers: headersOf(s.requestHeaders),
      request_body: s.requestBody || null,
      auth: authOf(s.auth),
      expected_status_code: s.expectedStatusCode || 200,
      required_keyword: s.requiredKeyword || null,
      follow_redirects: s.followRedirects,
      max_redirects: 5,
      ssl_cert_monitoring: s.sslCertMonitoring,
      assertions: NO_ASSERTIONS,
    };
  if (type === 'dns')
    return {
      dns_record_type: intern(s.dnsRecordType || 'A'),
      dns_expected_values: s.dnsExpectedValues.length === 0 ? NO_VALUES : [...s.dnsExpectedValues],
      dns_resolver: s.dnsResolver || null,
    };
  if (type === 'tcp') return { port: s.port };
  if (type === 'domain') return NO_SETTINGS;
  throw new Error(`no settings for monitor type "${type}"`);
};

/** Which settings message each type takes. */
const SETTINGS_CASE: { [T in MonitorType]: NonNullable<CheckSpec['settings']['case']> } = {
  http: 'http',
  api: 'http',
  dns: 'dns',
  tcp: 'tcp',
  domain: 'domain',
  ping: 'ping',
  grpc: 'grpc',
  websocket: 'websocket',
  smtp: 'smtp',
  postgres: 'database',
  mysql: 'database',
  redis: 'database',
  multistep: 'multistep',
  browser: 'browser',
};

/**
 * An assignment from the control plane → what the prober runs. Unknown types, and settings of
 * another type's message, are refused. The agent keeps one per monitor for as long as it is assigned
 * (100,000 of them), so what specs have in common is shared.
 */
export const specOf = (a: Assignment): ProbeSpec => {
  const s = a.spec;
  const type = s?.monitorType ?? '';
  if (!s || !isMonitorType(type)) throw new Error(`unsupported monitor type "${s?.monitorType}"`);
  if (s.settings.case !== undefined && s.settings.case !== SETTINGS_CASE[type])
    throw new Error(`${type} monitor sent with ${s.settings.case} settings`);
  return {
    monitor_id: a.monitorId,
    monitor_type: intern(type),
    url: s.url,
    timeout_ms: s.timeoutMs,
    settings: settingsOf(type, s),
  } as ProbeSpec;
};

/** Epoch ms of an ISO time (0 when absent), for the wire's int64 fields. */
const msOf = (iso: string | undefined) => (iso ? BigInt(Date.parse(iso)) : 0n);

/**
 * A run's outcome → the wire result. Built as the plain object that protobuf-es's `create()` would
 * return (same fields, same order; unset messages left undefined), without its per-field reflection:
 * this runs once per check. `resultId` stays empty (nothing on the wire): the control plane derives
 * a result's id from its monitor, region and slot (or run request) and trusts no agent's.
 */
export const resultOf = (input: {
  monitorId: string;
  version: bigint;
  scheduledAt: number;
  startedAt: number;
  outcome: ProbeOutcome;
  runNowRequestId?: string;
}): CheckResult => {
  const o = input.outcome;
  const t = o.timings;
  return {
    $typeName: 'lookout.agent.v1.CheckResult',
    resultId: '',
    monitorId: input.monitorId,
    monitorVersion: input.version,
    scheduledAtMs: BigInt(input.scheduledAt),
    startedAtMs: BigInt(input.startedAt),
    ok: o.ok,
    errorKind: o.error?.kind ?? '',
    errorMessage: o.error?.message ?? '',
    responseTimeMs: Math.max(0, Math.round(o.response_time_ms)),
    statusCode: o.status_code ?? 0,
    dnsRecords: o.dns?.records ?? [],
    runNowRequestId: input.runNowRequestId ?? '',
    timings: t
      ? {
          $typeName: 'lookout.agent.v1.Timings',
          dnsMs: Math.round(t.dns_ms),
          connectMs: Math.round(t.connect_ms),
          tlsMs: Math.round(t.tls_ms),
          firstByteMs: Math.round(t.first_byte_ms),
          totalMs: Math.round(t.total_ms),
        }
      : undefined,
    tls: o.tls
      ? {
          $typeName: 'lookout.agent.v1.TlsInfo',
          validToMs: msOf(o.tls.valid_to),
          subject: o.tls.subject,
          issuer: o.tls.issuer,
        }
      : undefined,
    domain: o.domain
      ? { $typeName: 'lookout.agent.v1.DomainInfo', expiresAtMs: msOf(o.domain.expires_at) }
      : undefined,
    script: o.script ? scriptOf(o.script) : undefined,
  };
};

/**
 * What a scripted run's report may hold on the wire, as the control plane keeps it
 * (control-plane domain/results/script-runs.ts): the agent cuts to the same bounds, so one result's
 * record stays well under a megabyte and a batch under the transport's limit (reporter.ts).
 */
export const SCRIPT_LIMITS = {
  steps: 50,
  name: 100,
  error: 2000,
  lines: 20,
  line: 500,
  screenshotBytes: 256 * 1024,
} as const;

const clip = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s);
const uint = (n: number | null) => (n !== null && Number.isFinite(n) && n > 0 ? Math.round(n) : 0);

/** A scripted run's report as CheckResult.script: numbers whole, null as 0 or '', within SCRIPT_LIMITS. */
export const scriptOf = (r: ScriptReport): ScriptReportMessage => {
  const shot =
    r.screenshot && r.screenshot.data.length <= SCRIPT_LIMITS.screenshotBytes ? r.screenshot : null;
  return {
    $typeName: 'lookout.agent.v1.ScriptReport',
    steps: r.steps.slice(0, SCRIPT_LIMITS.steps).map((s) => ({
      $typeName: 'lookout.agent.v1.StepReport',
      name: clip(s.name, SCRIPT_LIMITS.name),
      ok: s.ok,
      durationMs: uint(s.duration_ms),
      error: clip(s.error ?? '', SCRIPT_LIMITS.error),
      statusCode: uint(s.status_code),
    })),
    failedStep: uint(r.failed_step),
    errorLine: uint(r.error_line),
    webVitals: r.web_vitals
      ? {
          $typeName: 'lookout.agent.v1.WebVitals',
          measured: true,
          ttfbMs: uint(r.web_vitals.ttfb_ms),
          lcpMs: uint(r.web_vitals.lcp_ms),
          cls: r.web_vitals.cls !== null && Number.isFinite(r.web_vitals.cls) ? r.web_vitals.cls : 0,
        }
      : undefined,
    consoleErrors: r.console_errors.slice(0, SCRIPT_LIMITS.lines).map((l) => clip(l, SCRIPT_LIMITS.line)),
    failedRequests: r.failed_requests.slice(0, SCRIPT_LIMITS.lines).map((l) => clip(l, SCRIPT_LIMITS.line)),
    screenshot: shot ? shot.data : new Uint8Array(0),
    screenshotType: shot ? shot.type : '',
  };
};
