import { CHANNEL_KINDS } from '../../notify/kinds/index.js';
import { type MapContext, sourceName } from './context.js';
import type { KumaNotification } from './kuma-data.js';

/**
 * Kuma notification providers (`server/notification-providers/<kind>.js`, each config's `type`) →
 * Lookout channel kinds (`notify/kinds/`): which config field holds what, and which are secrets (each
 * written as `${LOOKOUT_IMPORT_CHANNEL_<NAME>_<FIELD>}`). Settings Lookout's kind has no place for
 * are listed as unmapped; a provider with no Lookout kind is unmapped whole.
 */
type Config = Record<string, unknown>;
interface Mapping {
  type: string;
  /** Lookout config field ← Kuma config field (a secret when `secret`). */
  fields: { to: string; from: string; secret?: boolean }[];
  /** Kuma fields that carry meaning Lookout drops (the rest is Kuma's own UI state). */
  dropped?: { from: string; reason: string }[];
  /** Fields computed from the whole config. */
  extra?(c: Config, ctx: MapContext, name: string, source: string): Config | null;
}

const one = (type: string, from: string, dropped: Mapping['dropped'] = []): Mapping => ({
  type,
  fields: [{ to: type === 'slack' ? 'url' : 'webhook_url', from, secret: true }],
  dropped,
});
const style = (from: string) => ({
  from,
  reason: 'Lookout posts its own message (no custom username, icon or channel)',
});

