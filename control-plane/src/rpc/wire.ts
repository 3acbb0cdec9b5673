import { create } from '@bufbuild/protobuf';
import { type Assignment, AssignmentSchema, type CheckResult, CheckSpecSchema } from '@lookout/proto';
import { effectiveIntervalSeconds, effectiveRetrySeconds } from '../domain/monitors/monitor-runs.js';
import type { IncomingResult } from '../domain/results/check-results.js';
import type { CatalogMonitor } from '../domain/types.js';

/** Monitor → what an agent needs to run it. */
export const assignmentOf = (m: CatalogMonitor): Assignment =>
  create(AssignmentSchema, {
    monitorId: m.id,
    version: BigInt(m.version),
    spec: create(CheckSpecSchema, {
      monitorType: m.monitor_type,
      url: m.url,
      port: m.port ?? 0,
      httpMethod: m.http_method ?? '',
      requestHeaders: m.request_headers,
      requestBody: m.request_body ?? '',
      auth: m.auth
        ? m.auth.type === 'basic'
          ? { case: 'basic', value: { username: m.auth.username, password: m.auth.password } }
          : { case: 'bearerToken', value: m.auth.token }
        : { case: undefined },
      expectedStatusCode: m.expected_status_code,
      requiredKeyword: m.required_keyword ?? '',
      followRedirects: m.follow_redirects,
      timeoutMs: m.timeout_seconds * 1000,
      intervalSeconds: effectiveIntervalSeconds(m),
      sslCertMonitoring: m.ssl_cert_monitoring,
      dnsRecordType: m.dns_record_type ?? '',
      dnsExpectedValues: m.dns_expected_values,
      dnsResolver: m.dns_resolver ?? '',
      failureThreshold: m.failure_threshold,
      retryIntervalSeconds: effectiveRetrySeconds(m),
    }),
  });

const date = (ms: bigint) => (ms > 0n ? new Date(Number(ms)) : null);

/** A reported result → domain shape. Bad values are clamped rather than trusted. */
export const resultFromWire = (r: CheckResult): IncomingResult => ({
  monitor_id: r.monitorId,
  monitor_version: Number(r.monitorVersion),
  scheduled_at: new Date(Number(r.scheduledAtMs)),
  started_at: new Date(Number(r.startedAtMs)),
  ok: r.ok,
  error_kind: r.ok ? null : r.errorKind || 'unknown',
  error_message: r.ok ? null : r.errorMessage.slice(0, 1000) || null,
  response_time_ms: r.responseTimeMs,
  status_code: r.statusCode || null,
  timings: r.timings
    ? {
        dns_ms: r.timings.dnsMs,
        connect_ms: r.timings.connectMs,
        tls_ms: r.timings.tlsMs,
        first_byte_ms: r.timings.firstByteMs,
        total_ms: r.timings.totalMs,
      }
    : null,
  tls_valid_to: r.tls ? date(r.tls.validToMs) : null,
  domain_expires_at: r.domain ? date(r.domain.expiresAtMs) : null,
  dns_records: r.dnsRecords.slice(0, 50),
  run_now_request_id: r.runNowRequestId || null,
});
