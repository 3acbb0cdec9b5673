import { afterEach, describe, expect, it } from 'vitest';
import { messages, sendThrough, startService } from '../../../../test/support/service-double.js';

let svc: Awaited<ReturnType<typeof startService>>;
afterEach(() => svc.close());

const accepted = {
  status: 202,
  body: {
    result: 'Request will be processed',
    took: 0.107,
    requestId: '43a29c5c-3dbf-4fa4-9c26-f4f71023e120',
  },
};

describe('opsgenie', () => {
  it('create, acknowledge and close by alias (the alert uuid), GenieKey auth, on the configured instance', async () => {
    svc = await startService(() => accepted);
    const config = { api_key: 'eb243592-faa2-4ba2-a551q-1afdf565c889', api_url: `${svc.base}/eu` };
    for (const m of [messages.raised, messages.acknowledged, messages.resolved]) {
      expect((await sendThrough('opsgenie', config, m)).result).toMatchObject({ ok: true, status_code: 202 });
    }
    const id = messages.alert.id;
    expect(svc.requests.map((r) => [r.method, r.path])).toEqual([
      ['POST', '/eu/v2/alerts'],
      ['POST', `/eu/v2/alerts/${id}/acknowledge?identifierType=alias`],
      ['POST', `/eu/v2/alerts/${id}/close?identifierType=alias`],
    ]);
    for (const r of svc.requests)
      expect(r.headers.authorization).toBe('GenieKey eb243592-faa2-4ba2-a551q-1afdf565c889');
    expect(svc.requests[0]!.json).toEqual({
      message: 'CRITICAL: Home page is down',
      alias: id,
      description: messages.raised.text,
      priority: 'P1',
      source: 'Lookout',
      details: { alert: `https://acme.lookout.test/alerts/${id}` },
    });
    // Closed by alias, with a note that says how long it lasted.
    expect(svc.requests[2]!.json).toEqual({
      source: 'Lookout',
      note: 'RESOLVED after 4m 12s: Home page is down',
    });
  });

  it('cuts the message at 130 characters; 422 is given up; 429 retried', async () => {
    svc = await startService((_r, n) =>
      n === 1
        ? { status: 429, body: { message: 'You are making too many requests!' } }
        : n === 2
          ? accepted
          : { status: 422, body: { message: 'Request body is not processable' } },
    );
    const long = { ...messages.raised, subject: `[Lookout acme] ${'m'.repeat(300)}` };
    const r = await sendThrough('opsgenie', { api_key: 'k', api_url: svc.base }, long);
    expect(r.attempts.map((a) => a.result.status_code)).toEqual([429, 202]);
    expect(Array.from(svc.requests[1]!.json.message as string)).toHaveLength(130);
    const bad = await sendThrough('opsgenie', { api_key: 'k', api_url: svc.base }, messages.raised);
    expect(bad.result).toMatchObject({ ok: false, permanent: true, status_code: 422 });
  });
});
