import { afterEach, describe, expect, it } from 'vitest';
import { messages, sendThrough, startService } from '../../../../test/support/service-double.js';

let svc: Awaited<ReturnType<typeof startService>>;
afterEach(() => svc.close());

describe('discord', () => {
  it('POSTs one embed to the webhook with ?wait=true; the answer is the message', async () => {
    svc = await startService(() => ({ status: 200, body: { id: '1234', type: 0, channel_id: '99' } }));
    const { result, label } = await sendThrough(
      'discord',
      { webhook_url: svc.url('/api/webhooks/42/tok3n') },
      messages.raised,
    );
    expect(result).toMatchObject({ ok: true, status_code: 200 });
    expect(result.response).toContain('"id":"1234"');
    expect(result.remote_id).toBe('1234');
    expect(label).toBe(`${svc.base}/…`);
    const [req] = svc.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/api/webhooks/42/tok3n?wait=true');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json).toEqual({
      username: 'Lookout',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: 'CRITICAL: Home page is down',
          description: messages.raised.text,
          color: 0xe5484d,
          timestamp: '2026-06-01T11:59:00.000Z',
          footer: { text: 'Lookout acme' },
        },
      ],
    });
  });

  it('resolved edits the raised message in place (PATCH …/messages/{id}) when its id is known', async () => {
    svc = await startService(() => ({ status: 200, body: { id: '1234' } }));
    await sendThrough(
      'discord',
      { webhook_url: svc.url('/api/webhooks/42/tok3n') },
      { ...messages.resolved, reply_to: '1234' },
    );
    const [req] = svc.requests;
    expect(req!.method).toBe('PATCH');
    expect(req!.path).toBe('/api/webhooks/42/tok3n/messages/1234');
    expect(req!.json.embeds[0]).toMatchObject({
      title: 'RESOLVED after 4m 12s: Home page is down',
      color: 0x30a46c,
    });
  });

  it('cuts a long text at 4,096 characters, ending with …', async () => {
    svc = await startService(() => ({ status: 204 }));
    const long = { ...messages.raised, text: 'x'.repeat(5000) };
    await sendThrough('discord', { webhook_url: svc.url('/api/webhooks/1/t') }, long);
    const d = svc.requests[0]!.json.embeds[0].description as string;
    expect(d).toHaveLength(4096);
    expect(d.endsWith('…')).toBe(true);
  });

  it('a 429 is retried no sooner than its retry_after; a 404 (unknown webhook) is given up', async () => {
    svc = await startService((_r, n) =>
      n === 1
        ? {
            status: 429,
            headers: { 'retry-after': '2' },
            body: { message: 'You are being rate limited.', retry_after: 2.5, global: false },
          }
        : { status: 200, body: { id: '1' } },
    );
    const r = await sendThrough('discord', { webhook_url: svc.url('/api/webhooks/1/t') }, messages.resolved);
    expect(r.result.ok).toBe(true);
    expect(r.sleeps).toEqual([2500]);
    expect(svc.requests[1]!.json.embeds[0].color).toBe(0x30a46c);
    await svc.close();
    svc = await startService(() => ({ status: 404, body: { message: 'Unknown Webhook', code: 10015 } }));
    const gone = await sendThrough('discord', { webhook_url: svc.url('/api/webhooks/1/t') }, messages.raised);
    expect(gone.result).toMatchObject({ ok: false, permanent: true, status_code: 404 });
    expect(gone.attempts).toHaveLength(1);
  });
});
