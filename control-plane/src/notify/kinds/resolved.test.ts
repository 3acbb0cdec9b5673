import { describe, expect, it } from 'vitest';
import { messages } from '../../../../test/support/service-double.js';
import { NOTIFIERS } from './index.js';

/**
 * The recovery notice of every kind, as the service receives it: it says the alert resolved, how long
 * it lasted (4m 12s in the fixture), who resolved it, and links back to the monitor and the alert.
 * PagerDuty and Opsgenie use their own resolve (same dedup key / alias).
 */
const id = messages.alert.id;
const HEAD = 'RESOLVED after 4m 12s: Home page is down';
const TEXT = [
  'Resolved by Lookout (it recovered) at 2026-06-01 12:03 UTC. It lasted 4m 12s (raised 2026-06-01 11:59 UTC).',
  'Monitor “Home page”: https://acme.lookout.test/monitors/m-1',
  `Open in Lookout: https://acme.lookout.test/alerts/${id}`,
].join('\n');

const cases: [kind: string, config: Record<string, unknown>, expected: unknown][] = [
  [
    'email',
    { addresses: ['ops@acme.test'] },
    { to: ['ops@acme.test'], subject: `[Lookout acme] ${HEAD}`, text: TEXT },
  ],
  [
    'webhook',
    { url: 'http://127.0.0.1:9/hook' },
    {
      event: 'alert.resolved',
      delivery_id: 'k-res',
      sent_at: '2026-06-01T12:03:12.000Z',
      workspace: 'acme',
      alert: {
        id,
        title: 'Home page is down',
        description: 'HTTP 503 from eu-west and us-east',
        severity: 'critical',
        status: 'resolved',
        source_type: 'monitor',
        source_id: 'm-1',
        source_name: 'Monitor “Home page”',
        cause: 'down',
        dedup_key: '',
        created_at: '2026-06-01T11:59:00.000Z',
        url: `https://acme.lookout.test/alerts/${id}`,
        acknowledged_at: null,
        resolved_at: '2026-06-01T12:03:12.000Z',
        duration_seconds: 252,
      },
      by: 'Lookout (it recovered)',
    },
  ],
  ['slack', { url: 'http://127.0.0.1:9/slack' }, { text: `*[Lookout acme] ${HEAD}*\n${TEXT}` }],
  ['mattermost', { webhook_url: 'http://127.0.0.1:9/mm' }, { text: `#### ${HEAD}\n${TEXT}` }],
  [
    'google_chat',
    { webhook_url: 'http://127.0.0.1:9/chat?key=k&token=t' },
    { text: `*${HEAD}*\n${TEXT}`, thread: { threadKey: `lookout-${id}` } },
  ],
  [
    'discord',
    { webhook_url: 'http://127.0.0.1:9/discord' },
    {
      username: 'Lookout',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: HEAD,
          description: TEXT,
          color: 0x30a46c,
          timestamp: '2026-06-01T11:59:00.000Z',
          footer: { text: 'Lookout acme' },
        },
      ],
    },
  ],
  [
    'telegram',
    { bot_token: '123:abc', chat_id: '42', api_url: 'http://127.0.0.1:9' },
    { chat_id: '42', text: `[Lookout acme] ${HEAD}\n\n${TEXT}`, link_preview_options: { is_disabled: true } },
  ],
  [
    'matrix',
    { homeserver_url: 'http://127.0.0.1:9', access_token: 'syt_x', room_id: '!r:x.test' },
    {
      msgtype: 'm.notice',
      body: `${HEAD}\n${TEXT}`,
      format: 'org.matrix.custom.html',
      formatted_body: `<strong>${HEAD}</strong><br>${TEXT.replaceAll('\n', '<br>')}`,
    },
  ],
  [
    'ntfy',
    { server_url: 'http://127.0.0.1:9', topic: 'ops' },
    { topic: 'ops', title: HEAD, message: TEXT, priority: 3, tags: ['white_check_mark'] },
  ],
  [
    'gotify',
    { server_url: 'http://127.0.0.1:9', app_token: 'Atok' },
    { title: HEAD, message: TEXT, priority: 2 },
  ],
  [
    'pushover',
    { user_key: 'u'.repeat(30), app_token: 'a'.repeat(30), api_url: 'http://127.0.0.1:9' },
    { token: 'a'.repeat(30), user: 'u'.repeat(30), title: HEAD, message: TEXT, priority: -1 },
  ],
  [
    'pagerduty',
    { routing_key: 'R0UT1NGKEY0123456789abcdefABCDEF', api_url: 'http://127.0.0.1:9' },
    { routing_key: 'R0UT1NGKEY0123456789abcdefABCDEF', event_action: 'resolve', dedup_key: id },
  ],
  ['opsgenie', { api_key: 'k', api_url: 'http://127.0.0.1:9' }, { source: 'Lookout', note: HEAD }],
  [
    'twilio_sms',
    {
      account_sid: `AC${'0'.repeat(32)}`,
      auth_token: 't',
      from: '+15550000000',
      to: ['+15551111111'],
      api_url: 'http://127.0.0.1:9',
    },
    { To: '+15551111111', From: '+15550000000', Body: `${HEAD}\nhttps://acme.lookout.test/alerts/${id}` },
  ],
];

/** The body as the service reads it: JSON, a form, or the mail's fields. */
const bodyOf = (rendered: unknown): unknown => {
  const one = Array.isArray(rendered) ? rendered[0] : rendered;
  const r = one as { body?: string; headers?: Record<string, string> };
  if (typeof r.body !== 'string') return one;
  return r.headers?.['content-type']?.startsWith('application/x-www-form-urlencoded')
    ? Object.fromEntries(new URLSearchParams(r.body))
    : JSON.parse(r.body);
};

describe('the recovery notice of every kind', () => {
  it('covers every kind and every kind follows "resolved"', () => {
    expect(cases.map(([k]) => k).sort()).toEqual(
      Object.keys(NOTIFIERS)
        .filter((k) => k !== 'teams')
        .sort(),
    );
    for (const n of Object.values(NOTIFIERS)) expect(n.follows).toContain('resolved');
  });

  it.each(cases)('%s says it resolved, how long it lasted, and links back', (kind, config, expected) => {
    const n = NOTIFIERS[kind]!;
    const rendered = n.render(n.config.parse(config), messages.resolved);
    expect(bodyOf(rendered)).toEqual(expected);
    if (kind === 'opsgenie')
      expect((rendered as { url: string }[])[0]!.url).toBe(
        `http://127.0.0.1:9/v2/alerts/${id}/close?identifierType=alias`,
      );
  });

  it('teams says it in its card', () => {
    const n = NOTIFIERS.teams!;
    const body = bodyOf(
      n.render(n.config.parse({ webhook_url: 'http://127.0.0.1:9/t' }), messages.resolved),
    ) as {
      attachments: { content: { body: { text: string; color?: string }[] } }[];
    };
    expect(body.attachments[0]!.content.body.map((b) => [b.text, b.color])).toEqual([
      [HEAD, 'Good'],
      [TEXT, undefined],
    ]);
  });
});
