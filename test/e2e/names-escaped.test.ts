import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../support/harness.js';
import type { Receiver } from '../support/receivers.js';
import { startRoutingRig } from '../support/routing-rig.js';
import { waitFor } from '../support/wait.js';

/**
 * Markup in names is allowed, and shown as text in every outgoing format: a plain-text mail (no HTML
 * part), a webhook's JSON (the name exactly, as data), and Slack's text escaped as Slack asks (`&`,
 * `<`, `>`), so a name cannot mention `@channel`, make a link or inject markup. Asserted where the
 * messages arrive: a real SMTP server and real HTTP receivers on loopback ports.
 */
const NAME = '<img src=x onerror=alert(1)> & <!channel> <https://evil.test|click> "q"';
const SLACK_NAME =
  '&lt;img src=x onerror=alert(1)&gt; &amp; &lt;!channel&gt; &lt;https://evil.test|click&gt; "q"';

let h: Harness;
let rx: Receiver;
let smtp: Awaited<ReturnType<typeof startRoutingRig>>['smtp'];

let rig: Awaited<ReturnType<typeof startRoutingRig>>;
beforeAll(async () => {
  rig = await startRoutingRig();
  ({ h, rx, smtp } = rig);
});
afterAll(() => rig.close());

describe('a name with markup in every outgoing message', () => {
  let w: Awaited<ReturnType<Harness['workspace']>>;
  let channels: Record<'email' | 'webhook' | 'slack', string>;
  beforeAll(async () => {
    w = await h.workspace('escaped');
    const channel = async (type: string, config: unknown) => {
      const r = await w.api('POST', '/channels', { json: { name: NAME, type, config } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      if (type === 'webhook') rx.secret('/hook', r.body.signing_secret);
      return r.body.id as string;
    };
    channels = {
      email: await channel('email', { addresses: ['ops@escaped.test'] }),
      webhook: await channel('webhook', { url: rx.url('/hook') }),
      slack: await channel('slack', { url: rx.url('/slack') }),
    };
  });

  it('an alert titled with it: the mail, the webhook and the Slack message show it as text', async () => {
    const policy = await w.api('POST', '/escalation-policies', {
      json: { name: NAME, steps: [{ wait_minutes: 0, notify_channel_ids: Object.values(channels) }] },
    });
    expect(policy.status).toBe(201);
    const integration = await w.api('POST', '/integrations', {
      json: { name: NAME, kind: 'webhook', escalation_policy_id: policy.body.id },
    });
    const event = await h.request('POST', '/api/v1/integrations/webhook/events', {
      host: w.host,
      headers: { authorization: `Bearer ${integration.body.service_key}` },
      json: { title: NAME, description: NAME, dedup_key: 'markup' },
    });
    expect(event.status, JSON.stringify(event.body)).toBeLessThan(300);
    await waitFor(
      async () => [rx.on('/hook').length, rx.on('/slack').length, smtp.mails.length],
      ([a, b, c]) => a === 1 && b === 1 && c === 1,
      { what: 'the three notifications' },
    );

    const mail = smtp.mails[0]!;
    expect(mail.html).toBe(false);
    expect(mail.headers.get('content-type')).toMatchObject({ value: 'text/plain' });
    expect(mail.subject).toBe(`[Lookout escaped] CRITICAL: ${NAME}`);
    expect(mail.text!.split('\n').slice(0, 2)).toEqual([NAME, NAME]);

    const hook = rx.on('/hook')[0]!;
    expect(hook.verified).toBe(true);
    expect(hook.headers['content-type']).toMatch(/^application\/json/);
    expect(hook.json.alert).toMatchObject({ title: NAME, description: NAME });

    const slack = rx.on('/slack')[0]!;
    expect(slack.headers['content-type']).toMatch(/^application\/json/);
    expect(slack.json.text.split('\n').slice(0, 3)).toEqual([
      `*[Lookout escaped] CRITICAL: ${SLACK_NAME}*`,
      SLACK_NAME,
      SLACK_NAME,
    ]);
    // The only angle brackets left are Lookout's own link: the one-click acknowledge, as Slack writes links.
    const ownLink = /\n<http:\/\/escaped\.localhost:\d+\/ack\/[0-9a-f-]+\?token=[\w.-]+\|Acknowledge>$/;
    expect(slack.json.text).toMatch(ownLink);
    expect(slack.json.text.replace(ownLink, '')).not.toMatch(/[<>]/);

    // The acknowledge page names the channel the link came through, as text.
    const link = new URL(hook.json.ack_url);
    const page = await h.request('GET', link.pathname + link.search, { host: link.host });
    expect(page.status).toBe(200);
    expect(page.text).toContain('sent to &lt;img src=x onerror=alert(1)&gt; &amp; &lt;!channel&gt;');
    expect(page.text).not.toContain('<img');
  });

  it("a channel test: the channel's name is shown as text too", async () => {
    for (const id of Object.values(channels)) {
      const r = await w.api('POST', `/channels/${id}/test`);
      expect(r.body.ok, JSON.stringify(r.body)).toBe(true);
    }
    const mail = smtp.mails.at(-1)!;
    expect(mail.html).toBe(false);
    expect(mail.subject).toBe(`[Lookout escaped] Test notification for ${NAME}`);
    expect(mail.text).toContain(`to channel "${NAME}"`);
    expect(rx.on('/hook').at(-1)!.json.channel).toMatchObject({ id: channels.webhook, name: NAME });
    const slack = rx.on('/slack').at(-1)!.json.text;
    expect(slack).toBe(
      `*[Lookout escaped] Test notification for ${SLACK_NAME}*\nThis is a test notification from Lookout, sent by ${w.admin.email} to channel "${SLACK_NAME}". Nothing is wrong.`,
    );
  });
});
