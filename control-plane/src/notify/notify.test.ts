import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NO_MAIL_TRANSPORT } from '../domain/notifications/mail-settings.js';
import {
  type Attempt,
  emailTarget,
  type OutgoingMessage,
  type Target,
} from '../domain/notifications/messages.js';
import { withRetries } from './attempt.js';
import { createDispatcher } from './dispatcher.js';
import type { SmtpSettings } from './email.js';
import { createMailRouter } from './mail-route.js';
import { signatureHeader, verifySignature } from './webhook.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const nowSec = Math.floor(NOW.getTime() / 1000);
const message: OutgoingMessage = {
  event: 'raised',
  subject: 'DOWN: Home page',
  text: 'It is down.',
  payload: { event: 'x', n: 1 },
  dedup_key: 'a1',
  alert: null,
};

describe('webhook signatures', () => {
  const body = '{"a":1}';
  it('verifies what was signed, with the right secret, within the tolerance', () => {
    const h = signatureHeader('s3cret', nowSec, body);
    expect(h).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature('s3cret', h, body, nowSec)).toBe(true);
    expect(verifySignature('s3cret', h, body, nowSec + 299)).toBe(true);
  });
  it('refuses a changed body, another secret, an old timestamp, garbage', () => {
    const h = signatureHeader('s3cret', nowSec, body);
    expect(verifySignature('s3cret', h, '{"a":2}', nowSec)).toBe(false);
    expect(verifySignature('other', h, body, nowSec)).toBe(false);
    expect(verifySignature('s3cret', h, body, nowSec + 301)).toBe(false);
    expect(verifySignature('s3cret', 't=1,v1=zz', body, nowSec)).toBe(false);
    expect(verifySignature('s3cret', undefined, body, nowSec)).toBe(false);
  });
});

describe('retries', () => {
  const result = (ok: boolean, permanent = false): Attempt => ({
    ok,
    permanent,
    status_code: null,
    error: ok ? null : 'x',
  });
  it('backs off exponentially until success, reporting every attempt', async () => {
    const slept: number[] = [];
    const seen: [number, boolean, boolean][] = [];
    const outcomes = [result(false), result(false), result(true)];
    const r = await withRetries(
      async (n) => outcomes[n - 1]!,
      { maxAttempts: 5, baseDelayMs: 10, sleep: async (ms) => void slept.push(ms) },
      (n, res, willRetry) => void seen.push([n, res.ok, willRetry]),
    );
    expect(r.ok).toBe(true);
    expect(slept).toEqual([10, 20]);
    expect(seen).toEqual([
      [1, false, true],
      [2, false, true],
      [3, true, false],
    ]);
  });
  it('stops at a permanent failure and after the last attempt', async () => {
    let calls = 0;
    const sleep = async () => {};
    await withRetries(
      async () => {
        calls++;
        return result(false, true);
      },
      { maxAttempts: 5, baseDelayMs: 1, sleep },
      () => {},
    );
    expect(calls).toBe(1);
    calls = 0;
    const r = await withRetries(
      async () => {
        calls++;
        return result(false);
      },
      { maxAttempts: 3, baseDelayMs: 1, sleep },
      () => {},
    );
    expect(calls).toBe(3);
    expect(r.ok).toBe(false);
  });
});

/** A real HTTP receiver on a loopback port that answers with the statuses it is given, in order. */
let receiver: Server;
let port: number;
let statuses: number[] = [];
let received: { headers: IncomingMessage['headers']; body: string; verified: boolean }[] = [];
const SECRET = 'whsec_test';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const sig = req.headers['x-lookout-signature'] as string | undefined;
      received.push({ headers: req.headers, body, verified: verifySignature(SECRET, sig, body, nowSec) });
      res.writeHead(statuses.shift() ?? 200).end('nope');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(() => receiver.close());
afterEach(() => {
  statuses = [];
  received = [];
});

const slept: number[] = [];
const dispatcher = createDispatcher({
  mail: createMailRouter({
    deployment: {
      host: '127.0.0.1',
      port: 1,
      secure: false,
      user: undefined,
      password: undefined,
      from: 'Lookout <l@test>',
      timeoutMs: 5000,
    },
    timeoutMs: 5000,
    blockPrivate: false,
  }),
  retry: { maxAttempts: 4, baseDelayMs: 100, sleep: async (ms) => void slept.push(ms) },
  timeoutMs: 5000,
  now: () => NOW,
});

