import { create } from '@bufbuild/protobuf';
import {
  type Assignment,
  AssignmentSchema,
  type CheckResult,
  type CheckSpec,
  CheckSpecSchema,
} from '@lookout/proto';
import { FIRST_MONITOR_TYPES, type SecretBox } from '@lookout/shared';
import { CHECK_TYPES } from '../domain/checks/registry.js';
import { effectiveIntervalSeconds, effectiveRetrySeconds } from '../domain/monitors/monitor-runs.js';
import { targetOf } from '../domain/monitors/monitors.js';
import type { IncomingResult } from '../domain/results/check-results.js';
import { boundScript } from '../domain/results/script-runs.js';
import type { CatalogMonitor } from '../domain/types.js';

/**
 * Monitor → what an agent needs to run it: its target (a secret one opened), its schedule, and its
 * type's settings message (domain/checks/). The first protocol's flat fields are filled as well for
 * http, api, dns, tcp and domain monitors, for agents older than `settings`.
 */
export const assignmentEncoder =
  (box: SecretBox) =>
  (m: CatalogMonitor): Assignment => {
    const settings = CHECK_TYPES[m.monitor_type].wire(m, box);
    return create(AssignmentSchema, {
      monitorId: m.id,
      version: BigInt(m.version),
      spec: create(CheckSpecSchema, {
        monitorType: m.monitor_type,
        url: targetOf(box, m),
        timeoutMs: m.timeout_seconds * 1000,
        intervalSeconds: effectiveIntervalSeconds(m),
        failureThreshold: m.failure_threshold,
        retryIntervalSeconds: effectiveRetrySeconds(m),
        settings: settings as CheckSpec['settings'],
        ...(FIRST_MONITOR_TYPES.includes(m.monitor_type) ? firstProtocolFields(m) : {}),
      }),
    });
  };

const firstProtocolFields = (m: CatalogMonitor) => ({
  port: m.port ?? 0,
  httpMethod: m.http_method ?? '',
  requestHeaders: m.request_headers,
  requestBody: m.request_body ?? '',
  auth: m.auth
    ? m.auth.type === 'basic'
      ? { case: 'basic' as const, value: { username: m.auth.username, password: m.auth.password } }
      : { case: 'bearerToken' as const, value: m.auth.token }
    : { case: undefined },
  expectedStatusCode: m.expected_status_code,
  requiredKeyword: m.required_keyword ?? '',
  followRedirects: m.follow_redirects,
  sslCertMonitoring: m.ssl_cert_monitoring,
  dnsRecordType: m.dns_record_type ?? '',
  dnsExpectedValues: m.dns_expected_values,
  dnsResolver: m.dns_resolver ?? '',
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
  // A scripted check's report, bounded (kept only for multistep and browser monitors: ingestResults).
  script: r.script ? boundScript(r.script) : null,
});
