import { z } from 'zod';
import type { Alert } from '../types.js';
import { freeText, nameText, oneLine, parseOrThrow } from '../validation.js';

/**
 * Inbound alert payloads → domain events. Pure: each parser validates one tool's payload (422 naming
 * every bad field) and returns the events it carries, in order. Our own webhook format is strict
 * (unknown fields are errors, as everywhere in the API); the tools' formats accept fields we do not
 * use, since Alertmanager, Grafana and PagerDuty clients add fields over time.
 */
export interface InboundEvent {
  action: 'trigger' | 'acknowledge' | 'resolve';
  dedup_key: string;
  /** For triggers; empty for acknowledge and resolve. */
  title: string;
  description: string | null;
  severity: Alert['severity'];
}

export const TITLE_MAX = 500;
export const DESCRIPTION_MAX = 20_000;
export const DEDUP_KEY_MAX = 255;
/**
 * Most alerts one Alertmanager or Grafana request may carry (a 422 naming `alerts` beyond). Each alert
 * is a few store operations; a bound keeps one request's work bounded. Alertmanager's `max_alerts`
 * (webhook_configs) keeps its groups under it.
 */
export const MAX_ALERTS_PER_REQUEST = 1000;

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/**
 * `JSON.stringify(value, null, 2)` cut at `max` characters (then `…`): rendered piece by piece with an
 * explicit stack, stopping once `max` is reached, so neither the work nor the output grows with the
 * square of the depth (indentation) or past the cap, however wide or deep an outside payload is.
 */
export const renderJson = (value: unknown, max: number): string => {
  interface Frame {
    items: unknown[] | Record<string, unknown>;
    keys: string[] | null;
    i: number;
    depth: number;
  }
  const stack: Frame[] = [];
  const parts: string[] = [];
  let size = 0;
  const emit = (s: string) => {
    parts.push(s);
    size += s.length;
    return size <= max;
  };
  /** A scalar, or the opening of a container (which is then walked from the stack). */
  const open = (v: unknown, depth: number): boolean => {
    if (Array.isArray(v)) {
      if (v.length === 0) return emit('[]');
      stack.push({ items: v, keys: null, i: 0, depth });
      return emit('[');
    }
    if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      if (keys.length === 0) return emit('{}');
      stack.push({ items: v as Record<string, unknown>, keys, i: 0, depth });
      return emit('{');
    }
    return emit(JSON.stringify(v) ?? 'null');
  };
  let going = open(value, 0);
  while (going && stack.length > 0) {
    const f = stack[stack.length - 1]!;
    const length = f.keys ? f.keys.length : (f.items as unknown[]).length;
    if (f.i === length) {
      stack.pop();
      going = emit(`\n${'  '.repeat(f.depth)}${f.keys ? '}' : ']'}`);
      continue;
    }
    const key = f.keys?.[f.i];
    const child = key !== undefined ? (f.items as Record<string, unknown>)[key] : (f.items as unknown[])[f.i];
    const lead = `${f.i === 0 ? '\n' : ',\n'}${'  '.repeat(f.depth + 1)}${key !== undefined ? `${JSON.stringify(key)}: ` : ''}`;
    f.i++;
    going = emit(lead) && open(child, f.depth + 1);
  }
  return clip(parts.join(''), max);
};

const severityOf = (raw: string | undefined, fallback: Alert['severity'] = 'critical'): Alert['severity'] => {
  switch ((raw ?? '').toLowerCase()) {
    case 'critical':
    case 'crit':
    case 'error':
    case 'err':
    case 'high':
    case 'page':
    case 'p1':
    case 'disaster':
      return 'critical';
    case 'warning':
    case 'warn':
    case 'medium':
    case 'average':
      return 'warning';
    case 'info':
    case 'informational':
    case 'low':
    case 'none':
    case 'notice':
      return 'info';
    default:
      return fallback;
  }
};

// ---- Generic webhook (ours) -------------------------------------------------------------------

export const webhookBody = z.strictObject({
  title: nameText(TITLE_MAX),
  description: freeText(DESCRIPTION_MAX, 'many').nullable().optional(),
  severity: z.enum(['critical', 'warning', 'info']).optional(),
  dedup_key: z.string().min(1).max(DEDUP_KEY_MAX).optional(),
});

/**
 * `{"title", "description"?, "severity"?, "dedup_key"?}`: always a trigger (a generic webhook has no
 * recovery signal; its alerts wait for POST /alerts/resolve). Without a dedup key every call opens a
 * new alert (`newKey` supplies one).
 */
export const parseWebhook = (body: unknown, newKey: () => string): InboundEvent[] => {
  const b = parseOrThrow(webhookBody, body);
  return [
    {
      action: 'trigger',
      dedup_key: b.dedup_key ?? newKey(),
      title: b.title,
      description: b.description ?? null,
      severity: b.severity ?? 'critical',
    },
  ];
};

// ---- Prometheus Alertmanager (webhook v4) and Grafana alerting -------------------------------

const labelMap = z.record(z.string(), z.string());

const amAlert = z.looseObject({
  status: z.enum(['firing', 'resolved']),
  labels: labelMap,
  annotations: labelMap.optional(),
  startsAt: z.string().optional(),
  endsAt: z.string().optional(),
  generatorURL: z.string().optional(),
  fingerprint: z.string().min(1).max(DEDUP_KEY_MAX),
});

export const alertmanagerBody = z.looseObject({
  version: z.literal('4'),
  status: z.enum(['firing', 'resolved']),
  receiver: z.string().optional(),
  externalURL: z.string().optional(),
  alerts: z.array(amAlert).min(1).max(MAX_ALERTS_PER_REQUEST),
});

