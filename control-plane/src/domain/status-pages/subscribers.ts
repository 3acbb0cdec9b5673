import type { SecretBox } from '@lookout/shared';
import { AppError, digestsEqual, hashSecret, newId, randomToken } from '@lookout/shared';
import { z } from 'zod';
import { parseOrThrow } from '../validation.js';
import { recipientKey } from './recipients.js';
import type { Incident, IncidentUpdate, StatusPage, StatusPageStore } from './status-page-store.js';
import type {
  IncidentMailEvent,
  StatusSubscriber,
  StatusSubscriberStore,
  SubscriberMail,
} from './subscriber-store.js';

/** A confirmation link works this long, once. */
export const CONFIRM_TTL_MS = 48 * 3_600_000;
/** At most one confirmation mail per address and page this often: a stranger cannot mail-bomb a victim. */
export const CONFIRM_WINDOW_MS = 3_600_000;
/**
 * And at most this many per mailbox (recipients.ts: case, plus tags and Gmail's dots do not make
 * another one) in a day, over every page of every workspace: 60 pages or 100 plus-addresses still
 * reach one inbox only this often. Budgets are deleted once their day is over.
 */
export const RECIPIENT_CONFIRM_MAX = 5;
export const RECIPIENT_WINDOW_MS = 24 * 3_600_000;
/** Subscribers who never confirmed are deleted this long after subscribing. */
export const PENDING_RETENTION_MS = 48 * 3_600_000;
/** A claimed mail not finished within this long (its replica died) is sent again. */
export const MAIL_LEASE_MS = 120_000;
const MAX_ATTEMPTS = 6;

export const subscribeForm = z.strictObject({ email: z.email().max(320) });

const unsubscribeContext = (id: string) => `status_subscriber:${id}:unsubscribe`;

/**
 * A reader asks for mail: stored pending, and a confirmation mail queued unless one was queued for this
 * address and page within the window or the mailbox's budget for the day is spent. Says nothing of
 * whether the address was known or confirmed already (the answer is the same), so the form tells nobody
 * who subscribes.
 */
export const subscribe = async (
  store: StatusSubscriberStore,
  box: SecretBox,
  page: StatusPage,
  form: unknown,
  now: Date,
): Promise<void> => {
  const { email } = parseOrThrow(subscribeForm, form);
  const id = newId();
  const token = randomToken('', 32);
  const s = await store.addSubscriber({
    id,
    workspace_id: page.workspace_id,
    page_id: page.id,
    email: email.toLowerCase(),
    status: 'pending',
    confirm_hash: null,
    confirm_expires_at: null,
    confirm_sent_at: null,
    unsubscribe_hash: hashSecret(token),
    unsubscribe_sealed: box.seal(token, unsubscribeContext(id)),
    created_at: now,
    confirmed_at: null,
  });
  if (s.status !== 'pending') return;
  const budget = {
    key: recipientKey(s.email),
    windowStart: new Date(now.getTime() - RECIPIENT_WINDOW_MS),
    max: RECIPIENT_CONFIRM_MAX,
  };
  const since = new Date(now.getTime() - CONFIRM_WINDOW_MS);
  await store.requestConfirmation(
    s.id,
    now,
    since,
    {
      id: `confirm:${s.id}`,
      workspace_id: s.workspace_id,
      page_id: s.page_id,
      subscriber_id: s.id,
      kind: 'confirm',
      incident_id: null,
      update_id: null,
      due_at: now,
      attempts: 0,
      created_at: now,
    },
    budget,
  );
};

/**
 * Follows a confirmation link of `page` (single use, expires); null when it is unknown, used, expired
 * or another page's (which stays usable on its own page).
 */
export const confirmSubscription = (
  store: StatusSubscriberStore,
  page: StatusPage,
  token: string,
  now: Date,
) => (token ? store.confirmSubscriber(hashSecret(token), page.id, now) : Promise.resolve(null));

/** The one-click unsubscribe (RFC 8058): the token alone deletes the subscriber. False when unknown. */
export const unsubscribe = async (store: StatusSubscriberStore, token: string): Promise<boolean> => {
  if (!token) return false;
  const hash = hashSecret(token);
  const s = await store.getSubscriberByUnsubscribeHash(hash);
  if (!s || !digestsEqual(s.unsubscribe_hash, hash)) return false;
  return store.deleteSubscriber(s.workspace_id, s.page_id, s.id);
};

/** The mail event of a published incident's update (drafts never mail anyone). */
export const mailEventOf = (i: Incident, u: IncidentUpdate): IncidentMailEvent | undefined =>
  i.published
    ? {
        id: u.id,
        workspace_id: i.workspace_id,
        page_id: i.page_id,
        incident_id: i.id,
        created_at: u.created_at,
      }
    : undefined;

export interface OutgoingSubscriberMail {
  to: string;
  subject: string;
  text: string;
  headers: Record<string, string>;
}

/** Sends one mail through the workspace's mail route; permanent: retrying will not help. */
export type SubscriberMailer = (
  workspaceId: string,
  mail: OutgoingSubscriberMail,
) => Promise<{ ok: boolean; permanent: boolean; error: string | null }>;

