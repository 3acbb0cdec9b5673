import { SECRET_HEADER } from '../../config-as-code/kind.js';
import { CHANNEL_KINDS } from '../../notify/kinds/index.js';
import { type Collector, obj, str, variablesIn } from './values.js';

/**
 * Gatus's `alerting` providers as Lookout channels, one channel per configured provider (named as the
 * provider: "Slack", "PagerDuty"). Each provider's settings as Gatus documents them (README,
 * "Alerting"); secrets (webhook URLs, tokens, keys) become `${…}`. A setting with no place in the
 * channel's kind is reported; a provider Lookout has no kind for is reported whole.
 */

type Config = Record<string, unknown>;

interface ProviderMap {
  /** Lookout's channel type. */
  type: string;
  label: string;
  /** Gatus settings this mapping reads (the rest, but for the common ones, are reported). */
  reads: string[];
  build(p: Config, put: Put): Config | null;
}

/** Writes one Gatus setting into the channel's config: `secret` makes it a `${…}`. */
type Put = (gatusKey: string, lookoutKey: string, opts?: { secret?: boolean; required?: boolean }) => unknown;

const ALL_PROVIDERS: Record<string, ProviderMap> = {
  slack: {
    type: 'slack',
    label: 'Slack',
    reads: ['webhook-url'],
    build: (_p, put) => ({ url: put('webhook-url', 'url', { secret: true, required: true }) }),
  },
  discord: {
    type: 'discord',
    label: 'Discord',
    reads: ['webhook-url'],
    build: (_p, put) => ({
      webhook_url: put('webhook-url', 'webhook_url', { secret: true, required: true }),
    }),
  },
  'teams-workflows': {
    type: 'teams',
    label: 'Teams',
    reads: ['webhook-url'],
    build: (_p, put) => ({
      webhook_url: put('webhook-url', 'webhook_url', { secret: true, required: true }),
    }),
  },
  mattermost: {
    type: 'mattermost',
    label: 'Mattermost',
    reads: ['webhook-url'],
    build: (_p, put) => ({
      webhook_url: put('webhook-url', 'webhook_url', { secret: true, required: true }),
    }),
  },
  googlechat: {
    type: 'google_chat',
    label: 'Google Chat',
    reads: ['webhook-url'],
    build: (_p, put) => ({
      webhook_url: put('webhook-url', 'webhook_url', { secret: true, required: true }),
    }),
  },
  telegram: {
    type: 'telegram',
    label: 'Telegram',
    reads: ['token', 'id', 'api-url'],
    build: (p, put) => ({
      bot_token: put('token', 'bot_token', { secret: true, required: true }),
      chat_id: put('id', 'chat_id', { required: true }),
      ...(p['api-url'] ? { api_url: put('api-url', 'api_url') } : {}),
    }),
  },
  matrix: {
    type: 'matrix',
    label: 'Matrix',
    reads: ['server-url', 'access-token', 'internal-room-id'],
    build: (p, put) => ({
      // Gatus's default homeserver.
      homeserver_url: p['server-url']
        ? put('server-url', 'homeserver_url')
        : 'https://matrix-client.matrix.org',
      access_token: put('access-token', 'access_token', { secret: true, required: true }),
      room_id: put('internal-room-id', 'room_id', { required: true }),
    }),
  },
  ntfy: {
    type: 'ntfy',
    label: 'ntfy',
    reads: ['topic', 'url', 'token'],
    build: (p, put) => ({
      topic: put('topic', 'topic', { required: true }),
      ...(p.url ? { server_url: put('url', 'server_url') } : {}),
      ...(p.token ? { access_token: put('token', 'access_token', { secret: true }) } : {}),
    }),
  },
  gotify: {
    type: 'gotify',
    label: 'Gotify',
    reads: ['server-url', 'token'],
    build: (_p, put) => ({
      server_url: put('server-url', 'server_url', { required: true }),
      app_token: put('token', 'app_token', { secret: true, required: true }),
    }),
  },
  pushover: {
    type: 'pushover',
    label: 'Pushover',
    reads: ['application-token', 'user-key'],
    build: (_p, put) => ({
      app_token: put('application-token', 'app_token', { secret: true, required: true }),
      user_key: put('user-key', 'user_key', { secret: true, required: true }),
    }),
  },
  pagerduty: {
    type: 'pagerduty',
    label: 'PagerDuty',
    reads: ['integration-key'],
    build: (_p, put) => ({
      routing_key: put('integration-key', 'routing_key', { secret: true, required: true }),
    }),
  },
  opsgenie: {
    type: 'opsgenie',
    label: 'Opsgenie',
    reads: ['api-key'],
    build: (_p, put) => ({ api_key: put('api-key', 'api_key', { secret: true, required: true }) }),
  },
  twilio: {
    type: 'twilio_sms',
    label: 'Twilio SMS',
    reads: ['sid', 'token', 'from', 'to'],
    build: (p, put) => ({
      account_sid: put('sid', 'account_sid', { required: true }),
      auth_token: put('token', 'auth_token', { secret: true, required: true }),
      from: put('from', 'from', { required: true }),
      to: (str(p.to) ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    }),
  },
  email: {
    type: 'email',
    label: 'Email',
    reads: ['to'],
    build: (p) => {
      const to = (str(p.to) ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      return to.length ? { addresses: to } : null;
    },
  },
  custom: {
    type: 'webhook',
    label: 'Custom webhook',
    reads: ['url', 'headers'],
    build: (p, put) => {
      const headers = Object.keys(obj(p.headers));
      return {
        url: put('url', 'url', { secret: true, required: true }),
        ...(headers.length
          ? {
              headers: Object.fromEntries(
                headers.map((k) => [
                  k,
                  put(`headers.${k}`, `headers.${k}`, { secret: SECRET_HEADER.test(k) }),
                ]),
              ),
            }
          : {}),
      };
    },
  },
};

/** Settings every provider has, mapped elsewhere (default-alert: the endpoints' alerts). */
const COMMON = new Set(['default-alert']);

const WHY: Record<string, string> = {
  teams:
    'the Office 365 connector Gatus posts to is retired by Microsoft; Lookout posts to a Teams Workflows webhook (alerting.teams-workflows)',
  'email.from': 'Lookout sends mail from the workspace’s mail settings (or the deployment’s SMTP server)',
  'email.host': 'Lookout sends mail through the workspace’s mail settings (or the deployment’s SMTP server)',
  'email.port': 'Lookout sends mail through the workspace’s mail settings (or the deployment’s SMTP server)',
  'email.username':
    'Lookout sends mail through the workspace’s mail settings (or the deployment’s SMTP server)',
  'email.password':
    'Lookout sends mail through the workspace’s mail settings (or the deployment’s SMTP server); not written',
  'custom.method': 'Lookout’s webhook always POSTs its own JSON (signed with X-Lookout-Signature)',
  'custom.body': 'Lookout’s webhook always POSTs its own JSON; map it at the receiver',
  'custom.placeholders': 'Lookout’s webhook always POSTs its own JSON; map it at the receiver',
  overrides:
    'Lookout has no per-group provider settings: make one channel per destination and an escalation policy per group',
  client: 'Lookout’s channels have no client settings',
};

const why = (provider: string, key: string) =>
  WHY[`${provider}.${key}`] ??
  WHY[key] ??
  `Lookout’s ${ALL_PROVIDERS[provider]?.label ?? provider} channel has no such setting: it formats its own message`;

/** The channel's name for each Gatus provider type that became a channel. */
export type ChannelNames = Map<string, string>;

export const mapAlerting = (alerting: Record<string, unknown>, c: Collector): ChannelNames => {
  const names: ChannelNames = new Map();
  for (const [provider, raw] of Object.entries(alerting)) {
    const p = obj(raw);
    const source = `alerting.${provider}`;
    c.count('alerting providers');
    const map = ALL_PROVIDERS[provider];
    if (!map) {
      c.note(source, '', WHY[provider] ?? `Lookout has no ${provider} channel`);
      continue;
    }
    const name = map.label;
    const missing: string[] = [];
    const put: Put = (gatusKey, lookoutKey, opts = {}) => {
      const path = gatusKey.split('.');
      const value = str(path.length === 2 ? obj(p[path[0]!])[path[1]!] : p[gatusKey]);
      if (value === undefined || value === '') {
        if (opts.required) missing.push(gatusKey);
        return undefined;
      }
      if (opts.secret || (lookoutKey.startsWith('headers.') && variablesIn(value).length))
        return c.secret(
          value,
          { kind: 'channel', name, field: `config.${lookoutKey}` },
          `channels "${name}" config.${lookoutKey}`,
        );
      return c.plain(value, source, gatusKey);
    };
    const config = map.build(p, put);
    if (!config || missing.length) {
      // A provider Gatus would ignore too (it needs these): nothing to make.
      c.note(
        source,
        missing.join(', ') || 'to',
        'required by Gatus and missing: Gatus ignores this provider too',
      );
      // Undo secrets listed for a channel not written.
      c.outcome.secrets = c.outcome.secrets.filter((s) => !s.where.startsWith(`channels "${name}" `));
      continue;
    }
    // Each plain (not secret) value as the channel's kind takes it: one it refuses drops the channel.
    const kind = CHANNEL_KINDS[map.type]!;
    const refused = Object.entries(config).flatMap(([key, value]) => {
      const field = kind.config.shape[key] as
        | { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } }
        | undefined;
      if (value === undefined || kind.secrets.includes(key) || !field) return [];
      const r = field.safeParse(value);
      return r.success ? [] : [`${key} ${r.error?.issues[0]?.message ?? 'is refused'}`];
    });
    if (refused.length) {
      c.note(source, '', `Lookout’s ${map.label} channel would refuse it: ${refused.join('; ')}`);
      c.outcome.secrets = c.outcome.secrets.filter((s) => !s.where.startsWith(`channels "${name}" `));
      continue;
    }
    const index = c.add('channels', { name, type: map.type, config });
    names.set(provider, name);
    for (const key of Object.keys(p)) {
      if (COMMON.has(key) || map.reads.includes(key)) continue;
      if (key === 'headers' && provider === 'custom') continue;
      c.note(source, key, why(provider, key), { kind: 'channels', index });
    }
  }
  return names;
};
