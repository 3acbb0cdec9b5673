import { afterEach, describe, expect, it } from 'vitest';
import { messages, sendThrough, startService } from '../../../../test/support/service-double.js';

let svc: Awaited<ReturnType<typeof startService>>;
afterEach(() => svc.close());

describe('ntfy', () => {
  it('publishes JSON to the server root: topic, title, message, priority, tags, click; bearer token when set', async () => {
    svc = await startService(() => ({
      status: 200,
      body: { id: 'hwQ2YpKdmg', time: 1, event: 'message', topic: 'ops' },
    }));
    const m = { ...messages.raised, links: { acknowledge: 'https://acme.lookout.test/ack/1' } };
    const { result } = await sendThrough(
      'ntfy',
      { server_url: svc.base, topic: 'ops', access_token: 'tk_abc' },
      m,
    );
    expect(result).toMatchObject({ ok: true, status_code: 200 });
    const [req] = svc.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/');
    expect(req!.headers.authorization).toBe('Bearer tk_abc');
    expect(req!.json).toEqual({
      topic: 'ops',
      title: 'CRITICAL: Home page is down',
      message: messages.raised.text,
      priority: 5,
      tags: ['rotating_light'],
      click: 'https://acme.lookout.test/ack/1',
    });
  });

  it('without a token, no Authorization; resolved at default priority; cut at 4,096 bytes; 429 retried, 403 given up', async () => {
    svc = await startService((_r, n) =>
      n === 1
        ? { status: 429, body: { code: 42901, http: 429, error: 'limit reached: too many requests' } }
        : n === 2
          ? { status: 200, body: {} }
          : { status: 403, body: { code: 40301, http: 403 } },
    );
    const r = await sendThrough(
      'ntfy',
      { server_url: svc.base, topic: 'ops' },
      { ...messages.resolved, text: 'é'.repeat(3000) },
    );
    expect(r.result.ok).toBe(true);
    const req = svc.requests[1]!;
    expect(req.headers.authorization).toBeUndefined();
    expect(req.json).toMatchObject({ priority: 3, tags: ['white_check_mark'] });
    expect(Buffer.byteLength(req.json.message)).toBeLessThanOrEqual(4096);
    const denied = await sendThrough('ntfy', { server_url: svc.base, topic: 'ops' }, messages.raised);
    expect(denied.result).toMatchObject({ ok: false, permanent: true, status_code: 403 });
  });
});
