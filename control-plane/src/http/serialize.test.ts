import { describe, expect, it } from 'vitest';
import { hiddenClasses } from '../../../test/support/hidden-classes.js';
import { type MonitorStatusInfo, NO_CHECKS } from '../domain/monitors/monitor-status.js';
import type { Monitor } from '../domain/types.js';
import { monitorJson } from './serialize.js';

const T0 = new Date('2026-11-01T00:00:00Z');

const monitor = (i: number): Monitor => ({
  id: `m${i}`,
  workspace_id: 'ws',
  display_name: `Monitor ${i}`,
  monitor_type: 'http',
  url: `https://example.com/${i}?token=secret`,
  http_method: 'GET',
  check_interval_seconds: 60,
  timeout_seconds: 10,
  expected_status_code: 200,
  required_keyword: null,
  auth: i % 2 === 0 ? { type: 'basic', username: 'u', password: 'p' } : null,
  port: null,
  request_headers: { authorization: 'Bearer x' },
  request_body: null,
  follow_redirects: true,
  ssl_cert_monitoring: true,
  ssl_cert_expiry_alert_days: 14,
  domain_expiry_alert_days: 30,
  response_time_threshold_ms: null,
  failure_threshold: 2,
  escalation_policy_id: 'ep',
  check_locations: ['eu-west'],
  dns_record_type: null,
  dns_expected_values: [],
  dns_resolver: null,
  paused: false,
  created_at: T0,
  updated_at: new Date(T0.getTime() + i * 1000),
  version: 1,
});

const info: MonitorStatusInfo = { ...NO_CHECKS, status: 'up', last_checked_at: T0 };

describe('monitorJson', () => {
  it('shows the status given, dates as ISO strings, auth without its secret, and no workspace id', () => {
    const json = monitorJson(monitor(2), 'admin', info);
    expect(json).toMatchObject({
      id: 'm2',
      status: 'up',
      last_checked_at: T0.toISOString(),
      created_at: T0.toISOString(),
      updated_at: '2026-11-01T00:00:02.000Z',
      auth: { type: 'basic', username: 'u' },
    });
    expect(json).not.toHaveProperty('workspace_id');
    expect(JSON.stringify(json)).not.toContain('"password"');
  });

  it('a viewer sees the URL query and headers masked', () => {
    const json = monitorJson(monitor(1), 'viewer', info);
    expect(json.url).not.toContain('secret');
    expect(json.request_headers.authorization).not.toBe('Bearer x');
  });

  it('a page of monitors shares its hidden classes, not one per monitor', () => {
    expect(hiddenClasses((i) => monitorJson(monitor(i), 'admin', info))).toBe(1);
  });
});
