import type { Alert, EscalationProgress, NotificationChannel, User, Workspace } from '../types.js';

/**
 * Where one notification goes, transport-shaped. Built from a user (email) or a channel. An email
 * names its workspace, whose own SMTP server it goes through when it has one (none: the deployment's).
 */
export type Target =
  | { kind: 'email'; to: string[]; workspace_id?: string }
  | { kind: 'webhook'; url: string; headers: Record<string, string>; secret: string | null }
  | { kind: 'slack'; url: string };

export interface OutgoingMessage {
  subject: string;
  text: string;
  /** The webhook body. */
  payload: unknown;
  /**
   * Links a reader can follow: the recipient's own one-click acknowledge link
   * (domain/alerts/ack-links.ts) on notifications of a raised alert. Each kind's rendering shows it;
   * it is a secret of that recipient.
   */
  links?: { acknowledge?: string | undefined };
}

export interface Attempt {
  ok: boolean;
  permanent: boolean;
  status_code: number | null;
  error: string | null;
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
}

/** Whether a failed attempt is the kind a real notification retries (network errors, 429, 5xx, SMTP 4xx). */
export const retryable = (a: Attempt) => !a.ok && !a.permanent;

export const channelTarget = (c: NotificationChannel): Target => {
  switch (c.config.type) {
    case 'email':
      return { kind: 'email', to: c.config.addresses, workspace_id: c.workspace_id };
    case 'webhook':
      return { kind: 'webhook', url: c.config.url, headers: c.config.headers, secret: c.secret };
    case 'slack':
      return { kind: 'slack', url: c.config.url };
  }
};

/** How a target appears in the delivery log: an address, or a URL's origin (paths of Slack URLs are secrets). */
export const targetLabel = (t: Target): string => {
  if (t.kind === 'email') return t.to.join(', ');
  try {
    const u = new URL(t.url);
    return t.kind === 'slack' ? `${u.origin}/…` : `${u.origin}${u.pathname}`;
  } catch {
    return 'invalid URL';
  }
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

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
    ackUrl
      ? `Acknowledge: ${ackUrl}`
      : `Acknowledge: POST /api/v1/alerts/acknowledge {"UUIDs": ["${alert.id}"]}`,
  ]
    .filter((l, i) => i !== 1 || l !== '')
    .join('\n');
  return {
    subject,
    text,
    ...(ackUrl ? { links: { acknowledge: ackUrl } } : {}),
    payload: {
      event: 'alert.notification',
      delivery_id: deliveryId,
      sent_at: now.toISOString(),
      workspace: workspace.subdomain,
      step: progress.step,
      round: progress.round,
      alert: {
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
      },
      ...(ackUrl ? { ack_url: ackUrl } : {}),
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
  subject: `[Lookout ${workspace.subdomain}] Test notification for ${channel.name}`,
  text: `This is a test notification from Lookout, sent by ${by.email} to channel "${channel.name}". Nothing is wrong.`,
  payload: {
    event: 'test',
    delivery_id: deliveryId,
    sent_at: now.toISOString(),
    workspace: workspace.subdomain,
    channel: { id: channel.id, name: channel.name },
  },
});
