import type { Item } from '../../config-as-code/kind.js';
import { secretRef } from '../import-names.js';
import type { SecretReference, Unmapped } from '../import-outcome.js';
import type { UrContact } from './uptimerobot-shapes.js';

/**
 * UptimeRobot alert contacts → Lookout channels. The API shows a contact's value (an address, a
 * webhook URL, a user key): an e-mail address is written as it is; a URL or a key is a secret, written
 * as `${ENV}` (never its value), the variable listed to set.
 */

/** A hook URL's host names its service, for contact types the documentation does not number. */
const byHost = (value: string): string | null => {
  let host: string;
  try {
    const u = new URL(value);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    host = u.hostname;
  } catch {
    return null;
  }
  if (host === 'hooks.slack.com') return 'slack';
  if (/(^|\.)discord(app)?\.com$/.test(host)) return 'discord';
  if (host === 'chat.googleapis.com') return 'google_chat';
  if (/\.webhook\.office\.com$|\.logic\.azure\.com$/.test(host)) return 'teams';
  return 'webhook';
};

const URL_FIELD: Record<string, string> = {
  slack: 'url',
  webhook: 'url',
  discord: 'webhook_url',
  google_chat: 'webhook_url',
  teams: 'webhook_url',
};

const NOT_MAPPED: Record<number, string> = {
  1: 'Lookout sends SMS through your Twilio account (twilio_sms): add one with this number',
  3: 'Lookout has no Twitter channel',
  4: 'Lookout has no Boxcar channel',
  6: 'Lookout has no Pushbullet channel',
  7: 'Lookout has no Zapier channel: a webhook channel can call a Zapier catch hook',
  10: 'HipChat is no more, and Lookout has no channel for it',
};

export const mapContact = (
  c: UrContact,
  names: (wanted: string, fallback: string) => string,
  secrets: SecretReference[],
): { item: Item; note?: Unmapped } | Unmapped => {
  const source = `alert contact "${c.friendly_name}" (id ${c.id}, type ${c.type})`;
  const value = String(c.value ?? '').trim();
  if (c.type === 2) {
    if (!/^[^\s@]+@[^\s@]+$/.test(value))
      return { source, setting: 'value', reason: 'not imported: not an e-mail address' };
    const name = names(c.friendly_name, value);
    return { item: { name, type: 'email', config: { addresses: [value] } } };
  }
  if (c.type === 9) {
    const name = names(c.friendly_name, `Pushover ${c.id}`);
    return {
      item: {
        name,
        type: 'pushover',
        config: {
          user_key: secretRef(secrets, 'channel', name, ['config', 'user_key']),
          app_token: secretRef(secrets, 'channel', name, ['config', 'app_token']),
        },
      },
      note: {
        source,
        setting: 'app_token',
        reason:
          'UptimeRobot sends through its own Pushover application: Lookout needs one of yours (its token)',
      },
    };
  }
  const known = c.type === 11 ? 'slack' : c.type === 21 ? 'google_chat' : c.type === 5 ? 'webhook' : null;
  const guessed = known ?? (NOT_MAPPED[c.type] ? null : byHost(value));
  if (!guessed)
    return {
      source,
      setting: `type: ${c.type}`,
      reason: `not imported: ${NOT_MAPPED[c.type] ?? 'a kind of contact Lookout cannot tell from the API (not a hook URL)'}`,
    };
  const name = names(c.friendly_name, `${guessed} ${c.id}`);
  const field = URL_FIELD[guessed] as string;
  const item: Item = {
    name,
    type: guessed,
    config: { [field]: secretRef(secrets, 'channel', name, ['config', field]) },
  };
  if (guessed === 'webhook')
    return {
      item,
      note: {
        source,
        setting: 'value (URL parameters, POST value)',
        reason:
          'Lookout posts its own signed JSON to the URL: set the URL without UptimeRobot’s *monitorID*-style parameters',
      },
    };
  return { item };
};
