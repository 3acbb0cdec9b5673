import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { silentLogger } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPlans } from '../../control-plane/src/domain/tenancy/plans.js';
import { startControlPlane } from '../../control-plane/src/process/server.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';
import { type Harness, startHarness } from '../support/harness.js';
import { jobPassed } from '../support/job-passes.js';
import { startSmtp } from '../support/receivers.js';
import { waitFor } from '../support/wait.js';

/**
 * What a stranger can do with status pages (issue 51): mail-bomb an inbox through plus-addresses and
 * many pages, subscribe a site's visitors by a cross-site form, put words in a confirmation mail's
 * subject, confirm a subscription on another page's link, and guess a page's password from many
 * addresses. Against a real control plane, a real SMTP server and addresses by X-Forwarded-For.
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
    trust_proxy: true,
    plans: { ...defaultPlans, pair: { max_monitors: 1, min_interval_seconds: 60, max_status_pages: 2 } },
  });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

type Ws = Awaited<ReturnType<Harness['workspace']>>;

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  raw: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
});
const newPage = async (w: Ws, slug: string, extra: Record<string, unknown> = {}) => {
  const r = await w.api('POST', '/status-pages', { json: { name: slug, slug, components: [], ...extra } });
  expect(r.status, r.text).toBe(201);
  return r.body as { id: string };
};
const subscribe = (w: Ws, slug: string, email: string, headers: Record<string, string> = {}) =>
  h.request('POST', `/status/${slug}/subscribe`, { host: w.host, ...form({ email }, headers) });
/** The status-page-mail job has run a whole pass after everything done so far. */
const mailJobRan = async () => {
  h.clock.advance(1000);
  await jobPassed(h.cp.url, 'status-page-mail', h.clock.now().getTime());
};
const mailsMatching = (re: RegExp) => smtp.mails.filter((m) => m.rcpt.some((r) => re.test(r)));

