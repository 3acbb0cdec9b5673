import { afterEach, describe, expect, it } from 'vitest';
import { messages, sendThrough, startService } from '../../../../test/support/service-double.js';

let svc: Awaited<ReturnType<typeof startService>>;
afterEach(() => svc.close());

const SID = `AC${'a1'.repeat(16)}`;

describe('twilio_sms', () => {
  it('one form-encoded POST per recipient with basic auth; a retry sends only to who has not got it', async () => {
    svc = await startService((r, n) =>
      n === 2
        ? {
            status: 429,
            body: {
              code: 20429,
              message: 'Too Many Requests',
              more_info: 'https://www.twilio.com/docs/errors/20429',
              status: 429,
            },
          }
        : { status: 201, body: { sid: `SM${n}`, status: 'queued', to: r.form.get('To') } },
    );
    const config = {
      account_sid: SID,
      auth_token: 'authtok3n',
      from: '+15550001111',
      to: ['+15552223333', '+4915112345678'],
      api_url: svc.base,
    };
    const m = { ...messages.raised, links: { acknowledge: 'https://acme.lookout.test/ack/1' } };
    const { result } = await sendThrough('twilio_sms', config, m);
    expect(result).toMatchObject({ ok: true, status_code: 201 });
    expect(svc.requests.map((r) => r.form.get('To'))).toEqual([
      '+15552223333',
      '+4915112345678',
      '+4915112345678',
    ]);
    for (const r of svc.requests) {
      expect(r.method).toBe('POST');
      expect(r.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
      expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(r.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:authtok3n`).toString('base64')}`);
      expect(r.form.get('From')).toBe('+15550001111');
      expect(r.form.get('Body')).toBe('CRITICAL: Home page is down\nAck: https://acme.lookout.test/ack/1');
    }
  });

  it('an invalid number (400, code 21211) is given up', async () => {
    svc = await startService(() => ({
      status: 400,
      body: { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 },
    }));
    const r = await sendThrough(
      'twilio_sms',
      { account_sid: SID, auth_token: 't', from: '+15550001111', to: ['+15550000000'], api_url: svc.base },
      messages.raised,
    );
    expect(r.result).toMatchObject({ ok: false, permanent: true, status_code: 400 });
    expect(r.attempts).toHaveLength(1);
  });
});
