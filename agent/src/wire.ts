import type { Assignment, CheckResult } from '@lookout/proto';
import { isMonitorType, MONITOR_TYPES } from '@lookout/shared';
import type { ProbeOutcome, ProbeSpec } from './probe-port.js';

/** What most specs have: no headers, no expected DNS values (one frozen object each, not one per spec). */
const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_VALUES: string[] = Object.freeze([]) as unknown as string[];
/** The type and method strings every spec shares (a decoded message has its own copy of each). */
const interned = new Map<string, string>(
  [...MONITOR_TYPES, 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].map((v) => [v, v]),
);
const intern = <T extends string>(v: T): T => (interned.get(v) as T | undefined) ?? v;

/**
 * An assignment from the control plane → what the prober runs. Unknown types are refused. The agent
 * keeps one per monitor for as long as it is assigned (100,000 of them), so what specs have in common
 * is shared.
 */
export const specOf = (a: Assignment): ProbeSpec => {
  const s = a.spec;
  const type = s?.monitorType ?? '';
  if (!s || !isMonitorType(type)) throw new Error(`unsupported monitor type "${s?.monitorType}"`);
  return {
    monitor_id: a.monitorId,
    monitor_type: intern(type),
    url: s.url,
    port: s.port || null,
    http_method: s.httpMethod ? intern(s.httpMethod) : null,
    request_headers: Object.keys(s.requestHeaders).length === 0 ? NO_HEADERS : { ...s.requestHeaders },
    request_body: s.requestBody || null,
    auth:
      s.auth.case === 'basic'
        ? { type: 'basic', username: s.auth.value.username, password: s.auth.value.password }
        : s.auth.case === 'bearerToken'
          ? { type: 'bearer', token: s.auth.value }
          : null,
    expected_status_code: s.expectedStatusCode || 200,
    required_keyword: s.requiredKeyword || null,
    follow_redirects: s.followRedirects,
    timeout_ms: s.timeoutMs || 30_000,
    ssl_cert_monitoring: s.sslCertMonitoring,
    dns_record_type: s.dnsRecordType || null,
    dns_expected_values: s.dnsExpectedValues.length === 0 ? NO_VALUES : [...s.dnsExpectedValues],
    dns_resolver: s.dnsResolver || null,
  };
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
  };
};
