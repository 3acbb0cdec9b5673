import type { Alert, NotificationChannel, User, Workspace } from '../types.js';

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
   * (domain/alerts/ack-links.ts) on notifications of a raised alert (each kind's rendering shows it;
   * it is a secret of that recipient), and the alert's page in the web app (also in `text`).
   */
  links?: { acknowledge?: string | undefined; alert?: string | undefined };
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
  /** How this kind takes a burst of alerts: one summary per group window, or one message each. */
  grouping(kind: string): 'summary' | 'per_alert';
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

/**
 * What a message names besides the alert, looked up by the escalation runner: the workspace, its web
 * app for links (public-url.ts), and the alert's source by name.
 */
export interface MessageContext {
  subdomain: string;
  /** The workspace's web app, `https://acme.example.com`; null when not known (then the uuid is named). */
  appUrl: string | null;
  /** What raised the alert, by name (`Monitor “Home page”`), and its page in the web app if it has one. */
  source: { label: string; path: string | null };
}

/** A context from the workspace alone: the source by type and id (tests, and when nothing is known). */
export const bareContext = (
  subdomain: string,
  alert: Pick<Alert, 'source_type' | 'source_id'>,
): MessageContext => ({
  subdomain,
  appUrl: null,
  source: { label: `${alert.source_type} ${alert.source_id}`, path: null },
});

/** `2026-06-01 12:00 UTC`: readable, and the same for every reader wherever they are. */
export const readableTime = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** A duration as people say it, the two largest units: `45s`, `4m 12s`, `2h 5m`, `3d 1h`. */
export const formatDuration = (ms: number): string => {
  const s = Math.max(0, Math.round(ms / 1000));
  const units: [number, string][] = [
    [Math.floor(s / 86_400), 'd'],
    [Math.floor(s / 3600) % 24, 'h'],
    [Math.floor(s / 60) % 60, 'm'],
    [s % 60, 's'],
  ];
  const first = units.findIndex(([n]) => n > 0);
  if (first < 0) return '0s';
  return units
    .slice(first, first + 2)
    .filter(([n], i) => i === 0 || n > 0)
    .map(([n, u]) => `${n}${u}`)
    .join(' ');
};

/** The alert's page in the web app, or null. */
const alertUrl = (ctx: MessageContext, alert: Pick<Alert, 'id'>) =>
  ctx.appUrl ? `${ctx.appUrl}/alerts/${alert.id}` : null;

/** "Monitor “Home page”: https://…/monitors/…" or the label alone. */
const sourceLine = (ctx: MessageContext) =>
  ctx.appUrl && ctx.source.path ? `${ctx.source.label}: ${ctx.appUrl}${ctx.source.path}` : ctx.source.label;

/** The link back to the alert, or its uuid when there is no web app address. */
const alertLine = (ctx: MessageContext, alert: Pick<Alert, 'id'>) => {
  const url = alertUrl(ctx, alert);
  return url ? `Open in Lookout: ${url}` : `Alert ${alert.id}.`;
};

const alertSummary = (ctx: MessageContext, alert: Alert): NonNullable<OutgoingMessage['alert']> => ({
  id: alert.id,
  title: alert.title,
  description: alert.description,
  severity: alert.severity,
  status: alert.status,
  source: ctx.source.label,
  created_at: alert.created_at.toISOString(),
});

const alertPayload = (ctx: MessageContext, alert: Alert) => ({
  id: alert.id,
  title: alert.title,
  description: alert.description,
  severity: alert.severity,
  status: alert.status,
  source_type: alert.source_type,
  source_id: alert.source_id,
  source_name: ctx.source.label,
  cause: alert.cause,
  dedup_key: alert.dedup_key,
  created_at: iso(alert.created_at),
  url: alertUrl(ctx, alert),
});

/** How many dependents the alert holds back (domain/dependencies/), when any; null otherwise. */
const heldBackLine = (alert: Alert) =>
  (alert.held_back ?? 0) > 0
    ? `Holding back ${alert.held_back} dependent${alert.held_back === 1 ? '' : 's'}: they are down too, and raise no alerts of their own while this is down.`
    : null;

