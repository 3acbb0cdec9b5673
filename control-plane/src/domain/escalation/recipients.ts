import type { ContactMethod, ContactMethodStore } from '../contacts/contact-method-store.js';
import { type ContactServices, contactTarget } from '../contacts/contact-methods.js';
import type { ChannelStore } from '../notifications/channel-store.js';
import { channelTarget, emailTarget, type Target } from '../notifications/messages.js';
import type { TenancyStore } from '../tenancy/tenancy-store.js';
import type { EscalationStep, NotificationChannel, User } from '../types.js';

/** Someone a step notifies: a user's account email, one of their contact methods, or a channel. */
export interface Recipient {
  /** For the idempotency key: `user:<id>`, `user:<id>:<contact method id>` or `channel:<id>`. */
  key: string;
  /** Who it is to people (the timeline, the acknowledge page): the channel's name, the user's email. */
  name: string;
  user_id: string | null;
  channel_id: string | null;
  target: Target;
}

export type RecipientStore = Pick<ChannelStore, 'getChannel'> &
  Pick<TenancyStore, 'getUser'> &
  Pick<ContactMethodStore, 'listContactMethods' | 'getContactMethod'>;

/**
 * The one path from a channel, a user or a contact method to a recipient, taken both when a step
 * notifies and when a follow-up (acknowledged, resolved) finds again whom the alert reached.
 */
const ofChannel = (c: NotificationChannel): Recipient => ({
  key: `channel:${c.id}`,
  name: c.name,
  user_id: null,
  channel_id: c.id,
  target: channelTarget(c),
});

const ofUser = (u: User): Recipient => ({
  key: `user:${u.id}`,
  name: u.email,
  user_id: u.id,
  channel_id: null,
  target: emailTarget([u.email], u.workspace_id),
});

/** A contact method once verified, while its kind's service is set up; null otherwise. */
const ofMethod = (u: User, m: ContactMethod, services: ContactServices): Recipient | null => {
  const target = m.verified_at ? contactTarget(m, services) : null;
  return target ? { ...ofUser(u), key: `user:${u.id}:${m.id}`, target } : null;
};

/** A user as a step reaches them: their account email and each verified method. */
export const userRecipients = async (
  store: Pick<ContactMethodStore, 'listContactMethods'>,
  services: ContactServices,
  workspaceId: string,
  user: User,
): Promise<Recipient[]> => {
  const out = [ofUser(user)];
  for (const m of await store.listContactMethods(workspaceId, user.id)) {
    const r = ofMethod(user, m, services);
    if (r) out.push(r);
  }
  return out;
};

/** Everyone a step names, as they are now: each user's account email and verified methods, each channel. */
export const stepRecipients = async (
  store: RecipientStore,
  services: ContactServices,
  workspaceId: string,
  step: EscalationStep,
): Promise<Recipient[]> => {
  const out: Recipient[] = [];
  for (const userId of step.notify_user_ids) {
    const user = await store.getUser(workspaceId, userId);
    if (user) out.push(...(await userRecipients(store, services, workspaceId, user)));
  }
  for (const channelId of step.notify_channel_ids) {
    const channel = await store.getChannel(workspaceId, channelId);
    if (channel) out.push(ofChannel(channel));
  }
  return out;
};

/** A recipient an alert reached, from its key, as it is now; null when gone (or no longer verified). */
export const recipientByKey = async (
  store: RecipientStore,
  services: ContactServices,
  workspaceId: string,
  key: string,
): Promise<Recipient | null> => {
  const [type, id, methodId] = key.split(':') as [string, string, string | undefined];
  if (type === 'channel') {
    const channel = await store.getChannel(workspaceId, id);
    return channel ? ofChannel(channel) : null;
  }
  const user = await store.getUser(workspaceId, id);
  if (!user) return null;
  if (!methodId) return ofUser(user);
  const method = await store.getContactMethod(workspaceId, user.id, methodId);
  return method ? ofMethod(user, method, services) : null;
};
