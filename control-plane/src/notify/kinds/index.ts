import type { ChannelKinds } from '../../domain/routing/channel-kinds.js';
import type { AnyNotifier } from '../notifier.js';
import email from './email.js';
import slack from './slack.js';
import webhook from './webhook.js';

/**
 * Every notification kind, by channel `type`. A new kind is one file beside this one (its config,
 * rendering, send and classification: notifier.ts), its test, and its line here.
 */
const all: AnyNotifier[] = [email, webhook, slack];

export const NOTIFIERS: Readonly<Record<string, AnyNotifier>> = Object.fromEntries(
  all.map((n) => [n.type, n]),
);

/** The same table as the channel rules see it (domain/routing/channel-kinds.ts). */
export const CHANNEL_KINDS: ChannelKinds = NOTIFIERS;

/** The channel types, in the order above (the API's enum). */
export const CHANNEL_TYPES = all.map((n) => n.type) as [string, ...string[]];
