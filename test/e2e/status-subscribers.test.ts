import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { jobPassed } from '../support/job-passes.js';
import { startSmtp } from '../support/receivers.js';
import { waitFor } from '../support/wait.js';

/**
 * Status page subscribers (README.md, "Status pages"): subscribe on the public page, confirm by the
 * link in a real mail, get one mail per published incident update through the real SMTP route, and
 * leave by RFC 8058 one-click. Against a real control plane and a real SMTP server.
 */

let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  h = await startHarness({
    smtp_host: '127.0.0.1',
    smtp_port: smtp.port,
    smtp_from: 'Status <status@lookout.test>',
    status_mail_poll_ms: 20,
  });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

type Mail = (typeof smtp.mails)[number];
const mailsTo = (to: string) => smtp.mails.filter((m) => m.rcpt.includes(to));
const nextMail = async (to: string, n: number) =>
  (
    await waitFor(
      async () => mailsTo(to),
      (l) => l.length >= n,
      { what: `mail #${n} to ${to}` },
    )
  )[n - 1]!;
const header = (m: Mail, name: string) =>
  m.headerLines
    .find((l) => l.key === name)
    ?.line.replace(/\r?\n[ \t]+/g, ' ')
    .replace(/^[^:]+:\s*/, '');
const linkIn = (text: string, path: string) => {
  const m = new RegExp(`https?://\\S+${path.replace('/', '\\/')}\\?token=\\S+`).exec(text);
  return new URL(m![0]);
};
const form = (fields: Record<string, string>) => ({
  raw: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
/** The status-page-mail job has run a whole pass after everything done so far. */
const mailJobRan = async () => {
  h.clock.advance(1000);
  await jobPassed(h.cp.url, 'status-page-mail', h.clock.now().getTime());
};

describe('status page subscribers', () => {
  it('subscribe, confirm by the mailed link, one mail per incident update, one-click unsubscribe', async () => {
    const w = await h.workspace('subs');
    const created = await w.api('POST', '/status-pages', {
      json: { name: 'Acme', slug: 'acme', components: [{ name: 'API' }] },
    });
    expect(created.status).toBe(201);
    const page = created.body as { id: string; components: { id: string }[] };
    const at = (path: string, opts = {}) => ({ host: w.host, ...opts, path: `/status/acme${path}` });
    const req = (method: string, o: { host: string; path: string } & Record<string, unknown>) =>
      h.request(method, o.path, o);

    // The page carries the form (works with JavaScript off: a plain POST).
    const html = await req('GET', at(''));
    expect(html.text).toContain('action="/status/acme/subscribe"');

    const sub = await req('POST', at('/subscribe', form({ email: 'Reader@Example.test' })));
    expect(sub.status, sub.text).toBe(200);
    expect(sub.text).toContain('Check your inbox');
    const confirmMail = await nextMail('reader@example.test', 1);
    expect(confirmMail.subject).toBe('Confirm your status page subscription');
    const link = linkIn(confirmMail.text!, '/subscribe/confirm');
    // Following the link only shows a button (mail scanners follow links); the button confirms.
    const shown = await h.request('GET', `${link.pathname}${link.search}`, { host: link.host });
    expect(shown.status).toBe(200);
    expect((await w.api('GET', `/status-pages/${page.id}`)).body.subscriber_count).toBe(0);
    const token = link.searchParams.get('token')!;
    const confirmed = await h.request('POST', link.pathname, { host: link.host, ...form({ token }) });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.text).toContain('Subscribed');
    // Single use.
    const again = await h.request('POST', link.pathname, { host: link.host, ...form({ token }) });
    expect(again.status).toBe(404);

    // The count for everyone; the addresses for admins only.
    const viewer = await w.userWithKey('viewer');
    expect((await w.as(viewer.key)('GET', `/status-pages/${page.id}`)).body.subscriber_count).toBe(1);
    expect((await w.as(viewer.key)('GET', `/status-pages/${page.id}/subscribers`)).status).toBe(403);
    const list = await w.api('GET', `/status-pages/${page.id}/subscribers`);
    expect(list.body.data).toMatchObject([{ email: 'reader@example.test', status: 'confirmed' }]);
    expect(JSON.stringify(list.body)).not.toMatch(/hash|sealed|token/);

    // A draft mails nobody; reported, updated and resolved each mail once.
    await w.api('POST', `/status-pages/${page.id}/incidents`, {
      json: { title: 'Secret draft', message: 'not yet', published: false },
    });
    const inc = await w.api('POST', `/status-pages/${page.id}/incidents`, {
      json: {
        title: 'API errors',
        message: 'Looking into it',
        components: { [page.components[0]!.id]: 'major_outage' },
      },
    });
    expect(inc.status).toBe(201);
    const first = await nextMail('reader@example.test', 2);
    expect(first.subject).toBe('[Acme] New incident: API errors');
    expect(first.text).toContain('Investigating: Looking into it');
    const unsubscribeUrl = /^<(.+)>$/.exec(header(first, 'list-unsubscribe')!)![1]!;
    expect(header(first, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(first.text).toContain(unsubscribeUrl);

    await w.api('POST', `/status-pages/${page.id}/incidents/${inc.body.id}/updates`, {
      json: { status: 'identified', message: 'A bad deploy' },
    });
    expect((await nextMail('reader@example.test', 3)).subject).toBe('[Acme] Update: API errors');
    await w.api('POST', `/status-pages/${page.id}/incidents/${inc.body.id}/updates`, {
      json: { status: 'resolved', message: 'Rolled back' },
    });
    const resolved = await nextMail('reader@example.test', 4);
    expect(resolved.subject).toBe('[Acme] Resolved: API errors');
    await mailJobRan();
    expect(mailsTo('reader@example.test').map((m) => m.subject)).not.toContain(
      expect.stringContaining('Secret draft'),
    );
    expect(mailsTo('reader@example.test')).toHaveLength(4);

    // RFC 8058 one-click: a POST of List-Unsubscribe=One-Click to the header's URL, no confirmation.
    const u = new URL(unsubscribeUrl);
    const out = await h.request('POST', `${u.pathname}${u.search}`, {
      host: u.host,
      ...form({ 'List-Unsubscribe': 'One-Click' }),
    });
    expect(out.status, out.text).toBe(200);
    expect((await w.api('GET', `/status-pages/${page.id}`)).body.subscriber_count).toBe(0);
    await w.api('POST', `/status-pages/${page.id}/incidents`, { json: { title: 'Later', message: 'x' } });
    await mailJobRan();
    expect(mailsTo('reader@example.test')).toHaveLength(4);
  });

  it('a subscribe flood is rate limited and mails a victim’s address at most once', async () => {
    const w = await h.workspace('flood');
    await w.api('POST', '/status-pages', { json: { name: 'Flood', slug: 'flood', components: [] } });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push(
        (
          await h.request('POST', '/status/flood/subscribe', {
            host: w.host,
            ...form({ email: 'victim@example.test' }),
          })
        ).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    await nextMail('victim@example.test', 1);
    await mailJobRan();
    expect(mailsTo('victim@example.test')).toHaveLength(1);
    await w.api('POST', '/status-pages', { json: { name: 'Other', slug: 'other', components: [] } });
    const bad = await h.request('POST', '/status/other/subscribe', {
      host: w.host,
      ...form({ email: 'nope' }),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toMatchObject([{ field: 'email' }]);
    // A protected page takes subscribers only from readers who gave its password.
    await w.api('POST', '/status-pages', {
      json: {
        name: 'Closed',
        slug: 'closed',
        visibility: 'password',
        password: 'open sesame 42',
        components: [],
      },
    });
    const closed = await h.request('POST', '/status/closed/subscribe', {
      host: w.host,
      ...form({ email: 'reader@example.test' }),
    });
    expect(closed.status).toBe(401);
  });
});
