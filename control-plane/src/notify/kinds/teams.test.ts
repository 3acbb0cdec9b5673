import { afterEach, describe, expect, it } from 'vitest';
import { messages, sendThrough, startService } from '../../../../test/support/service-double.js';

let svc: Awaited<ReturnType<typeof startService>>;
afterEach(() => svc.close());

describe('teams', () => {
  it('POSTs a message with one Adaptive Card attachment; the workflow answers 202', async () => {
    svc = await startService(() => ({ status: 202 }));
    const withAck = { ...messages.raised, links: { acknowledge: 'https://acme.lookout.test/ack/abc' } };
    const { result } = await sendThrough(
      'teams',
      { webhook_url: svc.url('/workflows/abc/triggers/manual/paths/invoke?sig=s3c') },
      withAck,
    );
    expect(result).toMatchObject({ ok: true, status_code: 202 });
    const [req] = svc.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/workflows/abc/triggers/manual/paths/invoke?sig=s3c');
    expect(req!.json.type).toBe('message');
    expect(req!.json.attachments).toHaveLength(1);
    const a = req!.json.attachments[0];
    expect(a.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(a.content).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
    expect(a.content.body[0]).toMatchObject({
      type: 'TextBlock',
      text: 'CRITICAL: Home page is down',
      weight: 'Bolder',
      color: 'Attention',
    });
    expect(a.content.body[1]).toMatchObject({ type: 'TextBlock', text: messages.raised.text, wrap: true });
    expect(a.content.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Acknowledge', url: 'https://acme.lookout.test/ack/abc' },
    ]);
  });

  it('a 429 waits for Retry-After; a 400 is given up', async () => {
    svc = await startService((_r, n) =>
      n === 1 ? { status: 429, headers: { 'retry-after': '3' } } : { status: 202 },
    );
    const r = await sendThrough('teams', { webhook_url: svc.url('/w') }, messages.raised);
    expect(r.result.ok).toBe(true);
    expect(r.sleeps).toEqual([3000]);
    await svc.close();
    svc = await startService(() => ({ status: 400, body: { error: { code: 'InvalidRequestContent' } } }));
    const bad = await sendThrough('teams', { webhook_url: svc.url('/w') }, messages.raised);
    expect(bad.result).toMatchObject({ ok: false, permanent: true, status_code: 400 });
    expect(bad.attempts).toHaveLength(1);
  });
});
