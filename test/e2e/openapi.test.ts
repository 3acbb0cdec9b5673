import { MONITOR_TYPES } from '@lookout/shared';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('GET /api/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document describing every endpoint from the validating schemas', async () => {
    const r = await h.request('GET', '/api/v1/openapi.json', { host: 'demo.localhost' });
    expect(r.status).toBe(200);
    const doc = r.body;
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc));
    expect(result.valid, JSON.stringify(result)).toBe(true);
    for (const [path, method] of [
      ['/monitors/create', 'post'],
      ['/monitors', 'get'],
      ['/monitors/{id}', 'patch'],
      ['/heartbeats', 'post'],
      ['/hb/ping/{uuid}', 'post'],
      ['/hb/ping/{uuid}', 'get'],
      ['/alerts', 'get'],
      ['/alerts/{uuid}', 'get'],
      ['/alerts/resolve', 'post'],
      ['/alerts/acknowledge', 'post'],
      ['/escalation-policies', 'post'],
      ['/escalation-policies/{id}', 'patch'],
      ['/channels', 'post'],
      ['/channels/{id}/test', 'post'],
      ['/maintenance-windows', 'post'],
      ['/api-keys', 'get'],
      ['/api-keys/{id}/revoke', 'post'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const create = doc.paths['/monitors/create'].post.requestBody.content['application/json'].schema;
    expect(create.required.sort()).toEqual(['display_name', 'monitor_type', 'url']);
    expect(create.additionalProperties).toBe(false);
    expect(create.properties.monitor_type.enum).toEqual([...MONITOR_TYPES]);
    expect(create.properties.display_name.maxLength).toBe(200);
    const resolve = doc.paths['/alerts/resolve'].post.requestBody.content['application/json'].schema;
    expect(resolve.required).toEqual(['UUIDs']);
    const channel = doc.paths['/channels'].post.requestBody.content['application/json'].schema;
    expect(
      channel.oneOf.map((b: { properties: { type: { const: string } } }) => b.properties.type.const),
    ).toEqual([
      'email',
      'webhook',
      'slack',
      'discord',
      'teams',
      'mattermost',
      'google_chat',
      'telegram',
      'matrix',
      'ntfy',
      'gotify',
      'pushover',
      'pagerduty',
      'opsgenie',
      'twilio_sms',
    ]);
    const telegram = channel.oneOf.find(
      (b: { properties: { type: { const: string } } }) => b.properties.type.const === 'telegram',
    );
    expect(telegram.properties.config.required).toEqual(['bot_token', 'chat_id']);
    expect(doc.paths['/hb/ping/{uuid}'].post.security).toEqual([]);
    expect(doc.paths['/alerts'].get.security).toEqual([{ apiKey: [] }, { session: [] }]);
    expect(doc.paths['/api-keys'].post.security).toEqual([{ session: [] }]);
    const statusParam = doc.paths['/alerts'].get.parameters.find(
      (p: { name: string }) => p.name === 'status',
    );
    expect(statusParam.in).toBe('query');
    expect(doc.paths['/monitors/create'].post.responses['402']).toBeDefined();
  });
});
