import { hashSecret } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_MESSAGES } from '../../control-plane/src/domain/access/password-reset.js';
import { type Harness, type Reply, startHarness } from '../support/harness.js';
import { runCli } from '../support/processes.js';
import { startSmtp } from '../support/receivers.js';
import { waitFor } from '../support/wait.js';

/**
 * Password reset by email through a real control plane and a real SMTP server (smtp-server, the
 * deployment's LOOKOUT_SMTP_*): the mail arrives with a link that works once, for 30 minutes (the
 * harness's manual clock), ends every session of the user; an unknown address gets the same answer
 * and no mail; limits per address and per client answer 429.
 */
let h: Harness;
let limited: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  smtp = await startSmtp();
  const mail = { smtp_host: '127.0.0.1', smtp_port: smtp.port, smtp_from: 'Lookout <lookout@deploy.test>' };
  h = await startHarness({
    ...mail,
    password_reset_per_address_per_hour: 3,
    password_reset_per_client_per_hour: 0,
  });
  limited = await startHarness({
    ...mail,
    password_reset_per_address_per_hour: 0,
    password_reset_per_client_per_hour: 2,
  });
});
afterAll(async () => {
  await h?.close();
  await limited?.close();
  await smtp?.close();
});

const cookieOf = (r: Reply) => {
  const set = r.headers['set-cookie'];
  const line = (Array.isArray(set) ? set : [set ?? '']).find((c) => c.includes('lookout_session='));
  return (line ?? '').split(';')[0]!;
};

const signIn = async (host: string, email: string, password: string) => {
  const r = await h.request('POST', '/api/v1/session', { host, json: { email, password } });
  return { status: r.status, cookie: cookieOf(r) };
};

const ask = (harness: Harness, host: string, email: string) =>
  harness.request('POST', '/api/v1/password-reset', { host, json: { email } });

const confirm = (host: string, token: string, new_password: string) =>
  h.request('POST', '/api/v1/password-reset/confirm', { host, json: { token, new_password } });

const mailsTo = (address: string) => smtp.mails.filter((m) => m.rcpt.includes(address));

/** Waits for the `n`th mail to `address` and returns the token of its link. */
const linkIn = async (address: string, n = 1) => {
  const mails = await waitFor(
    async () => mailsTo(address),
    (m) => m.length >= n,
    { what: `mail ${n} to ${address}` },
  );
  const mail = mails[n - 1]!;
  const link = /(http:\/\/\S+\/reset-password\?token=[\w.-]+)/.exec(mail.text ?? '')![1]!;
  return { mail, link, token: new URL(link).searchParams.get('token')! };
};

