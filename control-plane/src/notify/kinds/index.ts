import type { ChannelKinds } from '../../domain/notifications/channel-kinds.js';
import type { AnyNotifier } from '../notifier.js';
import discord from './discord.js';
import email from './email.js';
import googleChat from './google-chat.js';
import gotify from './gotify.js';
import matrix from './matrix.js';
import mattermost from './mattermost.js';
import ntfy from './ntfy.js';
import opsgenie from './opsgenie.js';
import pagerduty from './pagerduty.js';
import pushover from './pushover.js';
import slack from './slack.js';
import teams from './teams.js';
import telegram from './telegram.js';
import twilioSms from './twilio-sms.js';
import webhook from './webhook.js';

/**
 * Every notification kind, by channel `type`. A new kind is one file beside this one (its config,
 * rendering, send and classification: notifier.ts), its test, and its line here.
 */
const all: AnyNotifier[] = [
  email,
  webhook,
  slack,
  discord,
  teams,
  mattermost,
  googleChat,
  telegram,
  matrix,
  ntfy,
  gotify,
  pushover,
  pagerduty,
  opsgenie,
  twilioSms,
];

export const NOTIFIERS: Readonly<Record<string, AnyNotifier>> = Object.fromEntries(
  all.map((n) => [n.type, n]),
);

/** The same table as the channel rules see it (domain/notifications/channel-kinds.ts). */
export const CHANNEL_KINDS: ChannelKinds = NOTIFIERS;

/** The channel types, in the order above (the API's enum). */
export const CHANNEL_TYPES = all.map((n) => n.type) as [string, ...string[]];
