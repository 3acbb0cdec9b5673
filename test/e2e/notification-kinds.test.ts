import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { acceptedAnswer, expectedAuth, kindOfPath, sampleConfigs } from '../support/kind-samples.js';
import { startService } from '../support/service-double.js';

/**
 * Every notification kind through the real HTTP API: created from its service's own config words,
 * its secrets write-only (at most the last four characters shown, kept by a PATCH that leaves them
 * out), "Send test" answered with what the service said, and the delivery log paged.
 */
let h: Harness;
let svc: Awaited<ReturnType<typeof startService>>;
/** Kinds whose next request is answered with this instead of success. */
const failNext = new Map<string, { status: number; headers?: Record<string, string>; body?: unknown }>();

beforeAll(async () => {
  h = await startHarness();
  svc = await startService((r) => {
    const kind = kindOfPath(r.path);
    const f = failNext.get(kind);
    if (f) {
      failNext.delete(kind);
      return f;
    }
    return acceptedAnswer(kind, r.json);
  });
});
afterAll(async () => {
  await h.close();
  await svc.close();
});

const SECRETS: Record<string, string[]> = {
  slack: ['url'],
  discord: ['webhook_url'],
  teams: ['webhook_url'],
  mattermost: ['webhook_url'],
  google_chat: ['webhook_url'],
  telegram: ['bot_token'],
  matrix: ['access_token'],
  ntfy: ['access_token'],
  gotify: ['app_token'],
  pushover: ['user_key', 'app_token'],
  pagerduty: ['routing_key'],
  opsgenie: ['api_key'],
  twilio_sms: ['auth_token'],
  webhook: [],
};

