import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlert } from '../../control-plane/src/domain/alerts/alerts.js';
import type { Harness } from '../support/harness.js';
import type { Receiver } from '../support/receivers.js';
import { startRoutingRig } from '../support/routing-rig.js';
import { waitFor } from '../support/wait.js';

/**
 * One-click acknowledge through real HTTP: the link comes out of a real mail received by a real SMTP
 * server (and a real webhook and Slack receiver); opening it changes nothing, its button acknowledges
 * as the recipient, and the link works for its own alert only, and never after the alert is resolved.
 */
let rig: Awaited<ReturnType<typeof startRoutingRig>>;
let h: Harness;
let rx: Receiver;
beforeAll(async () => {
  rig = await startRoutingRig();
  ({ h, rx } = rig);
});
afterAll(() => rig.close());

type Ws = Awaited<ReturnType<Harness['workspace']>>;

const raise = (w: Ws, key: string) =>
  raiseAlert(
    h.store,
    {
      workspace_id: w.workspace.id,
      source_type: 'integration',
      source_id: 'src-1',
      cause: 'webhook',
      dedup_key: key,
      title: `Disk full (${key})`,
    },
    h.clock.now(),
  ).then((r) => r.alert);

/** The acknowledge link in the mail about `title` to `to`, as the mail carries it. */
const linkInMail = async (to: string, title: string) => {
  const mail = await waitFor(
    async () => rig.smtp.mails.find((m) => m.rcpt.includes(to) && m.subject?.includes(title)),
    (m) => m !== undefined,
    { what: `mail to ${to}` },
  );
  const url = /Acknowledge: (\S+)/.exec(mail!.text ?? '')?.[1];
  expect(url, mail!.text).toMatch(/^http:\/\/[a-z0-9-]+\.localhost:\d+\/ack\/[0-9a-f-]{36}\?token=ack\./);
  return new URL(url!);
};

