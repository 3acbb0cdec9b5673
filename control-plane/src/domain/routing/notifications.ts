import type { Alert, EscalationProgress, NotificationChannel, User, Workspace } from '../types.js';

/**
 * Where one notification goes: a kind (a channel type, notify/kinds/) and that kind's config, opened
 * (secrets readable). Built from a user (email) or a channel. An email names its workspace, whose own
 * SMTP server it goes through when it has one (none: the deployment's).
 */
export interface Target {
  kind: string;
  /** The kind's config as its schema parsed it (without `type`). */
  config: Record<string, unknown>;
  workspace_id?: string | undefined;
  /** Webhooks: the HMAC signing secret. */
  signing_secret?: string | null;
  /**
   * The address it is sent to is the operator's configuration (a contact method's Twilio, Telegram
   * or Pushover API URL), not a user's: the guard against private destinations does not apply.
   */
  operator_address?: boolean;
}

/** What a notification is about: an alert raised (an escalation step), acknowledged or resolved, or a test. */
export type NotifyEvent = 'raised' | 'acknowledged' | 'resolved' | 'test';
/** The events after the first that a kind may follow an alert with. */
export type FollowEvent = 'acknowledged' | 'resolved';

/**
 * One notification as the escalation composed it. Every kind renders from this, never from the
 * records: `subject` (one line) and `text` (the body) for people, `payload` for webhooks, `alert` for
 * kinds with their own fields (PagerDuty's severity, a card's title).
 */
export interface OutgoingMessage {
  event: NotifyEvent;
  subject: string;
  text: string;
  /** The webhook body. */
  payload: unknown;
  /**
   * The key a remote incident is kept under (PagerDuty `dedup_key`, Opsgenie `alias`): the alert's
   * uuid, or for a test its delivery id, so every event of one alert reaches the same incident.
   */
  dedup_key: string;
  /** The alert as the message tells it; null for a test. */
  alert: {
    id: string;
    title: string;
    description: string | null;
    severity: Alert['severity'];
    status: Alert['status'];
    source: string;
    created_at: string;
  } | null;
  /**
   * Links a reader can follow: the recipient's own one-click acknowledge link
   * (domain/alerts/ack-links.ts) on notifications of a raised alert. Each kind's rendering shows it;
   * it is a secret of that recipient.
   */
  links?: { acknowledge?: string | undefined };
  /**
   * What follows an alert on a channel: the service's id of the raised message there, when it gave
   * one, to reply to (Telegram, Matrix) or edit in place (Discord).
   */
  reply_to?: string | null;
}

export interface Attempt {
  ok: boolean;
  permanent: boolean;
  status_code: number | null;
  error: string | null;
  /** The service asked to wait this long before the next attempt (Retry-After). */
  retry_after_ms?: number | null;
  /** The start of the service's answer. */
  response?: string | null;
  /** The service's id of the message it accepted (Telegram message_id, Discord id, Matrix event_id). */
  remote_id?: string | null;
}

/**
 * Sends one notification with retries; reports every attempt. `maxAttempts` caps the configured
 * attempts for this call (a channel test sends exactly one). Implemented in notify/dispatcher.ts.
 */
export interface Dispatcher {
  send(
    target: Target,
    message: OutgoingMessage,
    deliveryId: string | null,
    onAttempt: (n: number, result: Attempt, willRetry: boolean) => Promise<void>,
    opts?: { maxAttempts?: number },
  ): Promise<Attempt>;
  /** How a target appears in the delivery log: an address, a URL's origin; never a secret. */
  describe(target: Target): string;
  /** The events after "raised" this kind is told about (PagerDuty: acknowledged and resolved). */
  follows(kind: string): readonly FollowEvent[];
}

/** Whether a failed attempt is the kind a real notification retries (network errors, 429, 5xx, SMTP 4xx). */
export const retryable = (a: Attempt) => !a.ok && !a.permanent;

/** A channel as a target; `config` must hold its secrets opened (see channels.ts `openChannel`). */
export const channelTarget = (c: NotificationChannel): Target => {
  const { type: _t, ...config } = c.config;
  return { kind: c.type, config, workspace_id: c.workspace_id, signing_secret: c.secret };
};

