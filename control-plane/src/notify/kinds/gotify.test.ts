import { afterEach, describe, expect, it } from 'vitest';
import { messages, sendThrough, startService } from '../../../../test/support/service-double.js';

let svc: Awaited<ReturnType<typeof startService>>;
afterEach(() => svc.close());

describe('gotify', () => {
  it('POSTs /message with X-Gotify-Key: title, message, priority, click extras', async () => {
    svc = await startService(() => ({
      status: 200,
      body: { id: 25, appid: 5, message: '…', title: '…', priority: 8 },
    }));
    const m = { ...messages.raised, links: { acknowledge: 'https://acme.lookout.test/ack/1' } };
    const { result } = await sendThrough(
      'gotify',
      { server_url: `${svc.base}/gotify/`, app_token: 'AbCdEf123' },
      m,
    );
    expect(result).toMatchObject({ ok: true, status_code: 200 });
    const [req] = svc.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/gotify/message');
    expect(req!.headers['x-gotify-key']).toBe('AbCdEf123');
    expect(req!.json).toEqual({
      title: 'CRITICAL: Home page is down',
      message: messages.raised.text,
      priority: 8,
      extras: { 'client::notification': { click: { url: 'https://acme.lookout.test/ack/1' } } },
    });
  });

  it('401 (bad token) is given up; 503 is retried', async () => {
    svc = await startService((_r, n) =>
      n === 1
        ? { status: 503 }
        : n === 2
          ? { status: 200, body: {} }
          : {
              status: 401,
              body: {
                error: 'Unauthorized',
                errorCode: 401,
                errorDescription: 'you need to provide a valid access token',
              },
            },
    );
    const r = await sendThrough('gotify', { server_url: svc.base, app_token: 'x' }, messages.raised);
    expect(r.attempts.map((a) => a.result.status_code)).toEqual([503, 200]);
    const bad = await sendThrough('gotify', { server_url: svc.base, app_token: 'x' }, messages.raised);
    expect(bad.result).toMatchObject({ ok: false, permanent: true, status_code: 401 });
  });
});
