import { z } from 'zod';
import type { OutgoingMessage } from '../../domain/notifications/messages.js';
import { defaultClassify, type HttpCall } from '../http-client.js';
import { defineNotifier, JSON_HEADERS, json, sendCalls, truncate } from '../notifier.js';
import { apiUrl, join } from './fields.js';

/**
 * PagerDuty Events API v2: POST `{api_url}/v2/enqueue` with the integration's `routing_key` in the
 * body. Raised → `trigger`, acknowledged → `acknowledge`, resolved → `resolve`, all with one
 * `dedup_key`, the alert's uuid, so PagerDuty's incident follows Lookout's alert. 202 `{"status":
 * "success", "dedup_key"}`; 400 (invalid event) is given up; 429 and 5xx are retried.
 * https://developer.pagerduty.com/docs/events-api-v2/trigger-events/ —
 * https://developer.pagerduty.com/docs/events-api-v2/acknowledge-events/ —
 * https://developer.pagerduty.com/docs/events-api-v2/resolve-events/ — `payload.summary` is at most
 * 1,024 characters; the whole event at most 512 KB. A test triggers an info event and resolves it at
 * once under the test's own key.
 */
const event = (c: { routing_key: string; api_url: string }, body: Record<string, unknown>): HttpCall => ({
  method: 'POST',
  url: join(c.api_url, 'v2/enqueue'),
  headers: { ...JSON_HEADERS },
  body: json({ routing_key: c.routing_key, ...body }),
});

const trigger = (c: { routing_key: string; api_url: string }, m: OutgoingMessage) => {
  const ack = m.links?.acknowledge;
  return event(c, {
    event_action: 'trigger',
    dedup_key: m.dedup_key,
    client: 'Lookout',
    payload: {
      summary: truncate(m.subject, 1024),
      source: m.alert?.source ?? 'lookout',
      severity: m.alert?.severity ?? 'info',
      ...(m.alert ? { timestamp: m.alert.created_at } : {}),
      custom_details: { text: truncate(m.text, 100_000), ...(m.alert ? { alert_id: m.alert.id } : {}) },
    },
    ...(ack || m.links?.alert
      ? {
          links: [
            ...(m.links?.alert ? [{ href: m.links.alert, text: 'Open in Lookout' }] : []),
            ...(ack ? [{ href: ack, text: 'Acknowledge in Lookout' }] : []),
          ],
        }
      : {}),
  });
};

export default defineNotifier({
  type: 'pagerduty',
  label: 'PagerDuty',
  docs: ['https://developer.pagerduty.com/docs/events-api-v2/overview/'],
  config: z.strictObject({
    routing_key: z
      .string()
      .regex(/^[A-Za-z0-9]{32}$/, 'must be the 32-character integration key of an Events API v2 integration')
      .describe('The integration (routing) key.'),
    api_url: apiUrl('https://events.pagerduty.com'),
  }),
  secrets: ['routing_key'],
  follows: ['acknowledged', 'resolved'],
  // One event per alert even in a burst: the service deduplicates and groups by dedup key itself, and
  // its users expect one incident per alert.
  grouping: 'per_alert',
  describe: (c) => `PagerDuty ${new URL(c.api_url).host}`,
  render(c, m): HttpCall[] {
    switch (m.event) {
      case 'raised':
        return [trigger(c, m)];
      case 'acknowledged':
        return [event(c, { event_action: 'acknowledge', dedup_key: m.dedup_key })];
      case 'resolved':
        return [event(c, { event_action: 'resolve', dedup_key: m.dedup_key })];
      case 'test':
        return [trigger(c, m), event(c, { event_action: 'resolve', dedup_key: m.dedup_key })];
    }
  },
  send: (_c, calls, ctx) => sendCalls(calls, ctx),
  classify: defaultClassify,
});