const grafanaAlert = amAlert.extend({
  valueString: z.string().optional(),
  dashboardURL: z.string().optional(),
  panelURL: z.string().optional(),
  silenceURL: z.string().optional(),
});

export const grafanaBody = z.looseObject({
  status: z.enum(['firing', 'resolved']),
  receiver: z.string().optional(),
  externalURL: z.string().optional(),
  alerts: z.array(grafanaAlert).min(1).max(MAX_ALERTS_PER_REQUEST),
});

type AmAlert = z.infer<typeof grafanaAlert>;

const describeAlert = (a: AmAlert): string => {
  const lines: string[] = [];
  const ann = a.annotations ?? {};
  if (ann.description) lines.push(ann.description);
  if (a.valueString) lines.push(`Values: ${a.valueString}`);
  const labels = Object.entries(a.labels)
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  if (labels) lines.push(`Labels: ${labels}`);
  if (a.startsAt) lines.push(`Started: ${a.startsAt}`);
  for (const [name, url] of [
    ['Source', a.generatorURL],
    ['Dashboard', a.dashboardURL],
    ['Panel', a.panelURL],
    ['Runbook', ann.runbook_url],
  ] as const) {
    if (url) lines.push(`${name}: ${url}`);
  }
  return clip(lines.join('\n'), DESCRIPTION_MAX);
};

const fromAlertGroup = (alerts: AmAlert[]): InboundEvent[] =>
  alerts.map((a) => ({
    action: a.status === 'firing' ? 'trigger' : 'resolve',
    dedup_key: a.fingerprint,
    title: clip(
      oneLine(a.annotations?.summary ?? a.labels.alertname ?? '') || `Alert ${a.fingerprint}`,
      TITLE_MAX,
    ),
    description: describeAlert(a),
    severity: severityOf(a.labels.severity),
  }));

/** Alertmanager's webhook (version 4): each alert's fingerprint is its dedup key; `resolved` resolves. */
export const parseAlertmanager = (body: unknown): InboundEvent[] =>
  fromAlertGroup(parseOrThrow(alertmanagerBody, body).alerts);

/** Grafana's alerting webhook contact point: Alertmanager's shape with Grafana's extra fields. */
export const parseGrafana = (body: unknown): InboundEvent[] =>
  fromAlertGroup(parseOrThrow(grafanaBody, body).alerts);

// ---- PagerDuty Events API v2 -------------------------------------------------------------------

const pdPayload = z.looseObject({
  summary: z.string().min(1).max(1024),
  source: z.string().min(1).max(255),
  severity: z.enum(['critical', 'error', 'warning', 'info']),
  timestamp: z.string().optional(),
  component: z.string().optional(),
  group: z.string().optional(),
  class: z.string().optional(),
  custom_details: z.unknown().optional(),
});

export const pagerDutyBody = z
  .looseObject({
    routing_key: z.string().min(1).max(200),
    event_action: z.enum(['trigger', 'acknowledge', 'resolve']),
    dedup_key: z.string().min(1).max(DEDUP_KEY_MAX).optional(),
    payload: pdPayload.optional(),
    client: z.string().optional(),
    client_url: z.string().optional(),
  })
  .superRefine((b, ctx) => {
    if (b.event_action === 'trigger' && !b.payload)
      ctx.addIssue({ code: 'custom', path: ['payload'], message: 'is required for a trigger' });
    if (b.event_action !== 'trigger' && !b.dedup_key)
      ctx.addIssue({ code: 'custom', path: ['dedup_key'], message: `is required to ${b.event_action}` });
  });

/** The routing key of a parsed PagerDuty body, read before anything else so it can be checked first. */
export const pagerDutyRoutingKey = (body: unknown): string | undefined => {
  const key =
    body !== null && typeof body === 'object' ? (body as { routing_key?: unknown }).routing_key : undefined;
  return typeof key === 'string' && key.length > 0 ? key : undefined;
};

/**
 * A PagerDuty Events API v2 event (`POST /v2/enqueue`). A trigger without a dedup key gets one (as
 * PagerDuty does: returned in the response). Returns the routing key, which names the integration
 * (checked before this runs: see pagerDutyRoutingKey). Custom details are rendered within the
 * description's cap.
 */
export const parsePagerDuty = (
  body: unknown,
  newKey: () => string,
): { routing_key: string; event: InboundEvent } => {
  const b = parseOrThrow(pagerDutyBody, body);
  const p = b.payload;
  const details: string[] = [];
  if (p) {
    details.push(`Source: ${p.source}`);
    for (const [k, v] of [
      ['Component', p.component],
      ['Group', p.group],
      ['Class', p.class],
    ] as const) {
      if (v) details.push(`${k}: ${v}`);
    }
    if (p.custom_details !== undefined)
      details.push(
        `Details: ${typeof p.custom_details === 'string' ? p.custom_details : renderJson(p.custom_details, DESCRIPTION_MAX)}`,
      );
    if (b.client_url) details.push(`${b.client ?? 'Client'}: ${b.client_url}`);
  }
  return {
    routing_key: b.routing_key,
    event: {
      action: b.event_action,
      dedup_key: b.dedup_key ?? newKey(),
      title: p ? clip(oneLine(p.summary) || `Alert from ${oneLine(p.source) || 'PagerDuty'}`, TITLE_MAX) : '',
      description: p ? clip(details.join('\n'), DESCRIPTION_MAX) : null,
      severity: severityOf(p?.severity),
    },
  };
};
