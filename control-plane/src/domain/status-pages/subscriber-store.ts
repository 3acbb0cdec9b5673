import type { Page, PageQuery } from '../types.js';

export const SUBSCRIBER_STATUSES = ['pending', 'confirmed'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

/**
 * A reader who subscribed to a page by email (double opt-in: `pending` until the link in the
 * confirmation mail is followed). Personal data: only admins see the address, and they can delete it.
 */
export interface StatusSubscriber {
  id: string;
  workspace_id: string;
  page_id: string;
  /** Lower case; unique per page. */
  email: string;
  status: SubscriberStatus;
  /** SHA-256 of the confirmation token in the newest confirmation mail; null once used (or before). */
  confirm_hash: string | null;
  confirm_expires_at: Date | null;
  /** When a confirmation mail was last queued: at most one per address and page per window. */
  confirm_sent_at: Date | null;
  /** SHA-256 of the unsubscribe token (the lookup, compared in constant time). */
  unsubscribe_hash: string;
  /** The same token sealed (secret-box.ts): every mail carries it, so it is read back to write them. */
  unsubscribe_sealed: string;
  created_at: Date;
  confirmed_at: Date | null;
}

/**
 * One mail to send (the outbox): a confirmation, or one incident update to one subscriber. The id is
 * the idempotency key (`confirm:<subscriber>`, `<subscriber>:<update>`), so queueing twice stores once.
 */
export interface SubscriberMail {
  id: string;
  workspace_id: string;
  page_id: string;
  subscriber_id: string;
  kind: 'confirm' | 'incident';
  incident_id: string | null;
  update_id: string | null;
  /** Due from then; a claim moves it forward by the lease (a crashed sender's mail comes due again). */
  due_at: Date;
  attempts: number;
  created_at: Date;
}

/**
 * An incident update subscribers are to hear of, written in the same store step as the update itself
 * (`insertIncident`/`updateIncident`), then fanned out into one `SubscriberMail` per subscriber.
 */
export interface IncidentMailEvent {
  /** The update's id. */
  id: string;
  workspace_id: string;
  page_id: string;
  incident_id: string;
  created_at: Date;
}

/**
 * The service-wide budget of confirmation mail to one mailbox (recipients.ts): at most `max` mails
 * queued in a window that started at or after `windowStart`; an older window starts afresh.
 */
export interface RecipientBudget {
  /** `recipientKey` of the address: the SHA-256 of its normalised form. */
  key: string;
  windowStart: Date;
  max: number;
}

/**
 * Subscribers and their outbox. Adapters: store/sqlite/status-subscribers.ts,
 * store/mongo/status-subscribers.ts; contract test/contract/status-subscribers.test.ts.
 */
export interface StatusSubscriberStore {
  /** Stores `s` unless the page has a subscriber with this email; returns the stored one either way. */
  addSubscriber(s: StatusSubscriber): Promise<StatusSubscriber>;
  getSubscriber(workspaceId: string, pageId: string, id: string): Promise<StatusSubscriber | null>;
  getSubscriberByUnsubscribeHash(hash: string): Promise<StatusSubscriber | null>;
  getSubscriberByConfirmHash(hash: string): Promise<StatusSubscriber | null>;
  /**
   * In one step: queues `mail` (a confirmation), sets `confirm_sent_at` to `now` and counts the mail in
   * the recipient's budget (a window starting at `now` when its last one started before
   * `budget.windowStart`), if the subscriber is pending, no confirmation was queued for it at or after
   * `since`, and the budget has room; false (nothing changed) otherwise.
   */
  requestConfirmation(
    subscriberId: string,
    now: Date,
    since: Date,
    mail: SubscriberMail,
    budget: RecipientBudget,
  ): Promise<boolean>;
  /** Replaces the pending subscriber's confirmation token (hash) and its expiry. */
  setConfirmToken(subscriberId: string, hash: string, expiresAt: Date): Promise<boolean>;
  /**
   * Confirms the pending subscriber of page `pageId` holding this token's hash if it has not expired;
   * single use. A token of another page confirms nothing and stays usable on its own page.
   */
  confirmSubscriber(confirmHash: string, pageId: string, now: Date): Promise<StatusSubscriber | null>;
  /** Deletes the subscriber and its queued mail. */
  deleteSubscriber(workspaceId: string, pageId: string, id: string): Promise<boolean>;
  /** Newest first. */
  listSubscribers(workspaceId: string, pageId: string, query: PageQuery): Promise<Page<StatusSubscriber>>;
  /** Confirmed subscribers of the page. */
  countSubscribers(workspaceId: string, pageId: string): Promise<number>;
  /** Deletes up to `limit` subscribers still pending that were created before `before`. */
  prunePendingSubscribers(before: Date, limit: number): Promise<number>;
  /** Deletes up to `limit` recipient budgets whose window started before `before` (they count nothing). */
  pruneRecipientBudgets(before: Date, limit: number): Promise<number>;

  /** Oldest first. */
  listMailEvents(limit: number): Promise<IncidentMailEvent[]>;
  /**
   * One step: a mail due at `now` for each subscriber of the event's page confirmed at or before the
   * event (ids `<subscriber>:<update>`, existing ones kept), and the event removed. Returns how many.
   */
  fanOutMailEvent(event: IncidentMailEvent, now: Date): Promise<number>;
  /** Due at or before `now`, oldest due first. */
  listDueMails(now: Date, limit: number): Promise<SubscriberMail[]>;
  /** Compare-and-set on `due_at`: moves it to `until` and counts an attempt; false when another took it. */
  claimMail(mail: SubscriberMail, until: Date): Promise<boolean>;
  /** Sent (or given up): removed. */
  finishMail(id: string): Promise<void>;
  retryMail(id: string, dueAt: Date): Promise<void>;
}