/** Where an escalation step stands, as the message tells it. */
export interface StepInfo {
  step: number;
  round: number;
  /** The policy's name and how many steps it has, when known. */
  policy?: { name: string; steps: number } | undefined;
}

const stepLine = (p: StepInfo) => {
  const of = p.policy
    ? ` of ${p.policy.steps} in escalation policy “${p.policy.name}”`
    : ' of its escalation';
  return `Notified at step ${p.step + 1}${of}${p.round > 0 ? `, repeat ${p.round}` : ''}.`;
};

/** The message of one escalation step. Webhook receivers get the alert as the API shows it. */
export const alertMessage = (
  ctx: MessageContext,
  alert: Alert,
  progress: StepInfo,
  deliveryId: string,
  now: Date,
  ackUrl: string | null = null,
): OutgoingMessage => {
  const sev = alert.severity.toUpperCase();
  const subject = `[Lookout ${ctx.subdomain}] ${sev}: ${alert.title}`;
  const text = [
    `${alert.title}`,
    alert.description ?? '',
    '',
    sourceLine(ctx),
    `Raised ${readableTime(alert.created_at)}.`,
    heldBackLine(alert),
    stepLine(progress),
    alertLine(ctx, alert),
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
    alert: alertSummary(ctx, alert),
    links: {
      ...(ackUrl ? { acknowledge: ackUrl } : {}),
      ...(alertUrl(ctx, alert) ? { alert: alertUrl(ctx, alert)! } : {}),
    },
    payload: {
      event: 'alert.notification',
      delivery_id: deliveryId,
      sent_at: now.toISOString(),
      workspace: ctx.subdomain,
      step: progress.step,
      round: progress.round,
      alert: alertPayload(ctx, alert),
      ...(ackUrl ? { ack_url: ackUrl } : {}),
    },
  };
};

/**
 * The message that follows an alert a kind was told about: it was acknowledged (by whom), or resolved
 * (by whom, and how long it lasted: raised → resolved). `by` names who did it; null: not known.
 */
export const followUpMessage = (
  ctx: MessageContext,
  alert: Alert,
  event: FollowEvent,
  deliveryId: string,
  now: Date,
  replyTo: string | null = null,
  by: string | null = null,
): OutgoingMessage => {
  const resolved = event === 'resolved';
  const at = (resolved ? alert.resolved_at : alert.acknowledged_at) ?? now;
  const lastedMs = at.getTime() - alert.created_at.getTime();
  const lasted = formatDuration(lastedMs);
  const who = by ? ` by ${by}` : '';
  const text = [
    resolved
      ? `Resolved${who} at ${readableTime(at)}. It lasted ${lasted} (raised ${readableTime(alert.created_at)}).`
      : `Acknowledged${who} at ${readableTime(at)}, ${lasted} after it was raised: its escalation has stopped.`,
    sourceLine(ctx),
    alertLine(ctx, alert),
  ].join('\n');
  const url = alertUrl(ctx, alert);
  return {
    event,
    subject: resolved
      ? `[Lookout ${ctx.subdomain}] RESOLVED after ${lasted}: ${alert.title}`
      : `[Lookout ${ctx.subdomain}] ACKNOWLEDGED: ${alert.title}`,
    text,
    dedup_key: alert.id,
    alert: alertSummary(ctx, alert),
    ...(url ? { links: { alert: url } } : {}),
    reply_to: replyTo,
    payload: {
      event: `alert.${event}`,
      delivery_id: deliveryId,
      sent_at: now.toISOString(),
      workspace: ctx.subdomain,
      alert: {
        ...alertPayload(ctx, alert),
        acknowledged_at: iso(alert.acknowledged_at),
        resolved_at: iso(alert.resolved_at),
        ...(resolved ? { duration_seconds: Math.max(0, Math.round(lastedMs / 1000)) } : {}),
      },
      ...(by ? { by } : {}),
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