describe('password reset by email', () => {
  it('mails a link that sets a new password once, ending every session of the user', async () => {
    const w = await h.workspace('reset-flow');
    const who = await w.userWithKey('member');
    const before = [
      await signIn(w.host, who.user.email, who.password),
      await signIn(w.host, who.user.email, who.password),
    ];
    for (const s of before) expect(s.status).toBe(201);

    const r = await ask(h, w.host, who.user.email.toUpperCase());
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ message: RESET_MESSAGES.accepted });
    const { mail, link, token } = await linkIn(who.user.email);
    expect(link.startsWith(`http://reset-flow.localhost:${h.cp.port}/reset-password?token=`)).toBe(true);
    expect(mail.subject).toContain('Reset your Lookout password');
    expect(mail.text).toContain('30 minutes');
    expect(mail.text).toContain('If you did not ask for this, ignore this email');
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.from?.text).toContain('lookout@deploy.test');
    // The store keeps only the token's hash.
    expect(await h.store.findPasswordResetByHash(token)).toBeNull();
    expect(await h.store.findPasswordResetByHash(hashSecret(token))).not.toBeNull();

    expect((await confirm(w.host, token, 'a brand new passphrase')).status).toBe(204);
    // One audit entry: the user, as actor and resource; no token or password in it.
    const [entry] = (await h.store.listAuditEntries(w.workspace.id, {}, { limit: 10 })).data.filter(
      (e) => e.action === 'user.password_reset',
    );
    expect(entry).toMatchObject({
      actor: { type: 'user', id: who.user.id, name: who.user.email },
      resource_type: 'user',
      resource_id: who.user.id,
    });
    expect(JSON.stringify(entry)).not.toContain(token);
    expect(JSON.stringify(entry)).not.toContain('a brand new passphrase');
    for (const s of before) {
      const me = await h.request('GET', '/api/v1/session', { host: w.host, headers: { cookie: s.cookie } });
      expect(me.status).toBe(401);
    }
    expect((await signIn(w.host, who.user.email, who.password)).status).toBe(401);
    expect((await signIn(w.host, who.user.email, 'a brand new passphrase')).status).toBe(201);

    // Once only.
    const again = await confirm(w.host, token, 'yet another passphrase');
    expect(again.status).toBe(422);
    expect(again.body.error.details).toEqual([{ field: 'token', message: RESET_MESSAGES.badToken }]);
    expect((await signIn(w.host, who.user.email, 'a brand new passphrase')).status).toBe(201);
  });

  it('a link expires after 30 minutes; a bad password and a bad token are named in one 422', async () => {
    const w = await h.workspace('reset-expiry');
    const who = await w.userWithKey('viewer');
    await ask(h, w.host, who.user.email);
    const { token } = await linkIn(who.user.email);
    const short = await confirm(w.host, 'lr.nothing-like-it', 'short');
    expect(short.status).toBe(422);
    expect(short.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'new_password',
      'token',
    ]);
    h.clock.advance(30 * 60_000);
    const late = await confirm(w.host, token, 'a brand new passphrase');
    expect(late.status).toBe(422);
    expect(late.body.error.details).toEqual([{ field: 'token', message: RESET_MESSAGES.badToken }]);
    expect((await signIn(w.host, who.user.email, who.password)).status).toBe(201);
  });

  it("another workspace's link is refused as any bad one", async () => {
    const a = await h.workspace('reset-a');
    const b = await h.workspace('reset-b');
    const who = await a.userWithKey('member');
    await ask(h, a.host, who.user.email);
    const { token } = await linkIn(who.user.email);
    const r = await confirm(b.host, token, 'a brand new passphrase');
    expect(r.status).toBe(422);
    expect(r.body.error.details).toEqual([{ field: 'token', message: RESET_MESSAGES.badToken }]);
    expect((await confirm(a.host, token, 'a brand new passphrase')).status).toBe(204);
  });

  it('an unknown address, or a user without a password, gets the same answer and no mail', async () => {
    const w = await h.workspace('reset-unknown');
    const invited = await w.api('POST', '/users', {
      json: { email: 'invited@reset-unknown.test', role: 'member' },
    });
    expect(invited.status).toBe(201);
    const known = await w.userWithKey('member');
    const unknown = await ask(h, w.host, 'nobody@reset-unknown.test');
    const noPassword = await ask(h, w.host, 'invited@reset-unknown.test');
    const real = await ask(h, w.host, known.user.email);
    for (const r of [unknown, noPassword, real]) {
      expect(r.status).toBe(202);
      expect(r.text).toBe(real.text);
    }
    // The known one's mail was queued last: once it is in, the others have been decided.
    await linkIn(known.user.email);
    expect(mailsTo('nobody@reset-unknown.test')).toHaveLength(0);
    expect(mailsTo('invited@reset-unknown.test')).toHaveLength(0);
  });

  it('bad input is one 422; no workspace is 404', async () => {
    const r = await h.request('POST', '/api/v1/password-reset', {
      host: 'reset-flow.localhost',
      json: { email: 'x', more: 1 },
    });
    expect(r.status).toBe(422);
    expect(r.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['email', 'more']);
    const none = await ask(h, 'no-such-ws.localhost', 'a@b.test');
    expect(none.status).toBe(404);
  });

  it('limits requests per address (known or not) with 429 and Retry-After', async () => {
    const w = await h.workspace('reset-limit');
    for (const email of ['someone@reset-limit.test', 'admin@reset-limit.test']) {
      for (let i = 0; i < 3; i++) expect((await ask(h, w.host, email)).status).toBe(202);
      const over = await ask(h, w.host, email);
      expect(over.status).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Another address is not held back.
    expect((await ask(h, w.host, 'else@reset-limit.test')).status).toBe(202);
    // Only the newest three links of a user are kept, and three mails went out.
    await waitFor(
      async () => mailsTo('admin@reset-limit.test'),
      (m) => m.length === 3,
    );
  });

  it('limits requests per client address, whatever the email', async () => {
    const w = await limited.workspace('reset-client');
    expect((await ask(limited, w.host, 'a@reset-client.test')).status).toBe(202);
    expect((await ask(limited, w.host, 'b@reset-client.test')).status).toBe(202);
    const over = await ask(limited, w.host, 'c@reset-client.test');
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limited');
  });

  it('enforced SSO turns reset off (202, no mail), but for the break-glass users it names', async () => {
    const w = await h.workspace('reset-sso');
    const plain = await w.userWithKey('member');
    const glass = await w.userWithKey('admin');
    await h.store.putSsoSettings({
      workspace_id: w.workspace.id,
      oidc: null,
      saml: null,
      enforced: true,
      break_glass_user_ids: [glass.user.id],
      updated_at: h.clock.now(),
      updated_by: w.admin.id,
    });
    const refused = await ask(h, w.host, plain.user.email);
    const allowed = await ask(h, w.host, glass.user.email);
    expect(refused.status).toBe(202);
    expect(refused.text).toBe(allowed.text);
    await linkIn(glass.user.email);
    expect(mailsTo(plain.user.email)).toHaveLength(0);
  });

  it("goes through the workspace's own SMTP server when it has one", async () => {
    const own = await startSmtp();
    try {
      const w = await h.workspace('reset-own-mail');
      const set = await w.api('PUT', '/settings/mail', {
        json: {
          host: '127.0.0.1',
          port: own.port,
          tls: 'none',
          from_address: 'Ops <ops@reset-own-mail.test>',
        },
      });
      expect(set.status, set.text).toBeLessThan(300);
      const who = await w.userWithKey('member');
      await ask(h, w.host, who.user.email);
      const mails = await waitFor(
        async () => own.mails.filter((m) => m.rcpt.includes(who.user.email)),
        (m) => m.length === 1,
      );
      expect(mails[0]!.from?.text).toContain('ops@reset-own-mail.test');
      expect(mailsTo(who.user.email)).toHaveLength(0);
    } finally {
      await own.close();
    }
  });

  it('the admin CLI prints a reset link for a lost password, without mail', async () => {
    const w = await h.workspace('reset-cli');
    const r = await runCli(
      ['user', 'reset-link', '--workspace', 'reset-cli', '--email', w.admin.email, '--json'],
      { LOOKOUT_DATA_DIR: h.dir, LOOKOUT_LOG_LEVEL: 'silent' },
    );
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.valid_minutes).toBe(30);
    const token = new URL(out.reset_url).searchParams.get('token')!;
    expect((await confirm(w.host, token, 'the admin is back in')).status).toBe(204);
    expect((await signIn(w.host, w.admin.email, 'the admin is back in')).status).toBe(201);
    expect(mailsTo(w.admin.email)).toHaveLength(0);
  });
});