const send = async (target: Target) => {
  const attempts: [number, Attempt, boolean][] = [];
  const r = await dispatcher.send(target, message, 'a1:0:0:channel:c', async (n, res, w) => {
    attempts.push([n, res, w]);
  });
  return { r, attempts };
};

describe('webhook and Slack transports against a real receiver', () => {
  const hook = (): Target => ({
    kind: 'webhook',
    config: { url: `http://127.0.0.1:${port}/hook`, headers: { 'x-team': 'ops' } },
    signing_secret: SECRET,
  });

  it('retries a 500 and a 429, then succeeds; every attempt is signed and carries the same delivery id', async () => {
    statuses = [500, 429, 200];
    const { r, attempts } = await send(hook());
    expect(r.ok).toBe(true);
    expect(attempts.map(([n, a, w]) => [n, a.status_code, a.ok, w])).toEqual([
      [1, 500, false, true],
      [2, 429, false, true],
      [3, 200, true, false],
    ]);
    expect(received).toHaveLength(3);
    for (const x of received) {
      expect(x.verified).toBe(true);
      expect(x.headers['x-lookout-delivery']).toBe('a1:0:0:channel:c');
      expect(x.headers['x-team']).toBe('ops');
      expect(x.headers['content-type']).toBe('application/json');
      expect(JSON.parse(x.body)).toEqual(message.payload);
    }
  });

  it('does not retry a 400: it is permanent', async () => {
    statuses = [400];
    const { r, attempts } = await send(hook());
    expect(r).toMatchObject({ ok: false, permanent: true, status_code: 400 });
    expect(attempts).toHaveLength(1);
    expect(received).toHaveLength(1);
  });

  it('retries network errors up to the attempt limit', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const { r, attempts } = await send({ ...hook(), config: { url: `http://127.0.0.1:${deadPort}/` } });
    expect(r).toMatchObject({ ok: false, permanent: false, status_code: null });
    expect(attempts.map(([n, , w]) => [n, w])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, false],
    ]);
  });

  it('Slack gets {"text"} and no signature', async () => {
    const { r } = await send({ kind: 'slack', config: { url: `http://127.0.0.1:${port}/services/T/B/X` } });
    expect(r.ok).toBe(true);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toEqual({ text: '*DOWN: Home page*\nIt is down.' });
    expect(received[0]!.headers['x-lookout-signature']).toBeUndefined();
  });

  it('with the SSRF guard, a private destination is refused permanently and nothing is sent', async () => {
    const guarded = createDispatcher({
      mail: createMailRouter({
        deployment: {
          host: '127.0.0.1',
          port: 1,
          secure: false,
          user: undefined,
          password: undefined,
          from: 'l@test',
          timeoutMs: 100,
        },
        timeoutMs: 5000,
        blockPrivate: false,
      }),
      retry: { maxAttempts: 4, baseDelayMs: 100, sleep: async () => {} },
      timeoutMs: 5000,
      now: () => NOW,
      blockPrivate: true,
    });
    for (const url of [`http://127.0.0.1:${port}/hook`, `http://localhost:${port}/hook`]) {
      const attempts: Attempt[] = [];
      const target: Target = { kind: 'webhook', config: { url }, signing_secret: SECRET };
      const r = await guarded.send(target, message, 'k', async (_n, a) => void attempts.push(a));
      expect(r).toMatchObject({
        ok: false,
        permanent: true,
        error: expect.stringMatching(/is not an allowed destination/),
      });
      expect(attempts).toHaveLength(1);
    }
    expect(received).toHaveLength(0);
  });
});

