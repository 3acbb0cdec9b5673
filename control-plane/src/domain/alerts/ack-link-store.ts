import type { ChannelType } from '../types.js';

/**
 * A one-click acknowledge link, as stored: made for one recipient of one notification of one alert.
 * Only the SHA-256 of its token is kept; the token itself is in the message and nowhere else.
 */
export interface AckLink {
  id: string;
  workspace_id: string;
  alert_id: string;
  /**
   * A grouped message's link: every alert it named (`alert_id` is the first), all acknowledged by one
   * press. Null: `alert_id` alone.
   */
  alert_ids: string[] | null;
  token_hash: string;
  /** The user the link was sent to, or null when it went to a channel. */
  user_id: string | null;
  /** The channel it went through, or null for a user's own address. */
  channel_id: string | null;
  /** How it was sent: the channel's kind (`email` for a user's mail). */
  via: ChannelType;
  /** The recipient as the delivery log shows it (an address, a URL's origin), never a secret. */
  recipient: string;
  created_at: Date;
  expires_at: Date;
}

/** Acknowledge links. Adapters: store/sqlite/ack-links.ts, store/mongo/ack-links.ts. */
export interface AckLinkStore {
  insertAckLink(link: AckLink): Promise<void>;
  /** The link whose token hashes to `tokenHash` (one indexed read), or null. */
  findAckLink(tokenHash: string): Promise<AckLink | null>;
  /** Deletes up to `limit` links that expired before `before`; returns how many. */
  pruneAckLinks(before: Date, limit: number): Promise<number>;
}
