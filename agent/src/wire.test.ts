import { create, toBinary } from '@bufbuild/protobuf';
import {
  AssignmentSchema,
  BrowserSettingsSchema,
  CheckResultSchema,
  type CheckSpec,
  CheckSpecSchema,
  DatabaseSettingsSchema,
  DnsSettingsSchema,
  DomainSettingsSchema,
  GrpcSettingsSchema,
  HttpSettingsSchema,
  MultistepSettingsSchema,
  PingSettingsSchema,
  SmtpSettingsSchema,
  TcpSettingsSchema,
  WebSocketSettingsSchema,
} from '@lookout/proto';
import { MONITOR_TYPES, type MonitorType } from '@lookout/shared';
import { describe, expect, it } from 'vitest';
import type { ProbeOutcome } from './probe-port.js';
import { resultOf, specOf } from './wire.js';

const assignment = (monitorType: string, settings?: CheckSpec['settings'], flat = {}) =>
  create(AssignmentSchema, {
    monitorId: 'm1',
    version: 1n,
    spec: create(CheckSpecSchema, {
      monitorType,
      url: 'example.com',
      intervalSeconds: 60,
      timeoutMs: 10_000,
      ...(settings ? { settings } : {}),
      ...flat,
    }),
  });

/** Each type's settings message, as the control plane sends it. */
const settingsFor: Record<MonitorType, CheckSpec['settings']> = {
  http: { case: 'http', value: create(HttpSettingsSchema, { httpMethod: 'GET', expectedStatusCode: 200 }) },
  api: { case: 'http', value: create(HttpSettingsSchema, { httpMethod: 'POST', expectedStatusCode: 201 }) },
  dns: { case: 'dns', value: create(DnsSettingsSchema, { dnsRecordType: 'MX' }) },
  tcp: { case: 'tcp', value: create(TcpSettingsSchema, { port: 5432 }) },
  domain: { case: 'domain', value: create(DomainSettingsSchema, {}) },
  ping: { case: 'ping', value: create(PingSettingsSchema, { packetCount: 3 }) },
  grpc: { case: 'grpc', value: create(GrpcSettingsSchema, { grpcService: 'orders', grpcTls: true }) },
  websocket: { case: 'websocket', value: create(WebSocketSettingsSchema, { wsMessage: 'hi' }) },
  smtp: { case: 'smtp', value: create(SmtpSettingsSchema, { port: 25, smtpSecurity: 'starttls' }) },
  postgres: { case: 'database', value: create(DatabaseSettingsSchema, { query: 'SELECT 1' }) },
  mysql: { case: 'database', value: create(DatabaseSettingsSchema, { query: 'SELECT 1' }) },
  redis: { case: 'database', value: create(DatabaseSettingsSchema, { query: 'PING' }) },
  multistep: {
    case: 'multistep',
    value: create(MultistepSettingsSchema, { steps: [{ name: 'Home', method: 'GET', url: '{{url}}' }] }),
  },
  browser: { case: 'browser', value: create(BrowserSettingsSchema, { script: 'await page.goto(url);' }) },
};

describe('specOf', () => {
  it('accepts every monitor type of the one shared list with its settings, and refuses any other', () => {
    expect(MONITOR_TYPES.length).toBeGreaterThan(0);
    for (const type of MONITOR_TYPES)
      expect(specOf(assignment(type, settingsFor[type])).monitor_type).toBe(type);
    expect(() => specOf(assignment('gopher'))).toThrow('unsupported monitor type "gopher"');
    expect(() => specOf(assignment(''))).toThrow('unsupported monitor type ""');
  });

  it("hands each prober its own type's settings", () => {
    expect(specOf(assignment('grpc', settingsFor.grpc))).toEqual({
      monitor_id: 'm1',
      monitor_type: 'grpc',
      url: 'example.com',
      timeout_ms: 10_000,
      settings: { grpc_service: 'orders', grpc_tls: true, assertions: [] },
    });
    expect(specOf(assignment('smtp', settingsFor.smtp)).settings).toEqual({
      port: 25,
      smtp_security: 'starttls',
      ssl_cert_monitoring: false,
      assertions: [],
    });
    const withAssertions = assignment('api', {
      case: 'http',
      value: create(HttpSettingsSchema, {
        httpMethod: 'GET',
        expectedStatusCode: 200,
        assertions: [{ source: 'json_body', property: '$.status', comparison: 'equals', target: 'ok' }],
      }),
    });
    expect(specOf(withAssertions).settings).toMatchObject({
      assertions: [{ source: 'json_body', property: '$.status', comparison: 'equals', target: 'ok' }],
    });
  });

  it('refuses settings of another type, a new type without settings, and assertions it does not know', () => {
    expect(() => specOf(assignment('ping', settingsFor.http))).toThrow(
      'ping monitor sent with http settings',
    );
    expect(() => specOf(assignment('ping'))).toThrow('no settings for monitor type "ping"');
    const unknown = assignment('ping', {
      case: 'ping',
      value: create(PingSettingsSchema, {
        packetCount: 3,
        assertions: [{ source: 'jitter', comparison: 'less_than', target: '5' }],
      }),
    });
    expect(() => specOf(unknown)).toThrow('unsupported assertion jitter less_than');
  });

  it("reads an older control plane's flat fields, with that protocol's defaults", () => {
    expect(specOf(assignment('http')).settings).toEqual({
      http_method: 'GET',
      request_headers: {},
      request_body: null,
      auth: null,
      expected_status_code: 200,
      required_keyword: null,
      follow_redirects: false,
      max_redirects: 5,
      ssl_cert_monitoring: false,
      assertions: [],
    });
    expect(specOf(assignment('tcp', undefined, { port: 22 })).settings).toEqual({ port: 22 });
    expect(specOf(assignment('dns')).settings).toEqual({
      dns_record_type: 'A',
      dns_expected_values: [],
      dns_resolver: null,
    });
  });
});

