import { afterEach, describe, expect, it } from 'vitest';
import { messages, sendThrough, startService } from '../../../../test/support/service-double.js';

let svc: Awaited<ReturnType<typeof startService>>;
afterEach(() => svc.close());

describe('mattermost', () => {
  it('POSTs {"text"} in Markdown to the hook; mentions in titles mention nobody', async () => {
    svc = await startService(() => ({ status: 200, body: 'ok' }));
    const m = { ...messages.raised, subject: '[Lookout acme] CRITICAL: @channel look' };
    const { result } = await sendThrough('mattermost', { webhook_url: svc.url('/hooks/xyz') }, m);
    expect(result).toMatchObject({ ok: true, status_code: 200, response: 'ok' });
    const [req] = svc.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/hooks/xyz');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json).toEqual({ text: `#### CRITICAL: @\u2060channel look\n${messages.raised.text}` });
  });

  it('cuts at 16,383 characters; a 429 waits for Retry-After; a 400 is given up', async () => {
    svc = await startService((_r, n) =>
      n === 1
        ? { status: 429, headers: { 'retry-after': '1' } }
        : n === 2
          ? { status: 200, body: 'ok' }
          : { status: 400, body: { id: 'web.incoming_webhook.text.app_error' } },
    );
    const r = await sendThrough(
      'mattermost',
      { webhook_url: svc.url('/hooks/x') },
      { ...messages.raised, text: 'y'.repeat(20_000) },
    );
    expect(r.result.ok).toBe(true);
    expect(r.sleeps).toEqual([1000]);
    expect(Array.from(svc.requests[1]!.json.text as string)).toHaveLength(16_383);
    const bad = await sendThrough('mattermost', { webhook_url: svc.url('/hooks/x') }, messages.raised);
    expect(bad.result).toMatchObject({ ok: false, permanent: true, status_code: 400 });
  });
});