describe('email against a real SMTP server', () => {
  let smtp: SMTPServer;
  let smtpPort: number;
  let mails: { raw: string; rcpt: string[] }[] = [];
  let rcptReply: { code: number; message: string } | null = null;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(_address, _session, cb) {
        if (rcptReply) {
          const err = new Error(rcptReply.message) as Error & { responseCode: number };
          err.responseCode = rcptReply.code;
          return cb(err);
        }
        cb();
      },
      onData(stream, session, cb) {
        let raw = '';
        stream.on('data', (d: Buffer) => (raw += d.toString('utf8')));
        stream.on('end', () => {
          mails.push({ raw, rcpt: session.envelope.rcptTo.map((r) => r.address) });
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
    smtpPort = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => smtp.close(() => r())));
  afterEach(() => {
    mails = [];
    rcptReply = null;
  });

  const mailer = () =>
    createDispatcher({
      mail: createMailRouter({
        deployment: {
          host: '127.0.0.1',
          port: smtpPort,
          secure: false,
          user: undefined,
          password: undefined,
          from: 'Lookout <lookout@test>',
          timeoutMs: 5000,
        },
        timeoutMs: 5000,
        blockPrivate: false,
      }),
      retry: { maxAttempts: 3, baseDelayMs: 1, sleep: async () => {} },
      timeoutMs: 5000,
      now: () => NOW,
    });

  it('delivers a mail the server parses: from, to, subject, text, delivery id header', async () => {
    const d = mailer();
    const r = await d.send(emailTarget(['oncall@example.test'], undefined), message, 'k-1', async () => {});
    expect(r.ok).toBe(true);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.rcpt).toEqual(['oncall@example.test']);
    const parsed = await simpleParser(mails[0]!.raw);
    expect(parsed.subject).toBe('DOWN: Home page');
    expect(parsed.text?.trim()).toBe('It is down.');
    expect(parsed.from?.value[0]?.address).toBe('lookout@test');
    expect(parsed.headers.get('x-lookout-delivery')).toBe('k-1');
  });

  const through = (over: Partial<SmtpSettings>) =>
    createDispatcher({
      mail: {
        route: async () => ({
          source: 'workspace',
          smtp: {
            host: '127.0.0.1',
            port: smtpPort,
            secure: false,
            user: undefined,
            password: undefined,
            from: 'l@test',
            timeoutMs: 5000,
            ...over,
          },
        }),
      },
      retry: { maxAttempts: 4, baseDelayMs: 1, sleep: async () => {} },
      timeoutMs: 5000,
      now: () => NOW,
    });

  it('no SMTP server at all: one attempt, failed for good, saying so', async () => {
    const d = createDispatcher({
      mail: createMailRouter({ deployment: null, timeoutMs: 5000, blockPrivate: false }),
      retry: { maxAttempts: 4, baseDelayMs: 1, sleep: async () => {} },
      timeoutMs: 5000,
      now: () => NOW,
    });
    const attempts: Attempt[] = [];
    const r = await d.send(emailTarget(['a@example.test'], undefined), message, null, async (_n, a) => {
      attempts.push(a);
    });
    expect(r).toEqual({ ok: false, permanent: true, status_code: null, error: NO_MAIL_TRANSPORT });
    expect(attempts).toHaveLength(1);
  });

  it('with the SSRF guard, a server on a loopback address or name is refused for good and nothing is sent', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const attempts: Attempt[] = [];
      const r = await through({ host, publicOnly: true }).send(
        emailTarget(['a@example.test'], undefined),
        message,
        null,
        async (_n, a) => void attempts.push(a),
      );
      expect(r, host).toMatchObject({
        ok: false,
        permanent: true,
        error: expect.stringMatching(/is not an allowed destination/),
      });
      expect(attempts).toHaveLength(1);
    }
    expect(mails).toHaveLength(0);
  });

  it('STARTTLS required: a server that does not offer it gets no mail', async () => {
    const r = await through({ starttls: 'required' }).send(
      emailTarget(['a@example.test'], undefined),
      message,
      null,
      async () => {},
      { maxAttempts: 1 },
    );
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/STARTTLS/);
    expect(mails).toHaveLength(0);
  });

  it('a 550 refusal is permanent (one attempt); a 451 is retried', async () => {
    const d = mailer();
    rcptReply = { code: 550, message: 'No such user' };
    const attempts: number[] = [];
    const r = await d.send(emailTarget(['nobody@example.test'], undefined), message, null, async (n) => {
      attempts.push(n);
    });
    expect(r).toMatchObject({ ok: false, permanent: true });
    expect(attempts).toEqual([1]);
    rcptReply = { code: 451, message: 'Try later' };
    attempts.length = 0;
    const r2 = await d.send(emailTarget(['busy@example.test'], undefined), message, null, async (n) => {
      attempts.push(n);
    });
    expect(r2).toMatchObject({ ok: false, permanent: false });
    expect(attempts).toEqual([1, 2, 3]);
    expect(mails).toHaveLength(0);
  });
});
