import { describe, expect, it } from 'vitest';
import { at, fixtures, T0 } from '../../../../test/contract/fixtures.js';
import { hiddenClasses } from '../../../../test/support/hidden-classes.js';
import { type MonitorStatusInfo, NO_CHECKS } from '../../domain/monitors/monitor-status.js';
import type { Monitor } from '../../domain/types.js';
import { monitorJson, monitorResponse } from './responses.js';

const monitor = (i: number): Monitor =>
  fixtures.monitor('ws', 'ep', {
    id: `m${i}`,
    url: `https://example.com/${i}?token=secret`,
    auth: i % 2 === 0 ? { type: 'basic', username: 'u', password: 'p' } : null,
    request_headers: { authorization: 'Bearer x' },
    updated_at: at(i),
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
      updated_at: at(2).toISOString(),
      auth: { type: 'basic', username: 'u' },
    });
    expect(json).not.toHaveProperty('workspace_id');
    expect(JSON.stringify(json)).not.toContain('"password"');
  });

  it("every field of the schema, in its order, its type's own settings, and nothing a store added", () => {
    const record = Object.assign(monitor(3), { _id: 'store-internal', status: 'down' });
    const json = monitorJson(record, 'admin', info);
    // The later types' fields are optional: an http monitor shows its assertions, no packet_count.
    const onlyOthers = [
      'packet_count',
      'grpc_service',
      'grpc_tls',
      'ws_message',
      'smtp_security',
      'query',
      'steps',
      'script',
    ];
    expect(Object.keys(json)).toEqual(
      Object.keys(monitorResponse.shape).filter((k) => !onlyOthers.includes(k)),
    );
    expect(json).toMatchObject({ assertions: [] });
    expect(json.status).toBe('up');
    expect(monitorResponse.parse(json)).toEqual(json);
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
