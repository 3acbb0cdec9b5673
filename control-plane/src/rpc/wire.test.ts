import { randomBytes } from 'node:crypto';
import { createSecretBox, MONITOR_TYPES } from '@lookout/shared';
import { describe, expect, it } from 'vitest';
import { fixtures } from '../../../test/contract/fixtures.js';
import { CHECK_TYPES } from '../domain/checks/registry.js';
import { targetOf } from '../domain/monitors/monitors.js';
import type { CatalogMonitor } from '../domain/types.js';
import { assignmentEncoder } from './wire.js';

const box = createSecretBox(randomBytes(32).toString('base64'));
const encode = assignmentEncoder(box);
const monitor = (over: Partial<CatalogMonitor>): CatalogMonitor => ({
  ...fixtures.monitor('ws', 'policy'),
  ...over,
});

describe('assignmentEncoder', () => {
  it("sends each type its own settings message, with the type's defaults for a record that lacks them", () => {
    for (const type of MONITOR_TYPES) {
      const spec = encode(monitor({ monitor_type: type, settings: {} })).spec!;
      expect(spec.monitorType).toBe(type);
      expect(spec.settings.case).toBe(
        CHECK_TYPES[type].wire(monitor({ monitor_type: type, settings: {} }), createSecretBox(undefined))
          .case,
      );
    }
    const ping = encode(monitor({ monitor_type: 'ping', settings: {} })).spec!;
    expect(ping.settings).toMatchObject({ case: 'ping', value: { packetCount: 3, assertions: [] } });
    const redis = encode(monitor({ monitor_type: 'redis', settings: {} })).spec!;
    expect(redis.settings).toMatchObject({ case: 'database', value: { query: 'PING' } });
  });

  it("fills the first protocol's flat fields for the first types only", () => {
    const http = encode(monitor({ monitor_type: 'http', http_method: 'HEAD', expected_status_code: 204 }))
      .spec!;
    expect(http).toMatchObject({ httpMethod: 'HEAD', expectedStatusCode: 204 });
    expect(http.settings).toMatchObject({
      case: 'http',
      value: { httpMethod: 'HEAD', expectedStatusCode: 204 },
    });
    const smtp = encode(monitor({ monitor_type: 'smtp', port: 587, http_method: 'GET' })).spec!;
    expect(smtp).toMatchObject({ port: 0, httpMethod: '' });
    expect(smtp.settings).toMatchObject({ case: 'smtp', value: { port: 587 } });
  });

  it('opens a sealed connection URL for the agent; the record keeps only its hint', () => {
    const plain = 'postgres://monitor:s3cret@db.example.com/app';
    const sealed = box.seal(plain, 'monitor-url:ws');
    const m = monitor({
      monitor_type: 'postgres',
      url: 'postgres://db.example.com/…/app',
      settings: { sealed_url: sealed },
    });
    expect(encode(m).spec!.url).toBe(plain);
    expect(targetOf(box, m)).toBe(plain);
    // Sealed for its workspace: another's context does not open it.
    expect(() => targetOf(box, { ...m, workspace_id: 'other' })).toThrow();
  });
});
