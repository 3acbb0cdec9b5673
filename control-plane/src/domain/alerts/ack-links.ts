import { digestsEqual, hashSecret, newId, randomToken } from '@lookout/shared';
import { hasRole } from '../tenancy/roles.js';
import type { TenancyStore } from '../tenancy/tenancy-store.js';
import type { Actor, Alert, ChannelType } from '../types.js';
import type { AckLink, AckLinkStore } from './ack-link-store.js';
import type { AlertStore } from './alert-store.js';

/**
 * One-click acknowledge. Every notification of a raised alert carries a link made for its recipient:
 * `<workspace URL>/ack/<alert id>?token=<token>`, where the token is 256 random bits, stored only as
 * its SHA-256 (like API keys), looked up by that hash and compared in constant time. The link
 * acknowledges that one alert and nothing else, as its recipient (the timeline says who and through
 * which channel). It dies when the alert is resolved, and after `ACK_LINK_DAYS` in any case; an
 * alert already acknowledged says so. Opening it (GET) only shows a page: the page's button POSTs the
 * token back, so mail scanners that follow links acknowledge nothing (http/ack-page.ts).
 */
export const ACK_LINK_DAYS = 30;
/** The role `POST /alerts/acknowledge` asks for; a link never does more than its user could. */
export const ACK_ROLE = 'member' as const;
const TOKEN_PREFIX = 'ack.';

export interface AckRecipient {
  user_id: string | null;
  channel_id: string | null;
  via: ChannelType;
  recipient: string;
}

/** The path of a link, below the workspace's base URL. The token is in the query: the access log records paths only. */
export const ackLinkPath = (alertId: string, token: string) =>
  `/ack/${alertId}?token=${encodeURIComponent(token)}`;

/** Makes and stores a link for `to` to acknowledge `alert`; returns the token (to put in the message, never log). */
export const mintAckLink = async (
  store: AckLinkStore,
  alert: Pick<Alert, 'id' | 'workspace_id'>,
  to: AckRecipient,
  now: Date,
  /** A grouped message's link: every alert it names (the first is `alert`). */
  alertIds: string[] | null = null,
): Promise<string> => {
  const token = randomToken(TOKEN_PREFIX);
  await store.insertAckLink({
    id: newId(),
    workspace_id: alert.workspace_id,
    alert_id: alert.id,
    alert_ids: alertIds,
    token_hash: hashSecret(token),
    ...to,
    created_at: now,
    expires_at: new Date(now.getTime() + ACK_LINK_DAYS * 86_400_000),
  });
  return token;
};

/** Who acknowledged through a link: the recipient it was made for, and how it reached them. */
export const linkActor = (link: AckLink): Actor => ({
  type: 'link',
  user_id: link.user_id,
  channel_id: link.channel_id,
  via: link.via,
  recipient: link.recipient,
});

export type AckLinkState =
  /** Unknown token, another alert's or workspace's token, or expired. */
  | { state: 'invalid' }
  /** A good link whose user may no longer acknowledge: the role they have now is read, not the one they had when it was sent. */
  | { state: 'not_allowed' }
  | { state: 'open'; alert: Alert; link: AckLink }
  | { state: 'acknowledged'; alert: Alert; link: AckLink }
  | { state: 'resolved'; alert: Alert; link: AckLink };

/** What a link is worth now, for this workspace and this alert only. */
export const checkAckLink = async (
  store: AckLinkStore & AlertStore & TenancyStore,
  workspaceId: string,
  alertId: string,
  token: string | undefined,
  now: Date,
): Promise<AckLinkState> => {
  if (!token?.startsWith(TOKEN_PREFIX) || token.length > 200) return { state: 'invalid' };
  const hash = hashSecret(token);
  const link = await store.findAckLink(hash);
  if (
    !link ||
    !digestsEqual(link.token_hash, hash) ||
    link.workspace_id !== workspaceId ||
    link.alert_id !== alertId.toLowerCase() ||
    link.expires_at.getTime() <= now.getTime()
  )
    return { state: 'invalid' };
  // A link made for a user who has since been removed from the workspace acts for nobody; one made for
  // a user who has since become a viewer acts with the viewer's rights, which do not include acknowledging.
  if (link.user_id) {
    const user = await store.getUser(workspaceId, link.user_id);
    if (!user) return { state: 'invalid' };
    if (!hasRole(user.role, ACK_ROLE)) return { state: 'not_allowed' };
  }
  const alert = await store.getAlert(workspaceId, link.alert_id);
  if (!alert) return { state: 'invalid' };
  return { state: alert.status, alert, link };
};

/**
 * The button: acknowledges the alert as the link's recipient if the link is still good (compare-and-set).
 * A grouped message's link acknowledges every alert it named that is still open (`acknowledged`: how
 * many this press acknowledged), each by its own compare-and-set.
 */
export const useAckLink = async (
  store: AckLinkStore & AlertStore & TenancyStore,
  workspaceId: string,
  alertId: string,
  token: string | undefined,
  now: Date,
): Promise<AckLinkState & { done?: boolean; acknowledged?: number }> => {
  const checked = await checkAckLink(store, workspaceId, alertId, token, now);
  if (checked.state === 'invalid' || checked.state === 'not_allowed') return checked;
  let acknowledged = 0;
  for (const id of (checked.link.alert_ids ?? []).slice(1)) {
    const other = await store.acknowledgeAlert(workspaceId, id, linkActor(checked.link), now);
    if (other.outcome === 'acknowledged') acknowledged++;
  }
  if (checked.state !== 'open')
    return acknowledged > 0
      ? { state: 'acknowledged', alert: checked.alert, link: checked.link, done: true, acknowledged }
      : checked;
  const r = await store.acknowledgeAlert(workspaceId, checked.alert.id, linkActor(checked.link), now);
  if (r.outcome === 'acknowledged') acknowledged++;
  if (r.outcome === 'acknowledged' && r.alert)
    return { state: 'acknowledged', alert: r.alert, link: checked.link, done: true, acknowledged };
  if (r.alert && (r.outcome === 'already_acknowledged' || r.outcome === 'already_resolved'))
    return {
      state: r.outcome === 'already_acknowledged' ? 'acknowledged' : 'resolved',
      alert: r.alert,
      link: checked.link,
    };
  return { state: 'invalid' };
};
