import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createSecretBox } from '@lookout/shared';
import Database from 'better-sqlite3';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlert } from '../../control-plane/src/domain/alerts/alerts.js';
import { passwordContext } from '../../control-plane/src/domain/notifications/mail-settings.js';
import { type Harness, startHarness } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * Mail transport: with no SMTP server anywhere, alert email fails at once, saying so; a workspace's
 * admins set its own server (Settings → Mail), with a write-only password, a Send test, and its alert
 * email going through it; the deployment's server stays the default for the others. Real SMTP
 * servers (smtp-server, mail parsed by mailparser) on loopback ports, a real control plane.
 */

/** A real SMTP server that wants a login (when `logins` is set) and records every login and mail. */
const startSmtp = async (logins?: Record<string, string>) => {
  const mails: (ParsedMail & { rcpt: string[]; user: string | undefined })[] = [];
  const attempts: { username: string; password: string }[] = [];
  const server = new SMTPServer({
    authOptional: !logins,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      attempts.push({ username: auth.username ?? '', password: auth.password ?? '' });
      if (logins && logins[auth.username ?? ''] === auth.password) return cb(null, { user: auth.username });
      cb(Object.assign(new Error('Authentication failed'), { responseCode: 535 }));
    },
    onData(stream, session, cb) {
      simpleParser(stream)
        .then((m) => {
          mails.push(
            Object.assign(m, {
              rcpt: session.envelope.rcptTo.map((r) => r.address),
              user: session.user as string | undefined,
            }),
          );
          cb();
        })
        .catch(cb);
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.server.address() as AddressInfo).port,
    mails,
    attempts,
    to: (address: string) => mails.filter((m) => m.rcpt.includes(address)),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
};
type Smtp = Awaited<ReturnType<typeof startSmtp>>;

const KEY = randomBytes(32).toString('base64');
const PASSWORD = 'smtp-pass-7f3a9c';

/** No deployment SMTP server: only workspaces' own. */
let bare: Harness;
/** A deployment SMTP server (LOOKOUT_SMTP_*) as everyone's default. */
let deployed: Harness;
/** The SSRF guard on (the default: LOOKOUT_NOTIFY_ALLOW_PRIVATE unset). */
let guarded: Harness;
let own: Smtp;
let deployment: Smtp;

beforeAll(async () => {
  own = await startSmtp({ alerts: PASSWORD });
  deployment = await startSmtp();
  // Real retries (4 attempts) with a short base, so a wrongly retried failure would show.
  const common = { escalation_poll_ms: 20, notify_retry_base_ms: 5, notify_max_attempts: 4 };
  bare = await startHarness({ ...common, encryption_key: KEY });
  deployed = await startHarness({
    ...common,
    smtp_host: '127.0.0.1',
    smtp_port: deployment.port,
    smtp_from: 'Lookout <lookout@deploy.test>',
  });
  guarded = await startHarness({ ...common, notify_allow_private: false });
});
afterAll(async () => {
  await bare?.close();
  await deployed?.close();
  await guarded?.close();
  await own?.close();
  await deployment?.close();
});

type Ws = Awaited<ReturnType<Harness['workspace']>>;

const ownSettings = (over: Record<string, unknown> = {}) => ({
  host: '127.0.0.1',
  port: own.port,
  tls: 'none',
  username: 'alerts',
  password: PASSWORD,
  from_address: 'Acme Alerts <alerts@acme.test>',
  ...over,
});

/** Raises an alert on the workspace's default policy (notify the admin by email at once) and waits until that step ran. */
const alertAndEscalate = async (h: Harness, w: Ws, key: string) => {
  const { alert } = await raiseAlert(
    h.store,
    {
      workspace_id: w.workspace.id,
      source_type: 'integration',
      source_id: 'src-1',
      cause: 'webhook',
      dedup_key: key,
      title: `Disk full (${key})`,
      escalation_policy_id: null,
    },
    h.clock.now(),
  );
  await waitFor(
    async () => (await h.store.getAlert(w.workspace.id, alert.id))?.escalation?.finished,
    (finished) => finished === true,
    { what: `the escalation of ${key} to finish` },
  );
  const detail = await w.api('GET', `/alerts/${alert.id}`);
  return detail.body.timeline.filter((e: { type: string }) => e.type === 'notification');
};

describe('no mail transport anywhere', () => {
  it('an alert email fails at once, once, saying no transport is configured (no retries against localhost:25)', async () => {
    const w = await bare.workspace('mail-none');
    const sent = await alertAndEscalate(bare, w, 'none');
    expect(sent).toEqual([
      expect.objectContaining({
        via: 'email',
        to: w.admin.email,
        attempt: 1,
        outcome: 'failed',
        error: expect.stringMatching(/^No mail transport configured: .*Settings → Mail/),
      }),
    ]);
  });

  it('the settings say so, and Send test too, and that it would not be retried', async () => {
    const w = await bare.workspace('mail-none-test');
    expect((await w.api('GET', '/settings/mail')).body).toEqual({
      transport: 'none',
      deployment_transport: false,
      settings: null,
    });
    const r = await w.api('POST', '/settings/mail/test');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ok: false,
      outcome: 'failed',
      transport: 'none',
      to: w.admin.email,
      status_code: null,
      would_retry: false,
      error: expect.stringMatching(/No mail transport configured/),
    });
  });
});