const get = (u: URL) => h.request('GET', u.pathname + u.search, { host: u.host });
const post = (u: URL, token: string, headers: Record<string, string> = {}) =>
  h.request('POST', u.pathname, {
    host: u.host,
    raw: new URLSearchParams({ token }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
const tokenOf = (u: URL) => u.searchParams.get('token')!;
const statusOf = async (w: Ws, id: string) => (await w.api('GET', `/alerts/${id}`)).body;

describe('one-click acknowledge', () => {
  it('the link in a real mail: GET shows the button and changes nothing; the POST acknowledges as the recipient, by email', async () => {
    const w = await h.workspace('ack-mail');
    const alert = await raise(w, 'a1');
    const link = await linkInMail(w.admin.email, 'Disk full (a1)');

    const page = await get(link);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('Disk full (a1)');
    expect(page.text).toMatch(/<form method="post" action="\/ack\/[0-9a-f-]{36}">/);
    expect(page.text).toContain('>Acknowledge</button>');
    // A scanner following the link twice acknowledges nothing.
    await get(link);
    expect((await statusOf(w, alert.id)).status).toBe('open');

    const done = await post(link, tokenOf(link), {
      origin: `http://${link.host}`,
      'sec-fetch-site': 'same-origin',
    });
    expect(done.status).toBe(200);
    expect(done.text).toContain('<h1>Acknowledged</h1>');
    const after = await statusOf(w, alert.id);
    expect(after.status).toBe('acknowledged');
    const by = {
      type: 'link',
      user_id: w.admin.id,
      channel_id: null,
      via: 'email',
      recipient: w.admin.email,
    };
    expect(after.acknowledged_by).toEqual(by);
    expect(after.timeline.find((e: { type: string }) => e.type === 'acknowledged')).toMatchObject({ by });

    // Acknowledged already: the link says so, and pressing again changes nothing.
    const again = await get(link);
    expect(again.status).toBe(200);
    expect(again.text).toContain('Already acknowledged');
    expect(again.text).not.toContain('>Acknowledge</button>');
    expect((await post(link, tokenOf(link))).text).toContain('Already acknowledged');
  });

  it('refused: a tampered token, another alert’s token, no token, a cross-site POST; and after resolve, a replay', async () => {
    const w = await h.workspace('ack-refused');
    const a = await raise(w, 'r1');
    const b = await raise(w, 'r2');
    const linkA = await linkInMail(w.admin.email, 'Disk full (r1)');
    const linkB = await linkInMail(w.admin.email, 'Disk full (r2)');
    const tokenA = tokenOf(linkA);

    const last = tokenA.at(-1) === 'A' ? 'B' : 'A';
    const tampered = tokenA.slice(0, -1) + last;
    for (const bad of [tampered, tokenOf(linkB), '', 'ack.x']) {
      const u = new URL(linkA);
      u.searchParams.set('token', bad);
      const g = await get(u);
      expect(g.status, bad).toBe(404);
      expect(g.text).toContain('This link does not work');
      expect((await post(linkA, bad)).status, bad).toBe(404);
    }
    // Another workspace's host with a good token: not valid there either.
    const other = await h.workspace('ack-refused-other');
    expect((await h.request('GET', linkA.pathname + linkA.search, { host: other.host })).status).toBe(404);

    // A browser posting the form from another site.
    const cross = await post(linkA, tokenA, { origin: 'https://evil.example' });
    expect(cross.status).toBe(403);
    expect((await post(linkA, tokenA, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await statusOf(w, a.id)).status).toBe('open');

    // Resolved: the link is dead for good, GET and POST.
    expect((await w.api('POST', '/alerts/resolve', { json: { UUIDs: [a.id] } })).status).toBe(200);
    const replay = await post(linkA, tokenA);
    expect(replay.status).toBe(410);
    expect(replay.text).toContain('This alert is resolved');
    expect((await get(linkA)).status).toBe(410);
    const resolved = await statusOf(w, a.id);
    expect(resolved.status).toBe('resolved');
    expect(resolved.acknowledged_at).toBeNull();
    // B's own link still works for B.
    expect((await post(linkB, tokenOf(linkB))).status).toBe(200);
    expect((await statusOf(w, b.id)).status).toBe('acknowledged');
  });

  it('webhook and Slack notifications carry their own links; the timeline names the channel it came through', async () => {
    const w = await h.workspace('ack-hooks');
    const hook = await w.api('POST', '/channels', {
      json: { name: 'hook', type: 'webhook', config: { url: rx.url('/ack-hook') } },
    });
    const slack = await w.api('POST', '/channels', {
      json: { name: 'Ops chat', type: 'slack', config: { url: rx.url('/ack-slack/T0/B0/x') } },
    });
    const policy = await w.api('POST', '/escalation-policies', {
      json: {
        name: 'chat',
        steps: [{ wait_minutes: 0, notify_channel_ids: [hook.body.id, slack.body.id] }],
      },
    });
    expect(policy.status).toBe(201);
    const alert = (
      await raiseAlert(
        h.store,
        {
          workspace_id: w.workspace.id,
          source_type: 'integration',
          source_id: 'src-1',
          cause: 'webhook',
          dedup_key: 'h1',
          title: 'Queue stuck',
          escalation_policy_id: policy.body.id,
        },
        h.clock.now(),
      )
    ).alert;
    await waitFor(
      async () => rx.on('/ack-hook').length + rx.on('/ack-slack/T0/B0/x').length,
      (n) => n >= 2,
      { what: 'webhook and Slack notifications' },
    );
    const hookUrl = new URL(rx.on('/ack-hook')[0]!.json.ack_url);
    const slackUrl = new URL(/<(\S+)\|Acknowledge>/.exec(rx.on('/ack-slack/T0/B0/x')[0]!.json.text)![1]!);
    expect(tokenOf(hookUrl)).not.toBe(tokenOf(slackUrl));
    expect(hookUrl.pathname).toBe(`/ack/${alert.id}`);

    // The page and the alert name the channel by its name, never by its URL.
    expect((await get(slackUrl)).text).toContain('sent to Ops chat by slack');
    expect((await post(slackUrl, tokenOf(slackUrl))).status).toBe(200);
    const after = await statusOf(w, alert.id);
    expect(after.acknowledged_by).toEqual({
      type: 'link',
      user_id: null,
      channel_id: slack.body.id,
      via: 'slack',
      recipient: 'Ops chat',
    });
    const again = await get(slackUrl);
    expect(again.text).toContain('It was acknowledged by Ops chat (from the link sent by slack)');
    expect(again.text).not.toContain('127.0.0.1');
    // The webhook is told who acknowledged it, by name.
    await waitFor(
      async () => rx.on('/ack-hook').find((x) => x.json.event === 'alert.acknowledged'),
      (x) => x !== undefined,
      { what: 'the webhook told of the acknowledge' },
    );
    expect(rx.on('/ack-hook').find((x) => x.json.event === 'alert.acknowledged')!.json).toMatchObject({
      alert: { id: alert.id, status: 'acknowledged' },
      by: 'Ops chat (from the link in their slack notification)',
    });
  });

  it('a user removed from the workspace: their link acts no more, and their contact methods are gone', async () => {
    const w = await h.workspace('ack-removed');
    const member = await w.userWithKey('member', 'leaver@ack-removed.test');
    await w.as(member.key)('POST', '/users/me/contact-methods', {
      json: { type: 'email', address: 'leaver-phone@ack-removed.test' },
    });
    const policy = await w.api('POST', '/escalation-policies', {
      json: { name: 'both', steps: [{ wait_minutes: 0, notify_user_ids: [member.user.id, w.admin.id] }] },
    });
    await raiseAlert(
      h.store,
      {
        workspace_id: w.workspace.id,
        source_type: 'integration',
        source_id: 'src-1',
        cause: 'webhook',
        dedup_key: 'rm',
        title: 'Cache cold',
        escalation_policy_id: policy.body.id,
      },
      h.clock.now(),
    );
    const link = await linkInMail('leaver@ack-removed.test', 'Cache cold');
    expect((await get(link)).status).toBe(200);
    expect((await w.api('DELETE', `/users/${member.user.id}`)).status).toBe(200);
    expect((await get(link)).status).toBe(404);
    expect((await post(link, tokenOf(link))).status).toBe(404);
    expect(await h.store.listContactMethods(w.workspace.id, member.user.id)).toEqual([]);
  });

  it('a user demoted to viewer: the link sent before honours the role they have now', async () => {
    const w = await h.workspace('ack-demoted');
    const member = await w.userWithKey('member', 'demoted@ack-demoted.test');
    const policy = await w.api('POST', '/escalation-policies', {
      json: { name: 'member', steps: [{ wait_minutes: 0, notify_user_ids: [member.user.id] }] },
    });
    const { alert } = await raiseAlert(
      h.store,
      {
        workspace_id: w.workspace.id,
        source_type: 'integration',
        source_id: 'src-1',
        cause: 'webhook',
        dedup_key: 'demoted',
        title: 'Queue stuck',
        escalation_policy_id: policy.body.id,
      },
      h.clock.now(),
    );
    const link = await linkInMail('demoted@ack-demoted.test', 'Queue stuck');
    expect((await w.api('PATCH', `/users/${member.user.id}`, { json: { role: 'viewer' } })).status).toBe(200);
    const page = await get(link);
    expect(page.status).toBe(403);
    expect(page.text).toContain('no longer allows acknowledging');
    expect(page.text).not.toContain('>Acknowledge</button>');
    const refused = await post(link, tokenOf(link));
    expect(refused.status).toBe(403);
    expect((await statusOf(w, alert.id)).status).toBe('open');
    // Made a member again, the same link works: it was never burnt.
    expect((await w.api('PATCH', `/users/${member.user.id}`, { json: { role: 'member' } })).status).toBe(200);
    expect((await post(link, tokenOf(link))).status).toBe(200);
    expect((await statusOf(w, alert.id)).status).toBe('acknowledged');
  });
});
