import type { Assignment, CheckResult } from '@lookout/proto';
import { isMonitorType, MONITOR_TYPES } from '@lookout/shared';
import type { ProbeOutcome, ProbeSpec } from './probe-port.js';
import { encodeResults } from './result-encoder.js';

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

/** The part of `resultBytes` every result has (see there). */
export const RESULT_FIXED_BYTES = 480;

/**
 * What a result built by `resultOf` holds in memory, estimated without encoding it: a fixed part (the
 * message, its timings, three bigints, the buffer's entry: 480 bytes measured on Node 20 for a plain
 * http result) plus its own strings at a byte per character. The monitor id is the assignment's string,
 * shared, so it is not counted. For the result buffer's byte bound (`buffer_max_bytes`).
 */
export const resultBytes = (r: CheckResult): number => {
  let n =
    RESULT_FIXED_BYTES +
    r.resultId.length +
    r.errorKind.length +
    r.errorMessage.length +
    r.runNowRequestId.length;
  for (const d of r.dnsRecords) n += 32 + d.length;
  if (r.tls) n += 64 + r.tls.subject.length + r.tls.issuer.length;
  if (r.domain) n += 48;
  return n;
};

/**
 * A result's wire bytes, for a result that will wait long for the control plane (reporter.ts): copied
 * into Node's shared pool for small buffers (one 8 KiB allocation per few dozen results). An http
 * result waits in 319 bytes this way against 483 as the message (test/bench/result-memory.js).
 */
export const encodeResult = (r: CheckResult): Uint8Array => encodeResults([r])[0]!;

/**
 * What an encoded result holds in memory besides its bytes: the buffer's entry, the view on the pool
 * and the pool's alignment (186 bytes measured on Node 20). For the result buffer's byte bound
 * (`buffer_max_bytes`).
 */
export const ENCODED_RESULT_OVERHEAD = 190;

/** What a result from `encodeResult` holds in memory, for the result buffer's byte bound. */
export const encodedBytes = (bytes: Uint8Array): number => ENCODED_RESULT_OVERHEAD + bytes.byteLength;
