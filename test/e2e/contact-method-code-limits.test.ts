import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../control-plane/src/config.js';
import { createNamedKey } from '../../control-plane/src/domain/access/api-keys.js';
import { CODE_LIMITS } from '../../control-plane/src/domain/contacts/code-limits.js';
import { createUser, createWorkspace } from '../../control-plane/src/domain/tenancy/workspaces.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';
import { startClockedControlPlane } from '../support/clocked-control-plane.js';
import { type Harness, startHarness } from '../support/harness.js';
import { exited } from '../support/processes.js';
import { startSmtp } from '../support/receivers.js';
import { startService } from '../support/service-double.js';

/**
 * Verification codes cannot be used to flood a phone or a mailbox, through the real API: deleting a
 * method and adding it again, spelling the address another way, or asking from another user or
 * workspace does not reset the count; limits hold per destination, per user and per workspace, each
 * per hour and per day. Codes go over a real SMTP server and a Twilio double on loopback.
 */

let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let twilio: Awaited<ReturnType<typeof startService>>;

beforeAll(async () => {
  smtp = await startSmtp();
  twilio = await startService((r) => ({
    status: 201,
    body: { sid: 'SM1234567890abcdef1234567890abcdef', status: 'queued', to: r.form.get('To') },
  }));
  h = await startHarness({
    smtp_host: '127.0.0.1',
    smtp_port: smtp.port,
    smtp_from: 'Lookout <alerts@lookout.test>',
    twilio_account_sid: `AC${'0123456789abcdef'.repeat(2)}`,
    twilio_auth_token: 'twilio-auth-token-1234',
    twilio_from: '+14155550100',
    twilio_api_url: twilio.base,
  });
});
afterAll(async () => {
  await h?.close();
  await smtp?.close();
  await twilio?.close();
});

const BASE = '/users/me/contact-methods';
type As = ReturnType<Awaited<ReturnType<Harness['workspace']>>['as']>;

