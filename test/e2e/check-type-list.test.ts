import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * GET /check-types through the real HTTP API: every monitor type in the registry's order, its target
 * and its own fields with their JSON Schemas, readable by any signed-in role (the web form is built
 * from it).
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

interface Field {
  name: string;
  required: boolean;
  default: unknown;
  schema: Record<string, unknown>;
}
interface CheckTypeJson {
  type: string;
  label: string;
  target: { label: string; example: string; secret: boolean };
  assertion_sources: string[];
  fields: Field[];
}

const TYPES = [
  'http',
  'api',
  'dns',
  'tcp',
  'domain',
  'ping',
  'grpc',
  'websocket',
  'smtp',
  'postgres',
  'mysql',
  'redis',
  'multistep',
  'browser',
];

describe('check types', () => {
  it('lists all 14 types with their targets and fields, each with its JSON Schema; a viewer may read it', async () => {
    const w = await h.workspace('check-types');
    const viewer = await w.userWithKey('viewer');
    const r = await w.as(viewer.key)('GET', '/check-types');
    expect(r.status).toBe(200);
    const types = r.body.data as CheckTypeJson[];
    expect(types.map((t) => t.type)).toEqual(TYPES);
    const by = Object.fromEntries(types.map((t) => [t.type, t]));
    const field = (type: string, name: string) => by[type]!.fields.find((f) => f.name === name);
    const names = (type: string) => by[type]!.fields.map((f) => f.name);

    expect(by.ping).toMatchObject({
      label: 'Ping (ICMP)',
      target: { label: 'Host', secret: false },
      assertion_sources: ['packet_loss', 'response_time'],
    });
    // What each type's checks read for assertions; none for a type without them.
    expect(by.http!.assertion_sources).toEqual([
      'status_code',
      'text_body',
      'json_body',
      'headers',
      'response_time',
    ]);
    expect(by.tcp!.assertion_sources).toEqual([]);
    expect(names('ping')).toEqual([
      'packet_count',
      'assertions',
      'response_time_threshold_ms',
      'retry_interval_seconds',
    ]);
    expect(field('ping', 'packet_count')).toMatchObject({
      name: 'packet_count',
      required: false,
      default: 3,
      schema: { type: 'integer', minimum: 1, maximum: 20 },
    });
    // What the field means, from its schema: a form shows it as the field's hint.
    expect(field('ping', 'packet_count')!.schema.description).toEqual(expect.any(String));

    expect(by.grpc!.target).toEqual({
      label: 'Host and port',
      example: 'grpc.example.com:443',
      secret: false,
    });
    expect(field('grpc', 'grpc_service')).toMatchObject({
      default: '',
      schema: { type: 'string', maxLength: 200 },
    });
    expect(field('grpc', 'grpc_tls')).toMatchObject({ default: false, schema: { type: 'boolean' } });

    expect(field('websocket', 'ws_message')!.default).toBeNull();
    expect(field('websocket', 'ws_message')!.schema.anyOf).toContainEqual({ type: 'null' });

    expect(names('smtp')).toEqual(
      expect.arrayContaining(['port', 'smtp_security', 'ssl_cert_monitoring', 'assertions']),
    );
    expect(field('smtp', 'port')).toMatchObject({
      default: 25,
      schema: { type: 'integer', minimum: 1, maximum: 65535 },
    });
    expect(field('smtp', 'smtp_security')).toMatchObject({
      default: 'none',
      schema: { type: 'string', enum: ['none', 'starttls', 'tls'] },
    });

    for (const [type, query] of [
      ['postgres', 'SELECT 1'],
      ['mysql', 'SELECT 1'],
      ['redis', 'PING'],
    ] as const) {
      expect(by[type]!.target).toMatchObject({ label: 'Connection URL', secret: true });
      expect(field(type, 'query')).toMatchObject({
        default: query,
        schema: { type: 'string', minLength: 1 },
      });
    }

    // The assertion list: its row's words are in the schema, the same for every type that has it.
    const assertions = field('http', 'assertions')!;
    expect(assertions.schema).toMatchObject({ type: 'array', maxItems: 20 });
    const item = assertions.schema.items as {
      properties: Record<string, { enum?: string[] }>;
      required: string[];
    };
    expect(item.properties.source!.enum).toEqual(expect.arrayContaining(['json_body', 'packet_loss']));
    expect(item.properties.comparison!.enum).toEqual(
      expect.arrayContaining(['equals', 'matches', 'is_empty']),
    );
    expect(item.required).toEqual(['source', 'comparison']);
    for (const t of ['api', 'ping', 'grpc', 'websocket', 'smtp', 'postgres', 'mysql', 'redis'])
      expect(field(t, 'assertions')!.schema).toEqual(assertions.schema);
    expect(names('dns')).not.toContain('assertions');

    // The first types keep their fields: tcp requires its port, http its method and status code.
    expect(field('tcp', 'port')!.required).toBe(true);
    expect(field('http', 'http_method')).toMatchObject({
      required: true,
      schema: { enum: expect.arrayContaining(['GET']) },
    });
    expect(field('domain', 'domain_expiry_alert_days')!.schema).toMatchObject({ type: 'integer' });
    expect(by.domain!.fields.every((f) => !('$schema' in f.schema))).toBe(true);
  });

  it('needs a sign-in and takes no query', async () => {
    const w = await h.workspace('check-types-anon');
    const r = await h.request('GET', '/api/v1/check-types', { host: w.host });
    expect(r.status).toBe(401);
    // It takes no query: a parameter is refused by name rather than ignored.
    const q = await w.api('GET', '/check-types?type=ping');
    expect(q.status).toBe(422);
    expect(q.body.error.details.map((d: { field: string }) => d.field)).toEqual(['type']);
  });
});
