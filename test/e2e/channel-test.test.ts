import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { type Receiver, startReceiver } from '../support/receivers.js';

/**
 * POST /channels/{id}/test sends exactly one attempt and answers with its outcome at once: a failure
 * says why and whether a real notification would be retried; nothing is retried behind it.
 */
let h: Harness;
let rx: Receiver;
/** A real SMTP server that refuses every recipient with the code queued for it (451 temporary, 550 permanent). */
let smtp: SMTPServer;
let smtpPort: number;
const rcptAttempts: string[] = [];
let rcptCode = 451;

beforeAll(async () => {
  rx = await startReceiver();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, cb) {
      rcptAttempts.push(address.address);
      cb(Object.assign(new Error('mailbox unavailable, try later'), { responseCode: rcptCode }));
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  // The configured retries are real (4 attempts, 1 s apart): the test must not use them.
  h = await startHarness({
    notify_max_attempts: 4,
    notify_retry_base_ms: 1000,
    smtp_host: '127.0.0.1',
    smtp_port: smtpPort,
  });
});
afterAll(async () => {
  await h.close();
  await rx.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

describe('POST /channels/{id}/test', () => {
  it('a webhook answering 500: one attempt arrives; the reply says failed, why, and that it would be retried', async () => {
    const w = await h.workspace('chtest-hook');
    const ch = await w.api('POST', '/channels', {
      json: { name: 'hook', type: 'webhook', config: { url: rx.url('/down') } },
    });
    expect(ch.status).toBe(201);
    rx.reply('/down', 500, 500, 500, 500, 500);
    const r = await w.api('POST', `/channels/${ch.body.id}/test`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ok: false,
      outcome: 'failed',
      status_code: 500,
      would_retry: true,
    });
    expect(r.body.error).toMatch(/^HTTP 500/);
    expect(r.body.attempts).toHaveLength(1);
    expect(r.body.attempts[0]).toMatchObject({ attempt: 1, outcome: 'failed', status_code: 500, test: true });
    expect(rx.on('/down')).toHaveLength(1);
    // The delivery log holds that one attempt, and nothing follows it.
    const log = await w.api('GET', `/channels/${ch.body.id}/deliveries`);
    expect(log.body.data.map((d: { outcome: string }) => d.outcome)).toEqual(['failed']);
  });

  it('a webhook answering 400: failed, would not be retried; a 200: ok', async () => {
    const w = await h.workspace('chtest-perm');
    const ch = await w.api('POST', '/channels', {
      json: { name: 'hook', type: 'webhook', config: { url: rx.url('/bad') } },
    });
    rx.reply('/bad', 400);
    const r = await w.api('POST', `/channels/${ch.body.id}/test`);
    expect(r.body).toMatchObject({ ok: false, outcome: 'failed', status_code: 400, would_retry: false });
    const ok = await w.api('POST', `/channels/${ch.body.id}/test`);
    expect(ok.body).toMatchObject({
      ok: true,
      outcome: 'sent',
      status_code: 200,
      error: null,
      would_retry: false,
    });
    expect(rx.on('/bad')).toHaveLength(2);
  });

  it('an SMTP server refusing the recipient: one attempt; 451 would be retried, 550 would not', async () => {
    const w = await h.workspace('chtest-mail');
    const ch = await w.api('POST', '/channels', {
      json: { name: 'ops mail', type: 'email', config: { addresses: ['ops@chtest.test'] } },
    });
    rcptCode = 451;
    const before = rcptAttempts.length;
    const temp = await w.api('POST', `/channels/${ch.body.id}/test`);
    expect(temp.body).toMatchObject({ ok: false, outcome: 'failed', would_retry: true });
    expect(temp.body.error).toContain('mailbox unavailable');
    expect(rcptAttempts.length - before).toBe(1);

    rcptCode = 550;
    const perm = await w.api('POST', `/channels/${ch.body.id}/test`);
    expect(perm.body).toMatchObject({ ok: false, outcome: 'failed', would_retry: false });
    expect(rcptAttempts.length - before).toBe(2);
  });
});