describe('a workspace’s own SMTP server', () => {
  it('admins save it; the password is write-only, sealed in the store, and used to log in for Send test and alert email', async () => {
    const w = await bare.workspace('mail-own');
    const put = await w.api('PUT', '/settings/mail', { json: ownSettings() });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({
      transport: 'workspace',
      deployment_transport: false,
      settings: {
        host: '127.0.0.1',
        port: own.port,
        tls: 'none',
        username: 'alerts',
        password_set: true,
        from_address: 'Acme Alerts <alerts@acme.test>',
        updated_at: bare.clock.now().toISOString(),
      },
    });
    const got = await w.api('GET', '/settings/mail');
    expect(got.body).toEqual(put.body);
    expect(put.text + got.text).not.toContain(PASSWORD);
    // At rest: AES-256-GCM under the deployment's key, never the clear text.
    const db = new Database(join(bare.dir, 'lookout.db'), { readonly: true });
    const row = db.prepare('SELECT * FROM mail_settings WHERE workspace_id = ?').get(w.workspace.id) as {
      password_sealed: string;
    };
    db.close();
    expect(row.password_sealed).toMatch(/^aes256gcm:/);
    expect(JSON.stringify(row)).not.toContain(PASSWORD);

    const test = await w.api('POST', '/settings/mail/test');
    expect(test.body).toMatchObject({
      ok: true,
      outcome: 'sent',
      transport: 'workspace',
      to: w.admin.email,
      error: null,
    });
    const mail = own.to(w.admin.email).at(-1)!;
    expect(mail.subject).toBe('[Lookout mail-own] Test email');
    expect(mail.from?.value[0]).toMatchObject({ name: 'Acme Alerts', address: 'alerts@acme.test' });
    expect(mail.user).toBe('alerts');
    const elsewhere = await w.api('POST', '/settings/mail/test', { json: { to: 'ops@acme.test' } });
    expect(elsewhere.body).toMatchObject({ ok: true, to: 'ops@acme.test' });
    expect(own.to('ops@acme.test')).toHaveLength(1);

    const sent = await alertAndEscalate(bare, w, 'own');
    expect(sent).toEqual([expect.objectContaining({ to: w.admin.email, attempt: 1, outcome: 'sent' })]);
    const alertMail = own.to(w.admin.email).at(-1)!;
    expect(alertMail.subject).toBe('[Lookout mail-own] CRITICAL: Disk full (own)');
    expect(alertMail.user).toBe('alerts');
  });

  it('saving without the password keeps it, but not for another host or username; null removes it; a refused login is reported', async () => {
    const w = await bare.workspace('mail-keep');
    expect((await w.api('PUT', '/settings/mail', { json: ownSettings() })).status).toBe(200);
    const { password: _p, ...withoutPassword } = ownSettings({ from_address: 'alerts@acme.test' });
    const kept = await w.api('PUT', '/settings/mail', { json: withoutPassword });
    expect(kept.body.settings).toMatchObject({ password_set: true, from_address: 'alerts@acme.test' });
    expect((await w.api('POST', '/settings/mail/test')).body.ok).toBe(true);

    for (const change of [{ host: 'localhost' }, { username: 'someone-else' }]) {
      const moved = await w.api('PUT', '/settings/mail', { json: { ...withoutPassword, ...change } });
      expect(moved.status, JSON.stringify(change)).toBe(422);
      expect(moved.body.error.details).toEqual([
        { field: 'password', message: expect.stringMatching(/^enter the password again/) },
      ]);
    }

    const wrong = await w.api('PUT', '/settings/mail', { json: ownSettings({ password: 'not-it' }) });
    expect(wrong.status).toBe(200);
    const refused = await w.api('POST', '/settings/mail/test');
    expect(refused.body).toMatchObject({
      ok: false,
      outcome: 'failed',
      status_code: 535,
      would_retry: false,
    });
    expect(own.attempts.at(-1)).toEqual({ username: 'alerts', password: 'not-it' });

    const cleared = await w.api('PUT', '/settings/mail', { json: ownSettings({ password: null }) });
    expect(cleared.body.settings.password_set).toBe(false);
    const noUser = await w.api('PUT', '/settings/mail', {
      json: ownSettings({ username: null, password: undefined }),
    });
    expect(noUser.body.settings).toMatchObject({ username: null, password_set: false });
  });

  it('a password sealed under another key does not open: email fails for good, saying to enter it again', async () => {
    const w = await bare.workspace('mail-rekey');
    await w.api('PUT', '/settings/mail', { json: ownSettings() });
    const stored = (await bare.store.getMailSettings(w.workspace.id))!;
    const otherKey = createSecretBox(randomBytes(32).toString('base64'));
    await bare.store.putMailSettings({
      ...stored,
      password_sealed: otherKey.seal(PASSWORD, passwordContext(w.workspace.id)),
    });
    const r = await w.api('POST', '/settings/mail/test');
    expect(r.body).toMatchObject({
      ok: false,
      would_retry: false,
      error: expect.stringMatching(/password cannot be read: .*LOOKOUT_ENCRYPTION_KEY.*enters it again/),
    });
    expect(r.text).not.toContain(PASSWORD);
  });

  it('bad input: 422 naming every bad field; a password needs a username; unknown fields refused', async () => {
    const w = await bare.workspace('mail-bad');
    const bad = await w.api('PUT', '/settings/mail', {
      json: {
        host: 'smtp://mail.example.com:25',
        port: 70000,
        tls: 'ssl',
        password: 'x',
        from_address: 'Lookout',
        relay: true,
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
      ['from_address', 'host', 'password', 'port', 'relay', 'tls'].sort(),
    );
    const missing = await w.api('PUT', '/settings/mail', { json: {} });
    expect(missing.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
      ['from_address', 'host', 'port', 'tls'].sort(),
    );
    const injected = await w.api('PUT', '/settings/mail', {
      json: ownSettings({ from_address: 'a@b.test\r\nBcc: all@x.test', username: 'a\nb' }),
    });
    expect(injected.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'from_address',
      'username',
    ]);
    const badTo = await w.api('POST', '/settings/mail/test', { json: { to: 'not an address' } });
    expect(badTo.status).toBe(422);
    expect(badTo.body.error.details.map((d: { field: string }) => d.field)).toEqual(['to']);
    expect((await w.api('GET', '/settings/mail')).body.settings).toBeNull();
  });

  it('admins only: members and viewers get 403 on every mail endpoint; another workspace sees none of it', async () => {
    const w = await bare.workspace('mail-roles');
    const other = await bare.workspace('mail-roles-other');
    await w.api('PUT', '/settings/mail', { json: ownSettings() });
    for (const role of ['member', 'viewer'] as const) {
      const u = await w.userWithKey(role);
      const as = w.as(u.key);
      for (const [method, path, json] of [
        ['GET', '/settings/mail', undefined],
        ['PUT', '/settings/mail', ownSettings()],
        ['DELETE', '/settings/mail', undefined],
        ['POST', '/settings/mail/test', {}],
      ] as const) {
        const r = await as(method, path, json === undefined ? {} : { json });
        expect(r.status, `${role} ${method} ${path}`).toBe(403);
      }
    }
    expect((await other.api('GET', '/settings/mail')).body.transport).toBe('none');
    expect((await w.api('GET', '/settings/mail')).body.transport).toBe('workspace');
  });

  it('DELETE removes them: 204, and the workspace has no transport again', async () => {
    const w = await bare.workspace('mail-delete');
    await w.api('PUT', '/settings/mail', { json: ownSettings() });
    expect((await w.api('DELETE', '/settings/mail')).status).toBe(204);
    expect((await w.api('GET', '/settings/mail')).body).toMatchObject({ transport: 'none', settings: null });
    expect((await w.api('DELETE', '/settings/mail')).status).toBe(204);
  });
});

describe('with a deployment SMTP server', () => {
  it('workspaces without their own use it; one with its own uses its own', async () => {
    const plain = await deployed.workspace('mail-dep');
    const mine = await deployed.workspace('mail-dep-own');
    expect((await plain.api('GET', '/settings/mail')).body).toMatchObject({
      transport: 'deployment',
      deployment_transport: true,
    });
    await mine.api('PUT', '/settings/mail', { json: ownSettings() });
    expect((await alertAndEscalate(deployed, plain, 'dep'))[0]).toMatchObject({ outcome: 'sent' });
    expect((await alertAndEscalate(deployed, mine, 'dep-own'))[0]).toMatchObject({ outcome: 'sent' });
    expect(deployment.to(plain.admin.email)).toHaveLength(1);
    expect(deployment.to(plain.admin.email)[0]!.from?.value[0]?.address).toBe('lookout@deploy.test');
    expect(deployment.to(mine.admin.email)).toHaveLength(0);
    expect(own.to(mine.admin.email)).toHaveLength(1);
    const test = await plain.api('POST', '/settings/mail/test');
    expect(test.body).toMatchObject({ ok: true, transport: 'deployment' });
  });
});

describe('with the SSRF guard on', () => {
  it('a workspace’s SMTP host on a loopback or private address is refused permanently, and nothing is sent', async () => {
    const w = await guarded.workspace('mail-guard');
    const before = own.mails.length;
    for (const host of ['127.0.0.1', 'localhost']) {
      await w.api('PUT', '/settings/mail', { json: ownSettings({ host }) });
      const r = await w.api('POST', '/settings/mail/test');
      expect(r.body, host).toMatchObject({
        ok: false,
        would_retry: false,
        error: expect.stringMatching(/is not an allowed destination/),
      });
    }
    expect(own.mails.length).toBe(before);
  });
});