describe('status page subscription abuse', () => {
  it('one mailbox gets at most 5 confirmation mails a day over plus-addresses, case, Gmail dots and pages', async () => {
    const w = await h.workspace('bomb', 'business');
    const slugs = ['b1', 'b2', 'b3', 'b4'];
    for (const s of slugs) await newPage(w, s);
    // 12 tries at one inbox: plus tags and case on every page.
    const victims = [0, 1, 2].flatMap((i) => slugs.map((s) => [s, `Victim+${s}-${i}@Example.test`]));
    for (const [slug, email] of victims) expect((await subscribe(w, slug!, email!)).status).toBe(200);
    // And a Gmail user through dots, googlemail.com and tags.
    for (const [slug, email] of [
      ['b1', 'gm.user@gmail.com'],
      ['b2', 'g.m.user@gmail.com'],
      ['b3', 'GMUser+a@googlemail.com'],
      ['b4', 'gmuser@gmail.com'],
      ['b1', 'g.muser+b@gmail.com'],
      ['b2', 'gmus.er@googlemail.com'],
    ])
      expect((await subscribe(w, slug!, email!)).status).toBe(200);
    await waitFor(
      async () => mailsMatching(/^victim\+/),
      (l) => l.length >= 5,
      { what: 'five mails to the victim' },
    );
    await mailJobRan();
    await mailJobRan();
    expect(mailsMatching(/^victim\+/)).toHaveLength(5);
    expect(mailsMatching(/gmail\.com$|googlemail\.com$/)).toHaveLength(5);
    // Another mailbox is not held back by the victim's budget.
    expect((await subscribe(w, 'b3', 'someone.else@example.test')).status).toBe(200);
    await waitFor(
      async () => mailsMatching(/^someone\.else@/),
      (l) => l.length === 1,
      { what: 'a mail to someone else' },
    );
    // A day later the mailbox may be asked once more (the form answers the same either way).
    h.clock.advance(24 * 3_600_000);
    expect((await subscribe(w, 'b1', 'victim+later@example.test')).status).toBe(200);
    await waitFor(
      async () => mailsMatching(/^victim\+/),
      (l) => l.length === 6,
      { what: 'a sixth mail the next day' },
    );
  });

  it('the mailbox budget holds across two replicas on one store', async () => {
    const store = createSqliteStore({ path: join(h.dir, 'lookout.db') });
    await store.init();
    const b = await startControlPlane({ config: h.config, store, logger: silentLogger(), clock: h.clock });
    try {
      const w = await h.workspace('twins', 'business');
      for (const s of ['t1', 't2', 't3']) await newPage(w, s);
      const onB = (slug: string, email: string) =>
        new Promise<number>((resolve, reject) => {
          const body = new URLSearchParams({ email }).toString();
          const req = httpRequest(
            {
              host: '127.0.0.1',
              port: b.port,
              method: 'POST',
              path: `/status/${slug}/subscribe`,
              headers: {
                host: w.host,
                'content-type': 'application/x-www-form-urlencoded',
                'content-length': String(body.length),
              },
            },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          req.on('error', reject);
          req.end(body);
        });
      for (let i = 0; i < 4; i++)
        for (const slug of ['t1', 't2', 't3']) {
          const email = `twin+${slug}-${i}@example.test`;
          expect(i % 2 ? (await subscribe(w, slug, email)).status : await onB(slug, email)).toBe(200);
        }
      await waitFor(
        async () => mailsMatching(/^twin\+/),
        (l) => l.length >= 5,
        { what: 'five mails to the twin' },
      );
      await mailJobRan();
      await jobPassed(b.url, 'status-page-mail', h.clock.now().getTime());
      expect(mailsMatching(/^twin\+/)).toHaveLength(5);
    } finally {
      await b.stop();
      await store.close();
    }
  });

  it('refuses cross-site subscribe posts; the page’s own form, a same-site form and curl still work', async () => {
    const w = await h.workspace('csrf');
    await newPage(w, 'news');
    const evil = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    const refused = await subscribe(w, 'news', 'visitor1@example.test', evil);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('sent from another site');
    // A browser too old for Fetch Metadata: its Origin names another host.
    expect(
      (await subscribe(w, 'news', 'visitor2@example.test', { origin: 'https://evil.example' })).status,
    ).toBe(403);
    expect((await subscribe(w, 'news', 'visitor3@example.test', { origin: 'null' })).status).toBe(403);
    // The page's own form (same origin), the operator's own site (same site), curl (neither header).
    const own = { origin: `http://${w.host}`, 'sec-fetch-site': 'same-origin' };
    expect((await subscribe(w, 'news', 'reader1@example.test', own)).status).toBe(200);
    expect(
      (await subscribe(w, 'news', 'reader2@example.test', { 'sec-fetch-site': 'same-site' })).status,
    ).toBe(200);
    expect((await subscribe(w, 'news', 'reader3@example.test', { origin: `http://${w.host}` })).status).toBe(
      200,
    );
    expect((await subscribe(w, 'news', 'reader4@example.test')).status).toBe(200);
    await waitFor(
      async () => mailsMatching(/^reader\d@example\.test$/),
      (l) => l.length === 4,
      { what: 'four readers’ mails' },
    );
    await mailJobRan();
    expect(mailsMatching(/^visitor\d@example\.test$/)).toHaveLength(0);
  });

  it('keeps the page’s name out of the confirmation mail’s subject', async () => {
    const w = await h.workspace('subject');
    await newPage(w, 'prize', { name: 'You won $1000 claim at evil.example' });
    expect((await subscribe(w, 'prize', 'mark@example.test')).status).toBe(200);
    const [mail] = await waitFor(
      async () => mailsMatching(/^mark@example\.test$/),
      (l) => l.length === 1,
      { what: 'the confirmation mail' },
    );
    expect(mail!.subject).toBe('Confirm your status page subscription');
    // The body names the page, quoted, beside its address.
    expect(mail!.text).toContain('"You won $1000 claim at evil.example" (http://subject.localhost');
  });

  it('caps status pages per plan (configuration), with 402 and an upgrade message', async () => {
    const free = await h.workspace('cap-free', 'free');
    await newPage(free, 'one');
    const over = await free.api('POST', '/status-pages', {
      json: { name: 'Two', slug: 'two', components: [] },
    });
    expect(over.status).toBe(402);
    expect(over.body.error.code).toBe('plan_limit_reached');
    expect(over.body.error.message).toMatch(/free plan allows 1 status page and .*Upgrade/);

    const pair = await h.workspace('cap-pair', 'pair');
    const a = await newPage(pair, 'a');
    await newPage(pair, 'b');
    expect((await pair.api('POST', '/status-pages', { json: { name: 'c', slug: 'c' } })).status).toBe(402);
    expect((await pair.api('DELETE', `/status-pages/${a.id}`)).status).toBe(204);
    await newPage(pair, 'c');
  });

  it('a confirmation link posted to another page’s confirm URL neither confirms nor burns it', async () => {
    const w = await h.workspace('bind');
    const a = await newPage(w, 'alpha');
    const b = await newPage(w, 'beta');
    const other = await h.workspace('bind-other');
    await newPage(other, 'gamma');
    expect((await subscribe(w, 'alpha', 'bound@example.test')).status).toBe(200);
    const [mail] = await waitFor(
      async () => mailsMatching(/^bound@example\.test$/),
      (l) => l.length === 1,
      { what: 'the confirmation mail' },
    );
    const link = new URL(/https?:\/\/\S+\/subscribe\/confirm\?token=\S+/.exec(mail!.text!)![0]);
    const token = link.searchParams.get('token')!;
    const count = async (id: string) => (await w.api('GET', `/status-pages/${id}`)).body.subscriber_count;

    const onB = await h.request('POST', '/status/beta/subscribe/confirm', {
      host: w.host,
      ...form({ token }),
    });
    expect(onB.status).toBe(404);
    const onOther = await h.request('POST', '/status/gamma/subscribe/confirm', {
      host: other.host,
      ...form({ token }),
    });
    expect(onOther.status).toBe(404);
    expect(await count(a.id)).toBe(0);
    expect(await count(b.id)).toBe(0);

    const onA = await h.request('POST', link.pathname, { host: link.host, ...form({ token }) });
    expect(onA.status, onA.text).toBe(200);
    expect(onA.text).toContain('Subscribed');
    expect(await count(a.id)).toBe(1);
  });

  it('limits wrong password guesses per page over every address, with 429 and Retry-After', async () => {
    const w = await h.workspace('guess');
    await newPage(w, 'vault', { visibility: 'password', password: 'correct horse' });
    let n = 0;
    const guess = (password: string) =>
      h.request('POST', '/status/vault/access', {
        host: w.host,
        ...form({ password }, { 'x-forwarded-for': `198.51.100.${++n}` }),
      });
    // A reader who got in before keeps reading through the attack.
    const ok = await guess('correct horse');
    expect(ok.status).toBe(303);
    const cookie = (ok.headers['set-cookie'] as string[]).map((c) => c.split(';')[0]).join('; ');

    // 40 addresses, two guesses each (well under the per-address limit of 10).
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++)
      statuses.push((await guess(`guess ${i}`)).status, (await guess(`again ${i}`)).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    // Limited, the right password cannot tell itself apart either.
    const limited = await guess('correct horse');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.text).toContain('Too many attempts');
    const inside = await h.request('GET', '/status/vault', { host: w.host, headers: { cookie } });
    expect(inside.status).toBe(200);

    // One wrong guess every 15 s after that; a right one spends nothing.
    h.clock.advance(15_000);
    expect((await guess('correct horse')).status).toBe(303);
    expect((await guess('correct horse')).status).toBe(303);
    expect((await guess('wrong')).status).toBe(401);
    expect((await guess('wrong')).status).toBe(429);
  });
});