/** Adds the method, asks for a code, removes the method again (the attack); returns the code answer. */
const addAskRemove = async (me: As, body: Record<string, unknown>) => {
  const created = await me('POST', BASE, { json: body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await me('POST', `${BASE}/${created.body.id}/send-code`);
  expect((await me('DELETE', `${BASE}/${created.body.id}`)).status).toBe(204);
  return sent;
};

const mailsTo = (mailbox: RegExp) => smtp.mails.filter((m) => m.rcpt.some((r) => mailbox.test(r))).length;
const smsTo = (phone: string) => twilio.requests.filter((r) => r.form.get('To') === phone).length;

describe('verification code limits', () => {
  it('per phone number: deleting and re-adding the method, from other users and workspaces, sends no more than the limit', async () => {
    const phone = '+14155550199';
    const w = await h.workspace('codes-sms');
    const viewer = await w.userWithKey('viewer');
    const perHour = CODE_LIMITS.destination.hour;
    for (let i = 0; i < perHour; i++) {
      const sent = await addAskRemove(w.as(viewer.key), { type: 'sms', phone });
      expect(sent.status).toBe(200);
      expect(sent.body.sent).toBe(true);
    }
    const refused = await addAskRemove(w.as(viewer.key), { type: 'sms', phone });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.body.error.message).toMatch(/to this destination/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another user, and a user of another workspace, are refused for the same number too.
    const member = await w.userWithKey('member');
    expect((await addAskRemove(w.as(member.key), { type: 'sms', phone })).status).toBe(429);
    const other = await h.workspace('codes-sms-other');
    expect((await addAskRemove(other.api, { type: 'sms', phone })).status).toBe(429);
    expect(smsTo(phone)).toBe(perHour);
  });

  it('per mailbox, however the address is spelled (case, +tags, Gmail dots), and per day across hours', async () => {
    const w = await h.workspace('codes-mail');
    const viewer = await w.userWithKey('viewer');
    const me = w.as(viewer.key);
    const spellings = ['Victim.Name@gmail.com', 'victimname+1@gmail.com', 'VICTIM.NAME+x@googlemail.com'];
    const start = h.clock.now().getTime();
    const hourStart = Math.floor(start / 3_600_000) * 3_600_000;
    let sent = 0;
    // Hour after hour, the hourly allowance, until the day's is used up.
    for (let hour = 0; sent < CODE_LIMITS.destination.day; hour++) {
      h.clock.set(new Date(hourStart + hour * 3_600_000 + 60_000));
      for (let i = 0; i < CODE_LIMITS.destination.hour && sent < CODE_LIMITS.destination.day; i++) {
        const r = await addAskRemove(me, {
          type: 'email',
          address: spellings[(sent + i) % spellings.length]!,
        });
        expect(r.status, `code ${sent + 1}`).toBe(200);
        sent++;
      }
      if (sent < CODE_LIMITS.destination.day) {
        // The hour's allowance is used up, whatever the spelling.
        const refused = await addAskRemove(me, { type: 'email', address: 'victimname+again@gmail.com' });
        expect(refused.status).toBe(429);
        expect(refused.body.error.message).toMatch(/per hour/);
      }
    }
    // The next hour: still refused, by the day's limit.
    h.clock.set(new Date(h.clock.now().getTime() + 3_600_000));
    const refused = await addAskRemove(me, { type: 'email', address: 'victim.name@gmail.com' });
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/to this destination \(at most 10 per day\)/);
    expect(mailsTo(/^victim/i)).toBe(CODE_LIMITS.destination.day);
  });

  it('per user and per workspace, over distinct destinations; a new hour allows codes again', async () => {
    const w = await h.workspace('codes-scope');
    const first = await w.userWithKey('viewer');
    const n = (i: number) => `spread-${i}@codes-scope.test`;
    let i = 0;
    for (let k = 0; k < CODE_LIMITS.user.hour; k++)
      expect((await addAskRemove(w.as(first.key), { type: 'email', address: n(i++) })).status).toBe(200);
    const byUser = await addAskRemove(w.as(first.key), { type: 'email', address: n(i++) });
    expect(byUser.status).toBe(429);
    expect(byUser.body.error.message).toMatch(/by you/);

    // Other users of the workspace, each within their own limit, until the workspace's is used up.
    let sent = CODE_LIMITS.user.hour;
    while (sent < CODE_LIMITS.workspace.hour) {
      const u = await w.userWithKey('member');
      for (let k = 0; k < CODE_LIMITS.user.hour && sent < CODE_LIMITS.workspace.hour; k++, sent++)
        expect((await addAskRemove(w.as(u.key), { type: 'email', address: n(i++) })).status).toBe(200);
    }
    const fresh = await w.userWithKey('member');
    const byWorkspace = await addAskRemove(w.as(fresh.key), { type: 'email', address: n(i++) });
    expect(byWorkspace.status).toBe(429);
    expect(byWorkspace.body.error.message).toMatch(/in this workspace/);
    // Another workspace is not held back by this one.
    const other = await h.workspace('codes-scope-other');
    expect(
      (await addAskRemove(other.api, { type: 'email', address: 'someone@codes-scope-other.test' })).status,
    ).toBe(200);
    // The next hour, codes can be sent again.
    h.clock.set(new Date(Math.ceil(h.clock.now().getTime() / 3_600_000) * 3_600_000 + 1000));
    expect((await addAskRemove(w.as(fresh.key), { type: 'email', address: n(i++) })).status).toBe(200);
  });
});

/** One API call to a control-plane process on `port`, as `key`, on the workspace's host. */
const call = (port: number, host: string, key: string, method: string, path: string, json?: unknown) =>
  new Promise<{ status: number; body: { id?: string } }>((resolve, reject) => {
    const payload = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `/api/v1${path}`,
        headers: {
          host,
          'x-api-key': key,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': String(payload.length) }
            : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });

describe('verification code limits with two control-plane processes on one SQLite file', () => {
  it('codes asked for at once through both replicas: exactly the limit is sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lookout-codes-replicas-'));
    const start = Date.parse('2026-06-01T12:00:00Z');
    const children: ChildProcess[] = [];
    const store = createSqliteStore({ path: join(dir, 'lookout.db') });
    const phone = '+14155550177';
    try {
      await store.init();
      const env = {
        LOOKOUT_TWILIO_ACCOUNT_SID: `AC${'0123456789abcdef'.repeat(2)}`,
        LOOKOUT_TWILIO_AUTH_TOKEN: 'twilio-auth-token-1234',
        LOOKOUT_TWILIO_FROM: '+14155550100',
        LOOKOUT_TWILIO_API_URL: twilio.base,
      };
      const replicas = [
        await startClockedControlPlane({ data: dir, clockStart: start, children, env }),
        await startClockedControlPlane({ data: dir, clockStart: start, children, env }),
      ];
      const { workspace } = await createWorkspace(
        store,
        loadConfig({}, {}).plans,
        { subdomain: 'codes-replicas', admin_email: 'a@codes-replicas.test', plan: 'team' },
        new Date(start),
      );
      const host = 'codes-replicas.localhost';
      // Users, each within their own limit, each with a method for the same phone.
      const asked: { port: number; key: string; id: string }[] = [];
      for (let i = 0; i < 8; i++) {
        const { user } = await createUser(
          store,
          workspace,
          { email: `u${i}@codes-replicas.test`, role: 'viewer' },
          new Date(start),
        );
        const key = (
          await createNamedKey(store, workspace, user, { name: 'k', expiry: 'none' }, new Date(start))
        ).value;
        const port = replicas[i % 2]!.port;
        const created = await call(port, host, key, 'POST', BASE, { type: 'sms', phone });
        expect(created.status).toBe(201);
        asked.push({ port, key, id: created.body.id! });
      }
      const before = smsTo(phone);
      const answers = await Promise.all(
        asked.map((a) => call(a.port, host, a.key, 'POST', `${BASE}/${a.id}/send-code`)),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([
        ...Array(CODE_LIMITS.destination.hour).fill(200),
        ...Array(8 - CODE_LIMITS.destination.hour).fill(429),
      ]);
      expect(smsTo(phone) - before).toBe(CODE_LIMITS.destination.hour);
    } finally {
      for (const c of children) {
        if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
        await exited(c);
      }
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