describe('notification kinds through the API', () => {
  it('GET /channel-kinds: every kind with its config JSON Schema, secrets and follow-ups', async () => {
    const w = await h.workspace('kinds-list');
    const r = await w.api('GET', '/channel-kinds');
    expect(r.status).toBe(200);
    const byType = Object.fromEntries(r.body.data.map((k: { type: string }) => [k.type, k]));
    expect(Object.keys(byType)).toHaveLength(15);
    expect(byType.telegram).toMatchObject({
      label: 'Telegram',
      secrets: ['bot_token'],
      follows: ['resolved'],
      config_schema: { type: 'object', required: ['bot_token', 'chat_id'], additionalProperties: false },
    });
    expect(byType.telegram.config_schema.properties.api_url.default).toBe('https://api.telegram.org');
    expect(byType.pagerduty.follows).toEqual(['acknowledged', 'resolved']);
    expect(byType.opsgenie.follows).toEqual(['acknowledged', 'resolved']);
    const member = await w.userWithKey('member');
    expect((await w.as(member.key)('GET', '/channel-kinds')).status).toBe(403);
  });

  it('each kind: created, secrets shown as at most their last four, kept by a PATCH without them; the test answers with the service’s reply', async () => {
    const w = await h.workspace('kinds-each');
    for (const [kind, config] of Object.entries(sampleConfigs(svc.base))) {
      const created = await w.api('POST', '/channels', { json: { name: `${kind} ch`, type: kind, config } });
      expect(created.status, `${kind}: ${JSON.stringify(created.body)}`).toBe(201);
      const shown = JSON.stringify(created.body.config);
      for (const s of SECRETS[kind]!) {
        const value = config[s] as string;
        expect(shown, kind).not.toContain(value);
        expect(created.body.config[s], kind).toMatch(/^(••••|http:\/\/127\.0\.0\.1:\d+\/…)/);
        expect(created.body.config[s].endsWith(value.slice(-4)), kind).toBe(true);
      }
      const got = await w.api('GET', `/channels/${created.body.id}`);
      expect(got.body.config, kind).toEqual(created.body.config);
      // A PATCH of the config without its secrets keeps them: the test below still authenticates.
      const nonSecret = Object.fromEntries(
        Object.entries(config).filter(([f]) => !SECRETS[kind]!.includes(f)),
      );
      const patched = await w.api('PATCH', `/channels/${created.body.id}`, { json: { config: nonSecret } });
      expect(patched.status, `${kind}: ${JSON.stringify(patched.body)}`).toBe(200);
      expect(patched.body.config, kind).toEqual(created.body.config);

      const before = svc.requests.length;
      const test = await w.api('POST', `/channels/${created.body.id}/test`);
      expect(test.status).toBe(200);
      const expected = acceptedAnswer(kind, { dedup_key: 'x' });
      expect(test.body, kind).toMatchObject({
        ok: true,
        outcome: 'sent',
        status_code: expected.status,
        would_retry: false,
      });
      if (kind === 'telegram') expect(test.body.response).toContain('"message_id":501');
      const reqs = svc.requests.slice(before);
      expect(reqs.length, kind).toBeGreaterThan(0);
      for (const r of reqs) {
        expect(kindOfPath(r.path), kind).toBe(kind);
        const auth = expectedAuth(kind);
        if (auth) expect(r.headers[auth.header], kind).toBe(auth.value);
      }
      if (kind === 'telegram') expect(reqs[0]!.path).toBe(`/telegram/bot${config.bot_token}/sendMessage`);
      if (kind === 'pagerduty')
        expect(reqs.map((r) => r.json.routing_key)).toEqual([config.routing_key, config.routing_key]);
    }
  });

  it('a test that the service refuses or rate-limits reports its status, its words and when to retry; the log pages newest first', async () => {
    const w = await h.workspace('kinds-fail');
    const config = sampleConfigs(svc.base).telegram!;
    const ch = (await w.api('POST', '/channels', { json: { name: 'tg', type: 'telegram', config } })).body;
    failNext.set('telegram', {
      status: 429,
      headers: { 'retry-after': '9' },
      body: {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 9',
        parameters: { retry_after: 9 },
      },
    });
    const limited = await w.api('POST', `/channels/${ch.id}/test`);
    expect(limited.body).toMatchObject({
      ok: false,
      status_code: 429,
      would_retry: true,
      retry_after_seconds: 9,
    });
    expect(limited.body.response).toContain('Too Many Requests');
    failNext.set('telegram', {
      status: 400,
      body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
    });
    const refused = await w.api('POST', `/channels/${ch.id}/test`);
    expect(refused.body).toMatchObject({ ok: false, status_code: 400, would_retry: false });
    expect(refused.body.error).toContain('chat not found');
    const ok = await w.api('POST', `/channels/${ch.id}/test`);
    expect(ok.body.ok).toBe(true);

    const first = await w.api('GET', `/channels/${ch.id}/deliveries?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const rest = await w.api('GET', `/channels/${ch.id}/deliveries?limit=2&cursor=${first.body.next_cursor}`);
    expect(rest.body).toMatchObject({ next_cursor: null });
    const all = [...first.body.data, ...rest.body.data];
    expect(all.map((d: { status_code: number }) => d.status_code).sort()).toEqual([200, 400, 429]);
    expect(new Set(all.map((d: { id: string }) => d.id)).size).toBe(3);
    const other = await h.workspace('kinds-fail-other');
    expect((await other.api('GET', `/channels/${ch.id}/deliveries`)).status).toBe(404);
  });

  it('an optional secret left out is fine: ntfy without an access token sends no Authorization', async () => {
    const w = await h.workspace('kinds-optional');
    const { access_token: _t, ...config } = sampleConfigs(svc.base).ntfy!;
    const ch = await w.api('POST', '/channels', { json: { name: 'open topic', type: 'ntfy', config } });
    expect(ch.status, JSON.stringify(ch.body)).toBe(201);
    expect(ch.body.config).not.toHaveProperty('access_token');
    const before = svc.requests.length;
    expect((await w.api('POST', `/channels/${ch.body.id}/test`)).body.ok).toBe(true);
    expect(svc.requests[before]!.headers.authorization).toBeUndefined();
  });

  it('a kept secret goes nowhere new: changing the service address without the secret asks for it again', async () => {
    const w = await h.workspace('kinds-move');
    const config = sampleConfigs(svc.base).matrix!;
    const ch = (await w.api('POST', '/channels', { json: { name: 'mx', type: 'matrix', config } })).body;
    const moved = await w.api('PATCH', `/channels/${ch.id}`, {
      json: { config: { homeserver_url: 'https://evil.example', room_id: config.room_id } },
    });
    expect(moved.status).toBe(422);
    expect(moved.body.error.details).toEqual([
      { field: 'config.access_token', message: 'must be entered again when config.homeserver_url changes' },
    ]);
    const withToken = await w.api('PATCH', `/channels/${ch.id}`, {
      json: {
        config: {
          homeserver_url: 'https://matrix.example',
          room_id: config.room_id,
          access_token: 'syt_new_0000',
        },
      },
    });
    expect(withToken.status).toBe(200);
    expect(withToken.body.config).toMatchObject({
      homeserver_url: 'https://matrix.example',
      access_token: '••••0000',
    });
  });

  it('bad config names every bad field; a kind that does not exist is refused', async () => {
    const w = await h.workspace('kinds-bad');
    const bad = await w.api('POST', '/channels', {
      json: { name: 'tg', type: 'telegram', config: { chat_id: 'not a chat', api_url: 'ftp://x' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'config.api_url',
      'config.bot_token',
      'config.chat_id',
    ]);
    const twilio = await w.api('POST', '/channels', {
      json: {
        name: 'sms',
        type: 'twilio_sms',
        config: { ...sampleConfigs(svc.base).twilio_sms, to: ['555-1234'] },
      },
    });
    expect(twilio.status).toBe(422);
    expect(twilio.body.error.details.map((d: { field: string }) => d.field)).toEqual(['config.to[0]']);
    const unknown = await w.api('POST', '/channels', {
      json: { name: 'x', type: 'carrier_pigeon', config: {} },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details.map((d: { field: string }) => d.field)).toEqual(['type']);
  });
});
