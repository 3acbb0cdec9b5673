import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sampleConfigs } from '../../../../test/support/kind-samples.js';
import { messages, sendThrough, startService } from '../../../../test/support/service-double.js';
import { CHANNEL_TYPES, NOTIFIERS } from './index.js';

let svc: Awaited<ReturnType<typeof startService>>;
afterEach(() => svc?.close());

describe('the notification kinds', () => {
  it('are the pinned channel types, each with a config schema that JSON Schema can show and its docs linked', () => {
    expect(CHANNEL_TYPES).toEqual([
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
    for (const n of Object.values(NOTIFIERS)) {
      const schema = z.toJSONSchema(n.config, { io: 'input', unrepresentable: 'any' }) as {
        properties: object;
      };
      expect(Object.keys(schema.properties), n.type).toEqual(Object.keys(n.config.shape));
      for (const s of n.secrets)
        expect(Object.keys(n.config.shape), n.type).toContain(s.replace(/\.\*$/, ''));
      expect(n.docs.length, n.type).toBeGreaterThan(0);
    }
  });

  it('every HTTP kind goes through the SSRF guard: a loopback service is refused for good and gets nothing', async () => {
    svc = await startService(() => ({ status: 200, body: {} }));
    for (const [kind, config] of Object.entries(sampleConfigs(svc.base))) {
      const r = await sendThrough(kind, config, messages.raised, { blockPrivate: true });
      expect(r.result, kind).toMatchObject({
        ok: false,
        permanent: true,
        error: expect.stringMatching(/is not an allowed destination/),
      });
      expect(r.attempts, kind).toHaveLength(1);
    }
    expect(svc.requests).toHaveLength(0);
  });

  it('a Retry-After longer than the longest wait ends the retries there, never retrying sooner; an HTTP-date counts too', async () => {
    svc = await startService((_r, n) =>
      n === 1
        ? { status: 429, headers: { 'retry-after': '3600' } }
        : n === 2
          ? { status: 503, headers: { 'retry-after': 'Mon, 01 Jun 2026 12:00:30 GMT' } }
          : { status: 200, body: {} },
    );
    const slow = await sendThrough('webhook', { url: svc.url('/x') }, messages.raised);
    expect(slow.result).toMatchObject({
      ok: false,
      permanent: false,
      status_code: 429,
      retry_after_ms: 3_600_000,
    });
    expect(slow.result.error).toMatch(/asks to wait 3600 s: not retried sooner/);
    expect(slow.attempts.map((a) => a.willRetry)).toEqual([false]);
    expect(slow.sleeps).toEqual([]);
    const dated = await sendThrough('webhook', { url: svc.url('/x') }, messages.raised);
    expect(dated.result.ok).toBe(true);
    expect(dated.sleeps).toEqual([30_000]);
  });
});
