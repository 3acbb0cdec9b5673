import { afterEach, describe, expect, it } from 'vitest';
import { messages, sendThrough, startService } from '../../../../test/support/service-double.js';

let svc: Awaited<ReturnType<typeof startService>>;
afterEach(() => svc.close());

describe('matrix', () => {
  it('PUTs m.room.message with a transaction id that a retry repeats; bearer token', async () => {
    svc = await startService((_r, n) =>
      n === 1
        ? {
            status: 429,
            body: { errcode: 'M_LIMIT_EXCEEDED', error: 'Too many requests', retry_after_ms: 1500 },
          }
        : { status: 200, body: { event_id: '$ev1' } },
    );
    const config = { homeserver_url: svc.base, access_token: 'syt_abc_123', room_id: '!room:example.org' };
    const { result, sleeps } = await sendThrough('matrix', config, messages.raised);
    expect(result).toMatchObject({ ok: true, status_code: 200 });
    expect(sleeps).toEqual([1500]);
    expect(result.remote_id).toBe('$ev1');
    expect(svc.requests).toHaveLength(2);
    const [a, b] = svc.requests;
    expect(a!.method).toBe('PUT');
    expect(a!.path).toMatch(
      /^\/_matrix\/client\/v3\/rooms\/!room%3Aexample\.org\/send\/m\.room\.message\/lookout-[0-9a-f]{32}$/,
    );
    expect(b!.path).toBe(a!.path);
    expect(a!.headers.authorization).toBe('Bearer syt_abc_123');
    expect(a!.json).toMatchObject({ msgtype: 'm.text', format: 'org.matrix.custom.html' });
    expect(a!.json.body).toBe(`CRITICAL: Home page is down\n${messages.raised.text}`);
    expect(a!.json.formatted_body).toMatch(/^<strong>CRITICAL: Home page is down<\/strong><br>/);
  });

  it('a resolved alert is an m.notice with its own transaction; markup in titles is escaped; 403 is given up', async () => {
    svc = await startService(() => ({ status: 403, body: { errcode: 'M_FORBIDDEN', error: 'not in room' } }));
    const m = { ...messages.resolved, subject: '[Lookout acme] RESOLVED: <b>x</b>', reply_to: '$ev1' };
    const r = await sendThrough(
      'matrix',
      { homeserver_url: svc.base, access_token: 't', room_id: '!r:x' },
      m,
      { deliveryId: 'other' },
    );
    expect(r.result).toMatchObject({ ok: false, permanent: true, status_code: 403 });
    expect(svc.requests[0]!.json.msgtype).toBe('m.notice');
    expect(svc.requests[0]!.json.formatted_body).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(svc.requests[0]!.json['m.relates_to']).toEqual({ 'm.in_reply_to': { event_id: '$ev1' } });
  });
});