const MAPPINGS: Record<string, Mapping> = {
  slack: one('slack', 'slackwebhookURL', [
    style('slackchannel'),
    style('slackusername'),
    style('slackiconemo'),
  ]),
  discord: one('discord', 'discordWebhookUrl', [style('discordUsername'), style('discordPrefixMessage')]),
  teams: one('teams', 'webhookUrl'),
  mattermost: one('mattermost', 'mattermostWebhookUrl', [
    style('mattermostchannel'),
    style('mattermostusername'),
    style('mattermosticonemo'),
    style('mattermosticonurl'),
  ]),
  GoogleChat: one('google_chat', 'googleChatWebhookURL'),
  webhook: {
    type: 'webhook',
    fields: [{ to: 'url', from: 'webhookURL', secret: true }],
    dropped: [
      {
        from: 'webhookCustomBody',
        reason: 'Lookout posts its own JSON body (signed with X-Lookout-Signature)',
      },
    ],
    extra(c, ctx, name, source) {
      if (c.webhookContentType && c.webhookContentType !== 'json')
        ctx.lose(source, `webhookContentType: ${String(c.webhookContentType)}`, 'Lookout posts JSON only');
      let headers: Record<string, unknown> = {};
      try {
        headers = c.webhookAdditionalHeaders ? JSON.parse(String(c.webhookAdditionalHeaders)) : {};
      } catch {
        ctx.lose(source, 'webhookAdditionalHeaders', 'not a JSON object of headers');
      }
      const keys = Object.keys(headers ?? {})
        .filter((k) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/.test(k) && k !== '__proto__')
        .slice(0, 20);
      const out = keys.map((k) => [
        k,
        ctx.secret('channel', name, `header ${k}`, `channels "${name}" config.headers.${k}`),
      ]);
      return out.length ? { headers: Object.fromEntries(out) } : null;
    },
  },
  telegram: {
    type: 'telegram',
    fields: [
      { to: 'bot_token', from: 'telegramBotToken', secret: true },
      { to: 'chat_id', from: 'telegramChatID' },
    ],
    dropped: [
      { from: 'telegramMessageThreadID', reason: 'Lookout posts to the chat, not to a topic thread' },
      { from: 'telegramSendSilently', reason: 'Lookout has no silent Telegram messages' },
    ],
  },
  matrix: {
    type: 'matrix',
    fields: [
      { to: 'homeserver_url', from: 'homeserverUrl' },
      { to: 'access_token', from: 'accessToken', secret: true },
      { to: 'room_id', from: 'internalRoomId' },
    ],
  },
  ntfy: {
    type: 'ntfy',
    fields: [
      { to: 'server_url', from: 'ntfyserverurl' },
      { to: 'topic', from: 'ntfytopic' },
    ],
    dropped: [
      { from: 'ntfyPriority', reason: 'Lookout sets the priority from the alert' },
      { from: 'ntfyIcon', reason: 'Lookout has no ntfy icon setting' },
    ],
    extra(c, ctx, name, source) {
      if (c.ntfyAuthenticationMethod === 'usernamePassword' || (c.ntfyusername && !c.ntfyaccesstoken)) {
        ctx.lose(source, 'ntfyusername / ntfypassword', 'Lookout signs in to ntfy with an access token only');
        return null;
      }
      return c.ntfyaccesstoken
        ? {
            access_token: ctx.secret(
              'channel',
              name,
              'access_token',
              `channels "${name}" config.access_token`,
            ),
          }
        : null;
    },
  },
  gotify: {
    type: 'gotify',
    fields: [
      { to: 'server_url', from: 'gotifyserverurl' },
      { to: 'app_token', from: 'gotifyapplicationToken', secret: true },
    ],
    dropped: [{ from: 'gotifyPriority', reason: 'Lookout sets the priority from the alert' }],
  },
  pushover: {
    type: 'pushover',
    fields: [
      { to: 'user_key', from: 'pushoveruserkey', secret: true },
      { to: 'app_token', from: 'pushoverapptoken', secret: true },
    ],
    dropped: [
      { from: 'pushoverdevice', reason: 'Lookout sends to every device of the user' },
      { from: 'pushoversounds', reason: 'Lookout has no Pushover sound setting' },
      { from: 'pushoverpriority', reason: 'Lookout sets the priority from the alert' },
    ],
  },
  PagerDuty: {
    type: 'pagerduty',
    fields: [{ to: 'routing_key', from: 'pagerdutyIntegrationKey', secret: true }],
    dropped: [{ from: 'pagerdutyPriority', reason: 'Lookout sets the severity from the alert' }],
    extra(c, ctx, _name, source) {
      const url = String(c.pagerdutyIntegrationUrl ?? '');
      if (url && !url.startsWith('https://events.pagerduty.com'))
        ctx.lose(source, 'pagerdutyIntegrationUrl', 'Lookout uses the Events API v2 address');
      return null;
    },
  },
  Opsgenie: {
    type: 'opsgenie',
    fields: [{ to: 'api_key', from: 'opsgenieApiKey', secret: true }],
    dropped: [{ from: 'opsgeniePriority', reason: 'Lookout sets the priority from the alert' }],
    extra: (c) => (c.opsgenieRegion === 'eu' ? { api_url: 'https://api.eu.opsgenie.com' } : null),
  },
  twilio: {
    type: 'twilio_sms',
    fields: [
      { to: 'account_sid', from: 'twilioAccountSID' },
      { to: 'auth_token', from: 'twilioAuthToken', secret: true },
      { to: 'from', from: 'twilioFromNumber' },
    ],
    dropped: [{ from: 'twilioApiKey', reason: 'Lookout signs in with the account SID and auth token' }],
    extra: (c) => ({
      to: String(c.twilioToNumber ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    }),
  },
  smtp: {
    type: 'email',
    fields: [],
    dropped: [
      { from: 'smtpHost', reason: 'Lookout sends mail through its own mail settings' },
      { from: 'smtpDkimPrivateKey', reason: 'Lookout signs mail with its own settings' },
      { from: 'customSubject', reason: 'Lookout writes its own subject' },
    ],
    extra(c) {
      const split = (v: unknown) =>
        String(v ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
      return {
        addresses: [...new Set([...split(c.smtpTo), ...split(c.smtpCC), ...split(c.smtpBCC)])].slice(0, 10),
      };
    },
  },
};

/** Kuma provider types that Lookout has a kind for (the rest are unmapped with the reason). */
export const MAPPED_PROVIDERS = Object.keys(MAPPINGS);

export interface MappedChannels {
  channels: Config[];
  /** Kuma notification id → the channel's name. */
  nameOf: Map<number, string>;
}

export const mapNotifications = (list: KumaNotification[], ctx: MapContext): MappedChannels => {
  const channels: Config[] = [];
  const nameOf = new Map<number, string>();
  for (const n of list) {
    const source = sourceName('notification', n.name, n.id);
    const provider = String(n.config.type ?? '');
    const m = MAPPINGS[provider];
    if (!m) {
      ctx.lose(source, `type: ${provider || '(none)'}`, `Lookout has no ${provider || 'such'} channel kind`);
      continue;
    }
    const name = ctx.uniqueName('channels', n.name, 200);
    const secretsBefore = ctx.secrets.length;
    const unmappedBefore = ctx.unmapped.length;
    const config: Config = {};
    for (const f of m.fields) {
      const value = n.config[f.from];
      if (value === undefined || value === null || value === '') continue;
      config[f.to] = f.secret
        ? ctx.secret('channel', name, f.to, `channels "${name}" config.${f.to}`)
        : String(value).trim();
    }
    Object.assign(config, m.extra?.(n.config, ctx, name, source) ?? {});
    for (const d of m.dropped ?? [])
      if (n.config[d.from] !== undefined && n.config[d.from] !== null && n.config[d.from] !== '')
        ctx.lose(source, d.from, d.reason);
    // The non-secret fields must be what the kind takes (a chat id, a room id, a server URL).
    const kind = CHANNEL_KINDS[m.type];
    const stand = Object.fromEntries(
      Object.entries(config).map(([k, v]) => [
        k,
        typeof v === 'string' && v.startsWith('${') ? undefined : v,
      ]),
    );
    const parsed = kind?.config.safeParse(stand);
    const secrets = new Set(kind?.secrets ?? []);
    const bad = parsed?.success
      ? []
      : (parsed?.error.issues ?? []).filter(
          (i) => !secrets.has(String(i.path[0])) && String(i.path[0]) !== 'headers',
        );
    if (bad.length) {
      ctx.secrets.splice(secretsBefore);
      ctx.lose(
        source,
        '',
        `not imported: ${bad.map((i) => `${i.path.join('.') || 'config'} ${i.message}`).join('; ')}`,
      );
      continue;
    }
    if (n.isDefault)
      ctx.lose(
        source,
        'isDefault: true',
        'Lookout notifies new monitors through the default escalation policy: make it notify this channel there',
      );
    if (!n.active)
      ctx.lose(source, 'active: false', 'Lookout channels have no off switch; imported as an active channel');
    nameOf.set(n.id, name);
    channels.push({ name, type: m.type, config });
    ctx.attach(unmappedBefore, 'channels', channels.length - 1);
  }
  return { channels, nameOf };
};
