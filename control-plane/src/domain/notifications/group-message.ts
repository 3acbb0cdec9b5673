import type { Alert } from '../types.js';
import { type MessageContext, type OutgoingMessage, readableTime } from './messages.js';

/** A summary names at most this many alerts; it counts the rest and links to the list. */
export const GROUP_LIST_MAX = 10;

/** One alert a summary tells about: raised (a step), acknowledged or resolved (a follow-up). */
export interface GroupEntry {
  alert: Alert;
  event: 'raised' | 'acknowledged' | 'resolved';
  /** What raised it, by name, with its page (message-context.ts). */
  source: MessageContext['source'];
}

const cut = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

const RANK = { critical: 0, warning: 1, info: 2 } as const;

/**
 * The one message a channel gets for a burst of alerts on one escalation policy (group-window.ts): how
 * many were raised, acknowledged and resolved, the first `GROUP_LIST_MAX` by name with their cause and
 * link, "and K more" with a link to the list of open alerts, and one acknowledge link (`ackUrl`) for
 * every open alert it names. Webhooks get `alerts.notification` with the same parts as data.
 */
export const groupMessage = (
  ctx: Pick<MessageContext, 'subdomain' | 'appUrl'>,
  policy: { name: string } | null,
  entries: GroupEntry[],
  deliveryId: string,
  now: Date,
  ackUrl: string | null,
): OutgoingMessage => {
  const count = (e: GroupEntry['event']) => entries.filter((x) => x.event === e).length;
  const raised = count('raised');
  const resolved = count('resolved');
  const acknowledged = count('acknowledged');
  const parts = [
    raised ? `${raised} raised` : '',
    acknowledged ? `${acknowledged} acknowledged` : '',
    resolved ? `${resolved} resolved` : '',
  ].filter(Boolean);
  const worst = entries
    .filter((e) => e.event === 'raised')
    .reduce<Alert['severity'] | null>(
      (w, e) => (w === null || RANK[e.alert.severity] < RANK[w] ? e.alert.severity : w),
      null,
    );
  const on = policy ? ` on “${policy.name}”` : '';
  const subject =
    raised === entries.length
      ? `[Lookout ${ctx.subdomain}] ${worst!.toUpperCase()}: ${raised} alerts raised${on}`
      : `[Lookout ${ctx.subdomain}] ${entries.length} alerts${on}: ${parts.join(', ')}`;
  const url = (a: Pick<Alert, 'id'>) => (ctx.appUrl ? `${ctx.appUrl}/alerts/${a.id}` : `alert ${a.id}`);
  // Raised first (what needs doing), then the rest, each in the order it happened.
  const ordered = [...entries].sort(
    (a, b) => (a.event === 'raised' ? 0 : 1) - (b.event === 'raised' ? 0 : 1),
  );
  const named = ordered.slice(0, GROUP_LIST_MAX);
  const more = entries.length - named.length;
  const listUrl = ctx.appUrl ? `${ctx.appUrl}/alerts?status=open` : null;
  const openIds = entries.filter((e) => e.event === 'raised').map((e) => e.alert.id);
  const line = (e: GroupEntry) => {
    const tag = e.event === 'raised' ? e.alert.severity.toUpperCase() : e.event.toUpperCase();
    const cause = e.alert.description ? ` (${cut(e.alert.description.split('\n')[0]!, 120)})` : '';
    // The dependents an alert holds back (domain/dependencies/), as the single message says them too.
    const held = (e.alert.held_back ?? 0) > 0 ? `, holding back ${e.alert.held_back} dependents` : '';
    return `• ${tag} ${cut(e.alert.title, 160)}${cause}${held}: ${url(e.alert)}`;
  };
  const text = [
    `${parts.join(', ')}${on} since ${readableTime(entries[0]!.alert.created_at)}.`,
    '',
    ...named.map(line),
    more > 0 ? `…and ${more} more${listUrl ? `: ${listUrl}` : '.'}` : null,
    '',
    openIds.length === 0
      ? null
      : ackUrl
        ? `One acknowledge acknowledges all ${openIds.length} raised here.`
        : `Acknowledge them all: POST /api/v1/alerts/acknowledge {"UUIDs": [the ${openIds.length} ids]}`,
  ]
    .filter((l) => l !== null)
    .join('\n')
    .trim();
  const first = named[0]!.alert;
  return {
    event: raised > 0 ? 'raised' : resolved === entries.length ? 'resolved' : 'acknowledged',
    subject,
    text,
    dedup_key: deliveryId,
    alert: {
      id: first.id,
      title: subject.replace(/^\[Lookout [^\]]*\]\s*/, ''),
      description: null,
      severity: worst ?? first.severity,
      status: raised > 0 ? 'open' : resolved === entries.length ? 'resolved' : 'acknowledged',
      source: policy ? `Escalation policy “${policy.name}”` : 'Lookout',
      created_at: first.created_at.toISOString(),
    },
    links: {
      ...(ackUrl && openIds.length > 0 ? { acknowledge: ackUrl } : {}),
      ...(listUrl ? { alert: listUrl } : {}),
    },
    payload: {
      event: 'alerts.notification',
      delivery_id: deliveryId,
      sent_at: now.toISOString(),
      workspace: ctx.subdomain,
      policy: policy?.name ?? null,
      counts: { raised, acknowledged, resolved, total: entries.length },
      alerts: named.map((e) => ({
        id: e.alert.id,
        event: e.event,
        title: e.alert.title,
        description: e.alert.description,
        severity: e.alert.severity,
        status: e.alert.status,
        source_name: e.source.label,
        source_type: e.alert.source_type,
        source_id: e.alert.source_id,
        cause: e.alert.cause,
        created_at: e.alert.created_at.toISOString(),
        url: ctx.appUrl ? `${ctx.appUrl}/alerts/${e.alert.id}` : null,
      })),
      more,
      alerts_url: listUrl,
      ...(ackUrl && openIds.length > 0 ? { ack_url: ackUrl } : {}),
    },
  };
};