/** A user's email address as a target. */
export const emailTarget = (to: string[], workspaceId: string | undefined): Target => ({
  kind: 'email',
  config: { addresses: to },
  workspace_id: workspaceId,
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const alertSummary = (alert: Alert): NonNullable<OutgoingMessage['alert']> => ({
  id: alert.id,
  title: alert.title,
  description: alert.description,
  severity: alert.severity,
  status: alert.status,
  source: `${alert.source_type} ${alert.source_id}`,
  created_at: alert.created_at.toISOString(),
});

const alertPayload = (alert: Alert) => ({
  id: alert.id,
  title: alert.title,
  description: alert.description,
  severity: alert.severity,
  status: alert.status,
  source_type: alert.source_type,
  source_id: alert.source_id,
  cause: alert.cause,
  dedup_key: alert.dedup_key,
  created_at: iso(alert.created_at),
});

/** The message of one escalation step. Webhook receivers get the alert as the API shows it. */
export const alertMessage = (
  workspace: Pick<Workspace, 'subdomain'>,
  alert: Alert,
  progress: Pick<EscalationProgress, 'step' | 'round'>,
  deliveryId: string,
  now: Date,
  ackUrl: string | null = null,
): OutgoingMessage => {
  const sev = alert.severity.toUpperCase();
  const subject = `[Lookout ${workspace.subdomain}] ${sev}: ${alert.title}`;
  const text = [
    `${alert.title}`,
    alert.description ?? '',
    '',
    `Alert ${alert.id} (${alert.source_type} ${alert.source_id}, cause ${alert.cause}) raised ${alert.created_at.toISOString()}.`,
    `Escalation step ${progress.step + 1}${progress.round > 0 ? `, repeat ${progress.round}` : ''}.`,
    // With a link, each kind shows it its own way (a button, a tap, a line): links.acknowledge.
    ackUrl ? null : `Acknowledge: POST /api/v1/alerts/acknowledge {"UUIDs": ["${alert.id}"]}`,
  ]
    .filter((l, i) => l !== null && (i !== 1 || l !== ''))
    .join('\n');
  return {
    event: 'raised',
    subject,
    text,
    dedup_key: alert.id,
    alert: alertSummary(alert),
    ...(ackUrl ? { links: { acknowledge: ackUrl } } : {}),
    payload: {
      event: 'alert.notification',
      delivery_id: deliveryId,
      sent_at: now.toISOString(),
      workspace: workspace.subdomain,
      step: progress.step,
      round: progress.round,
      alert: alertPayload(alert),
      ...(ackUrl ? { ack_url: ackUrl } : {}),
    },
  };
};

/** The short message that follows an alert a kind was told about: it was acknowledged, or resolved. */
export const followUpMessage = (
  workspace: Pick<Workspace, 'subdomain'>,
  alert: Alert,
  event: FollowEvent,
  deliveryId: string,
  now: Date,
  replyTo: string | null = null,
): OutgoingMessage => {
  const word = event === 'resolved' ? 'RESOLVED' : 'ACKNOWLEDGED';
  const at = event === 'resolved' ? alert.resolved_at : alert.acknowledged_at;
  return {
    event,
    subject: `[Lookout ${workspace.subdomain}] ${word}: ${alert.title}`,
    text: `${alert.title} was ${event} at ${(at ?? now).toISOString()}.\nAlert ${alert.id}.`,
    dedup_key: alert.id,
    alert: alertSummary(alert),
    reply_to: replyTo,
    payload: {
      event: `alert.${event}`,
      delivery_id: deliveryId,
      sent_at: now.toISOString(),
      workspace: workspace.subdomain,
      alert: {
        ...alertPayload(alert),
        acknowledged_at: iso(alert.acknowledged_at),
        resolved_at: iso(alert.resolved_at),
      },
    },
  };
};

export const testMessage = (
  workspace: Pick<Workspace, 'subdomain'>,
  channel: Pick<NotificationChannel, 'id' | 'name'>,
  by: Pick<User, 'email'>,
  deliveryId: string,
  now: Date,
): OutgoingMessage => ({
  event: 'test',
  subject: `[Lookout ${workspace.subdomain}] Test notification for ${channel.name}`,
  text: `This is a test notification from Lookout, sent by ${by.email} to channel "${channel.name}". Nothing is wrong.`,
  dedup_key: deliveryId,
  alert: null,
  payload: {
    event: 'test',
    delivery_id: deliveryId,
    sent_at: now.toISOString(),
    workspace: workspace.subdomain,
    channel: { id: channel.id, name: channel.name },
  },
});
