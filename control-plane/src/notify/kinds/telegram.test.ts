import { afterEach, describe, expect, it } from 'vitest';
import { messages, sendThrough, startService } from '../../../../test/support/service-double.js';

let svc: Awaited<ReturnType<typeof startService>>;
afterEach(() => svc.close());

const TOKEN = '123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11';

describe('telegram', () => {
  it('POSTs sendMessage to /bot<token>/ with chat_id and plain text; the answer is the message', async () => {
    svc = await startService(() => ({
      status: 200,
      body: { ok: true, result: { message_id: 77, chat: { id: -100123 } } },
    }));
    const { result, label } = await sendThrough(
      'telegram',
      { bot_token: TOKEN, chat_id: '-100123', api_url: svc.base },
      messages.raised,
    );
    expect(result).toMatchObject({ ok: true, status_code: 200 });
    expect(result.response).toContain('"message_id":77');
    expect(result.remote_id).toBe('77');
    expect(label).toBe('Telegram chat -100123');
    const [req] = svc.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe(`/bot${TOKEN}/sendMessage`);
    expect(req!.json).toEqual({
      chat_id: '-100123',
      text: `${messages.raised.subject}\n\n${messages.raised.text}`,
      link_preview_options: { is_disabled: true },
    });
  });

  it('resolved replies to the raised message when its id is known', async () => {
    svc = await startService(() => ({ status: 200, body: { ok: true, result: { message_id: 78 } } }));
    await sendThrough(
      'telegram',
      { bot_token: TOKEN, chat_id: '42', api_url: svc.base },
      { ...messages.resolved, reply_to: '77' },
    );
    expect(svc.requests[0]!.json.reply_parameters).toEqual({
      message_id: 77,
      allow_sending_without_reply: true,
    });
    expect(svc.requests[0]!.json.text).toMatch(/^\[Lookout acme\] RESOLVED after 4m 12s: Home page is down/);
  });

  it('a 429 waits for parameters.retry_after; a 400 "chat not found" is given up; text is cut at 4,096', async () => {
    svc = await startService((r, n) =>
      n === 1
        ? {
            status: 429,
            body: {
              ok: false,
              error_code: 429,
              description: 'Too Many Requests: retry after 7',
              parameters: { retry_after: 7 },
            },
          }
        : r.json.chat_id === '@nochat'
          ? { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' } }
          : { status: 200, body: { ok: true, result: { message_id: 1 } } },
    );
    const r = await sendThrough(
      'telegram',
      { bot_token: TOKEN, chat_id: '42', api_url: svc.base },
      { ...messages.raised, text: 'z'.repeat(5000) },
    );
    expect(r.result.ok).toBe(true);
    expect(r.sleeps).toEqual([7000]);
    expect(Array.from(svc.requests[1]!.json.text as string)).toHaveLength(4096);
    const bad = await sendThrough(
      'telegram',
      { bot_token: TOKEN, chat_id: '@nochat', api_url: svc.base },
      messages.raised,
    );
    expect(bad.result).toMatchObject({ ok: false, permanent: true, status_code: 400 });
    expect(bad.result.error).toContain('chat not found');
    expect(bad.attempts).toHaveLength(1);
  });
});
