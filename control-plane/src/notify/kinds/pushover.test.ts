import { afterEach, describe, expect, it } from 'vitest';
import { messages, sendThrough, startService } from '../../../../test/support/service-double.js';

let svc: Awaited<ReturnType<typeof startService>>;
afterEach(() => svc.close());

const USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';
const APP = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';

describe('pushover', () => {
  it('POSTs /1/messages.json with token, user, title, message (cut at 1,024), priority, url', async () => {
    svc = await startService(() => ({
      status: 200,
      body: { status: 1, request: '647d2300-702c-4b38-8b2f-d56326ae460b' },
    }));
    const m = {
      ...messages.raised,
      text: 'w'.repeat(2000),
      links: { acknowledge: 'https://acme.lookout.test/ack/1' },
    };
    const { result } = await sendThrough(
      'pushover',
      { user_key: USER, app_token: APP, api_url: svc.base },
      m,
    );
    expect(result).toMatchObject({ ok: true, status_code: 200 });
    const [req] = svc.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/1/messages.json');
    expect(req!.json).toMatchObject({
      token: APP,
      user: USER,
      title: 'CRITICAL: Home page is down',
      priority: 1,
      url: 'https://acme.lookout.test/ack/1',
      url_title: 'Acknowledge',
    });
    expect(Array.from(req!.json.message as string)).toHaveLength(1024);
  });

  it('a bad user key (400, status 0) is given up; 429 (quota) is retried', async () => {
    svc = await startService((_r, n) =>
      n === 1
        ? {
            status: 400,
            body: { user: 'invalid', errors: ['user identifier is invalid'], status: 0, request: 'r' },
          }
        : n === 2
          ? { status: 429, headers: { 'retry-after': '60' } }
          : { status: 200, body: { status: 1 } },
    );
    const bad = await sendThrough(
      'pushover',
      { user_key: USER, app_token: APP, api_url: svc.base },
      messages.raised,
    );
    expect(bad.result).toMatchObject({ ok: false, permanent: true, status_code: 400 });
    expect(bad.result.error).toContain('user identifier is invalid');
    const later = await sendThrough(
      'pushover',
      { user_key: USER, app_token: APP, api_url: svc.base },
      messages.resolved,
    );
    expect(later.result.ok).toBe(true);
    expect(later.sleeps).toEqual([60_000]);
    expect(svc.requests[2]!.json.priority).toBe(-1);
  });
});
