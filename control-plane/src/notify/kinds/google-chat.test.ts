import { afterEach, describe, expect, it } from 'vitest';
import { messages, sendThrough, startService } from '../../../../test/support/service-double.js';

let svc: Awaited<ReturnType<typeof startService>>;
afterEach(() => svc.close());

describe('google_chat', () => {
  it('raised and resolved go to one thread keyed by the alert', async () => {
    svc = await startService(() => ({
      status: 200,
      body: { name: 'spaces/AAA/messages/1', thread: { name: 'spaces/AAA/threads/T' } },
    }));
    const url = svc.url('/v1/spaces/AAA/messages?key=k3y&token=t0k');
    expect((await sendThrough('google_chat', { webhook_url: url }, messages.raised)).result.ok).toBe(true);
    expect((await sendThrough('google_chat', { webhook_url: url }, messages.resolved)).result.ok).toBe(true);
    for (const req of svc.requests) {
      expect(req.method).toBe('POST');
      const u = new URL(req.path, 'http://x');
      expect(u.pathname).toBe('/v1/spaces/AAA/messages');
      expect(u.searchParams.get('key')).toBe('k3y');
      expect(u.searchParams.get('token')).toBe('t0k');
      expect(u.searchParams.get('messageReplyOption')).toBe('REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
      expect(req.headers['content-type']).toBe('application/json; charset=UTF-8');
      expect(req.json.thread).toEqual({ threadKey: `lookout-${messages.alert.id}` });
    }
    expect(svc.requests[0]!.json.text).toBe(`*CRITICAL: Home page is down*\n${messages.raised.text}`);
    expect(svc.requests[1]!.json.text).toMatch(/^\*RESOLVED after 4m 12s: Home page is down\*/);
  });

  it('a 429 (RESOURCE_EXHAUSTED) is retried; a 403 is given up', async () => {
    svc = await startService((_r, n) =>
      n === 1
        ? { status: 429, body: { error: { code: 429, status: 'RESOURCE_EXHAUSTED' } } }
        : n === 2
          ? { status: 200, body: {} }
          : { status: 403, body: { error: { code: 403, status: 'PERMISSION_DENIED' } } },
    );
    const r = await sendThrough(
      'google_chat',
      { webhook_url: svc.url('/v1/spaces/A/messages?key=k') },
      messages.raised,
    );
    expect(r.attempts.map((a) => a.result.status_code)).toEqual([429, 200]);
    const denied = await sendThrough(
      'google_chat',
      { webhook_url: svc.url('/v1/spaces/A/messages?key=k') },
      messages.raised,
    );
    expect(denied.result).toMatchObject({ ok: false, permanent: true, status_code: 403 });
  });
});