describe('resultOf', () => {
  const input = (outcome: ProbeOutcome, runNowRequestId?: string) => ({
    monitorId: 'm1',
    version: 7n,
    scheduledAt: 1_800_000_000_000,
    startedAt: 1_800_000_000_004,
    outcome,
    ...(runNowRequestId ? { runNowRequestId } : {}),
  });
  /** The message as protobuf-es builds it by reflection (what resultOf built before). */
  const viaCreate = (i: ReturnType<typeof input>) => {
    const o = i.outcome;
    const ms = (iso: string | undefined) => (iso ? BigInt(Date.parse(iso)) : 0n);
    return create(CheckResultSchema, {
      monitorId: i.monitorId,
      monitorVersion: i.version,
      scheduledAtMs: BigInt(i.scheduledAt),
      startedAtMs: BigInt(i.startedAt),
      ok: o.ok,
      errorKind: o.error?.kind ?? '',
      errorMessage: o.error?.message ?? '',
      responseTimeMs: Math.max(0, Math.round(o.response_time_ms)),
      statusCode: o.status_code ?? 0,
      timings: o.timings
        ? {
            dnsMs: Math.round(o.timings.dns_ms),
            connectMs: Math.round(o.timings.connect_ms),
            tlsMs: Math.round(o.timings.tls_ms),
            firstByteMs: Math.round(o.timings.first_byte_ms),
            totalMs: Math.round(o.timings.total_ms),
          }
        : undefined,
      tls: o.tls
        ? { validToMs: ms(o.tls.valid_to), subject: o.tls.subject, issuer: o.tls.issuer }
        : undefined,
      domain: o.domain ? { expiresAtMs: ms(o.domain.expires_at) } : undefined,
      dnsRecords: o.dns?.records ?? [],
      runNowRequestId: i.runNowRequestId ?? '',
    });
  };
  it('builds the same message as create() would, field for field and on the wire', () => {
    const cases = [
      input({
        ok: true,
        error: null,
        response_time_ms: 12.6,
        status_code: 200,
        timings: { dns_ms: 1.2, connect_ms: 2.5, tls_ms: 4.4, first_byte_ms: 9.7, total_ms: 12.4 },
        tls: { valid_to: '2027-01-02T03:04:05.000Z', days_remaining: 40, subject: 'a.test', issuer: 'CA' },
      }),
      input({ ok: false, error: { kind: 'timeout', message: 'timed out' }, response_time_ms: -1 }),
      input({
        ok: true,
        error: null,
        response_time_ms: 3,
        domain: { expires_at: '2026-06-21T04:00:00.000Z', days_remaining: 20 },
      }),
      input(
        { ok: true, error: null, response_time_ms: 3, dns: { records: ['192.0.2.1', '192.0.2.2'] } },
        'rq1',
      ),
    ];
    for (const c of cases) {
      const mine = resultOf(c);
      const ref = viaCreate(c);
      expect(mine).toEqual(ref);
      expect(toBinary(CheckResultSchema, mine)).toEqual(toBinary(CheckResultSchema, ref));
    }
  });
});