const STATUS_WORDS: Record<string, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

/** What a subscriber reads: pure, so its wording is tested alone. */
export const renderIncidentMail = (
  page: StatusPage,
  incident: Incident,
  update: IncidentUpdate,
  pageUrl: string,
  unsubscribeUrl: string,
) => {
  const first = incident.updates[0]?.id === update.id;
  const what = first ? 'New incident' : update.status === 'resolved' ? 'Resolved' : 'Update';
  return {
    subject: `[${page.name}] ${what}: ${incident.title}`,
    text: [
      `${incident.title}`,
      `${STATUS_WORDS[update.status]}: ${update.message}`,
      '',
      `Status page: ${pageUrl}`,
      '',
      `You get this because you subscribed to ${page.name}. Unsubscribe: ${unsubscribeUrl}`,
    ].join('\n'),
  };
};

/**
 * Anyone may subscribe any address, and a page's name is whatever its author typed: the subject is
 * fixed and the name appears only quoted in the body, beside the page's address.
 */
export const renderConfirmMail = (page: StatusPage, pageUrl: string, confirmUrl: string) => ({
  subject: 'Confirm your status page subscription',
  text: [
    `Someone (hopefully you) asked to get incident updates from the status page "${page.name}" (${pageUrl}) by mail at this address.`,
    '',
    `Confirm within 48 hours: ${confirmUrl}`,
    '',
    'If it was not you, ignore this mail: nothing more will be sent.',
  ].join('\n'),
});

/**
 * The subscribers' outbox, run by the `status-page-mail` job on every replica: events fan out into one
 * mail per subscriber (idempotent by id), then each due mail is claimed by compare-and-set with a
 * lease, sent, and removed. At least once: a replica that dies between sending and removing leaves
 * the mail to be sent again when its lease ends; never twice while a replica lives.
 */
export const sendSubscriberMails = async (deps: {
  store: StatusSubscriberStore & Pick<StatusPageStore, 'getStatusPage' | 'getIncident'>;
  box: SecretBox;
  send: SubscriberMailer;
  /** The page's public address (its custom domain, or /status/{slug} on its workspace host). */
  pageUrl(page: StatusPage): Promise<string>;
  now: Date;
  onError?: (err: unknown, mail: SubscriberMail) => void;
}) => {
  const { store, now } = deps;
  for (const e of await store.listMailEvents(100)) await store.fanOutMailEvent(e, now);
  let sent = 0;
  for (const m of await store.listDueMails(now, 100)) {
    if (!(await store.claimMail(m, new Date(now.getTime() + MAIL_LEASE_MS)))) continue;
    try {
      const result = await sendOne(deps, m);
      if (result === 'gone' || result.ok || result.permanent || m.attempts + 1 >= MAX_ATTEMPTS) {
        await store.finishMail(m.id);
        if (result !== 'gone' && result.ok) sent++;
      } else await store.retryMail(m.id, new Date(now.getTime() + 2 ** m.attempts * 30_000));
    } catch (err) {
      deps.onError?.(err, m);
    }
  }
  return sent;
};

const sendOne = async (deps: Parameters<typeof sendSubscriberMails>[0], m: SubscriberMail) => {
  const { store } = deps;
  const s: StatusSubscriber | null = await store.getSubscriber(m.workspace_id, m.page_id, m.subscriber_id);
  const page = await store.getStatusPage(m.workspace_id, m.page_id);
  if (!s || !page) return 'gone' as const;
  const url = await deps.pageUrl(page);
  const unsubscribeUrl = `${url}/unsubscribe?token=${encodeURIComponent(
    deps.box.open(s.unsubscribe_sealed, unsubscribeContext(s.id)),
  )}`;
  const headers = {
    'List-Unsubscribe': `<${unsubscribeUrl}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
  if (m.kind === 'confirm') {
    if (s.status !== 'pending') return 'gone' as const;
    // The token is made as the mail goes out and only its hash is kept: a resend replaces it.
    const token = randomToken('', 32);
    await store.setConfirmToken(s.id, hashSecret(token), new Date(deps.now.getTime() + CONFIRM_TTL_MS));
    const r = renderConfirmMail(page, url, `${url}/subscribe/confirm?token=${encodeURIComponent(token)}`);
    return deps.send(m.workspace_id, { to: s.email, ...r, headers: {} });
  }
  const incident = await store.getIncident(m.workspace_id, m.page_id, m.incident_id ?? '');
  const update = incident?.updates.find((u) => u.id === m.update_id);
  if (!incident || !update || !incident.published || s.status !== 'confirmed') return 'gone' as const;
  const r = renderIncidentMail(page, incident, update, url, unsubscribeUrl);
  return deps.send(m.workspace_id, { to: s.email, ...r, headers });
};

export const loadSubscriber = async (
  store: StatusSubscriberStore,
  workspaceId: string,
  pageId: string,
  id: string,
) => {
  const s = await store.getSubscriber(workspaceId, pageId, id);
  if (!s) throw new AppError('not_found', 'Subscriber not found.');
  return s;
};
