import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../control-plane/src/config.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * Notification destinations that users name (a contact method's ntfy server, a channel's URL) against
 * an internal service on loopback, through the real API: by default (LOOKOUT_NOTIFY_ALLOW_PRIVATE
 * unset) nothing reaches it and the refusal names no address; where an operator allows private
 * destinations, a non-admin still never reads the service's answer.
 */

const SECRET_BODY = 'internal-only: db password hunter2';

/** The internal service: counts the requests that reach it and answers with something private. */
const startInternal = async (status: number) => {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits++;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(SECRET_BODY);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    hits: () => hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
};

let guarded: Harness;
let open: Harness;
let ok: Awaited<ReturnType<typeof startInternal>>;
let forbidden: Awaited<ReturnType<typeof startInternal>>;

beforeAll(async () => {
  ok = await startInternal(200);
  forbidden = await startInternal(403);
  // The configuration's own default, not the harness's (which lets tests' loopback receivers in).
  guarded = await startHarness({
    notify_allow_private: loadConfig({}).notify_allow_private,
    // The operator's own Twilio address (a proxy on the internal network, say).
    twilio_account_sid: `AC${'0123456789abcdef'.repeat(2)}`,
    twilio_auth_token: 'twilio-auth-token-1234',
    twilio_from: '+14155550100',
    twilio_api_url: `http://127.0.0.1:${ok.port}`,
  });
  open = await startHarness({ notify_allow_private: true });
});
afterAll(async () => {
  await guarded?.close();
  await open?.close();
  await ok?.close();
  await forbidden?.close();
});

const BASE = '/users/me/contact-methods';

describe('notification destinations on private addresses', () => {
  it('are refused by default: a viewer’s ntfy server on loopback is never contacted, and the refusal names no address', async () => {
    expect(loadConfig({}).notify_allow_private).toBe(false);
    const w = await guarded.workspace('guard-default');
    const viewer = await w.userWithKey('viewer');
    const me = w.as(viewer.key);
    // An IP literal is refused when entered, however it is spelled.
    for (const server_url of [
      `http://127.0.0.1:${ok.port}/internal`,
      `http://[::ffff:127.0.0.1]:${ok.port}/internal`,
      `http://2130706433:${ok.port}/internal`,
      'http://169.254.169.254/latest/meta-data',
    ]) {
      const refused = await me('POST', BASE, { json: { type: 'ntfy', server_url, topic: 'alerts' } });
      expect(refused.status, server_url).toBe(422);
      expect(refused.body.error.details, server_url).toEqual([
        { field: 'server_url', message: 'is not an allowed destination' },
      ]);
    }
    // A name that resolves to loopback: refused when connecting (the DNS answer is checked).
    for (const server_url of [`http://localhost:${ok.port}/internal`, `http://LocalHost:${ok.port}/x`]) {
      const created = await me('POST', BASE, { json: { type: 'ntfy', server_url, topic: 'alerts' } });
      expect(created.status, server_url).toBe(201);
      const sent = await me('POST', `${BASE}/${created.body.id}/send-code`);
      expect(sent.status, server_url).toBe(200);
      expect(sent.body, server_url).toMatchObject({ sent: false, status_code: null, response: null });
      expect(sent.body.error, server_url).toMatch(/is not an allowed destination$/);
      // Nothing about what the name resolved to, nor the kind of address it is.
      expect(sent.body.error, server_url).not.toMatch(/resolves|loopback|private|\(/);
      expect(JSON.stringify(sent.body), server_url).not.toContain('hunter2');
      await me('DELETE', `${BASE}/${created.body.id}`);
    }
    expect(ok.hits()).toBe(0);
  });

  it('are refused by default for channels too: a webhook to loopback is never sent, its test says only "not allowed"', async () => {
    const w = await guarded.workspace('guard-channel');
    const before = ok.hits();
    const literal = await w.api('POST', '/channels', {
      json: { name: 'metadata', type: 'webhook', config: { url: 'http://[fd00::1]/hook' } },
    });
    expect(literal.status).toBe(422);
    expect(literal.body.error.details).toEqual([
      { field: 'config.url', message: 'is not an allowed destination' },
    ]);
    const created = await w.api('POST', '/channels', {
      json: { name: 'internal', type: 'webhook', config: { url: `http://localhost:${ok.port}/hook` } },
    });
    expect(created.status).toBe(201);
    const test = await w.api('POST', `/channels/${created.body.id}/test`);
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ ok: false, status_code: null, response: null, would_retry: false });
    expect(test.body.error).toBe(`localhost is not an allowed destination`);
    expect(ok.hits()).toBe(before);
  });

  it('the operator’s own service addresses are not user destinations: an SMS code goes through the configured Twilio address on loopback', async () => {
    const w = await guarded.workspace('guard-operator');
    const viewer = await w.userWithKey('viewer');
    const me = w.as(viewer.key);
    const before = ok.hits();
    const created = await me('POST', BASE, { json: { type: 'sms', phone: '+14155550142' } });
    const sent = await me('POST', `${BASE}/${created.body.id}/send-code`);
    expect(sent.body).toMatchObject({ sent: true, status_code: 200, response: null });
    expect(ok.hits()).toBe(before + 1);
  });

  it('a redirect is never followed, so it cannot lead a notification to an internal address', async () => {
    // Even where private destinations are allowed (else the redirector itself, on loopback, is refused).
    const redirector = createServer((req, res) => {
      req.resume();
      res.writeHead(302, { location: `http://127.0.0.1:${ok.port}/internal` }).end();
    });
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    try {
      const w = await open.workspace('guard-redirect');
      const before = ok.hits();
      const port = (redirector.address() as AddressInfo).port;
      const created = await w.api('POST', '/channels', {
        json: { name: 'hop', type: 'webhook', config: { url: `http://127.0.0.1:${port}/hook` } },
      });
      const test = await w.api('POST', `/channels/${created.body.id}/test`);
      expect(test.body).toMatchObject({ ok: false, status_code: 302, would_retry: false });
      expect(ok.hits()).toBe(before);
    } finally {
      await new Promise<void>((r) => redirector.close(() => r()));
    }
  });

  it('allowed by the operator, a non-admin sees the status of a code test but never the answer’s body', async () => {
    const w = await open.workspace('guard-open');
    for (const role of ['viewer', 'member'] as const) {
      const u = await w.userWithKey(role);
      const me = w.as(u.key);
      for (const [svc, sent, status] of [
        [ok, true, 200],
        [forbidden, false, 403],
      ] as const) {
        const created = await me('POST', BASE, {
          json: { type: 'ntfy', server_url: `http://127.0.0.1:${svc.port}/internal`, topic: 'alerts' },
        });
        const before = svc.hits();
        const r = await me('POST', `${BASE}/${created.body.id}/send-code`);
        expect(svc.hits()).toBe(before + 1);
        expect(r.body).toMatchObject({ sent, status_code: status, response: null });
        expect(r.body.error).toBe(sent ? null : 'The service answered HTTP 403.');
        expect(JSON.stringify(r.body)).not.toContain('hunter2');
      }
    }
    // An admin, who could read the service anyway by configuring a channel, still sees its answer.
    const created = await w.api('POST', BASE, {
      json: { type: 'ntfy', server_url: `http://127.0.0.1:${forbidden.port}/internal`, topic: 'alerts' },
    });
    const r = await w.api('POST', `${BASE}/${created.body.id}/send-code`);
    expect(r.body).toMatchObject({ sent: false, status_code: 403, response: SECRET_BODY });
  });
});
