import type { Item } from '../../config-as-code/kind.js';
import { secretRef } from '../import-names.js';
import type { SecretReference, Unmapped } from '../import-outcome.js';

/** An integration as `GET /api/v3/channels/` lists it: its id, name and kind, never its settings. */
export interface HcChannel {
  id: string;
  name: string;
  kind: string;
}

/**
 * Healthchecks kinds (hc/api/models.py TRANSPORTS) whose every Lookout setting is a secret: the
 * channel is made with `${ENV}` references for them (the API never shows an integration's settings).
 */
const BY_SECRETS: Record<string, { type: string; label: string; fields: string[] }> = {
  slack: { type: 'slack', label: 'Slack', fields: ['url'] },
  discord: { type: 'discord', label: 'Discord', fields: ['webhook_url'] },
  mattermost: { type: 'mattermost', label: 'Mattermost', fields: ['webhook_url'] },
  msteamsw: { type: 'teams', label: 'Microsoft Teams', fields: ['webhook_url'] },
  msteams: { type: 'teams', label: 'Microsoft Teams', fields: ['webhook_url'] },
  googlechat: { type: 'google_chat', label: 'Google Chat', fields: ['webhook_url'] },
  pd: { type: 'pagerduty', label: 'PagerDuty', fields: ['routing_key'] },
  opsgenie: { type: 'opsgenie', label: 'Opsgenie', fields: ['api_key'] },
  po: { type: 'pushover', label: 'Pushover', fields: ['user_key', 'app_token'] },
  webhook: { type: 'webhook', label: 'Webhook', fields: ['url'] },
};

/** Kinds Lookout has but whose plain settings (an address, a chat, a server) the API does not show. */
const NEEDS_SETTINGS: Record<string, string> = {
  email: 'the API does not show the address it mails; add an email channel with it',
  telegram: 'the API does not show the chat it posts to; add a telegram channel with the chat id',
  matrix: 'the API does not show the homeserver and room; add a matrix channel with them',
  ntfy: 'the API does not show the ntfy topic; add an ntfy channel with it',
  gotify: 'the API does not show the Gotify server; add a gotify channel with it',
  sms: 'Lookout sends SMS through Twilio: add a twilio_sms channel with the number (the API does not show it)',
  whatsapp: 'Lookout has no WhatsApp channel (twilio_sms sends SMS)',
  call: 'Lookout has no phone-call channel',
};

export const mapChannel = (
  ch: HcChannel,
  names: (wanted: string, fallback: string) => string,
  secrets: SecretReference[],
): { item: Item; note?: Unmapped } | Unmapped => {
  const source = `integration "${ch.name || ch.kind}" (${ch.kind}, ${ch.id})`;
  const kind = BY_SECRETS[ch.kind];
  if (!kind)
    return {
      source,
      setting: `kind: ${ch.kind}`,
      reason: `not imported: ${NEEDS_SETTINGS[ch.kind] ?? `Lookout has no ${ch.kind} channel`}`,
    };
  const name = names(ch.name, `${kind.label} ${ch.id.slice(0, 8)}`);
  const config: Record<string, string> = {};
  for (const f of kind.fields) config[f] = secretRef(secrets, 'channel', name, ['config', f]);
  const item: Item = { name, type: kind.type, config };
  return ch.kind === 'webhook'
    ? {
        item,
        note: {
          source,
          setting: 'url_down, url_up, method, body, headers',
          reason:
            'Lookout posts its own signed JSON to one URL: set it in the variable; the source’s per-event requests are not imported',
        },
      }
    : { item };
};
