import { z } from 'zod';
import type { OutgoingMessage } from '../../domain/notifications/messages.js';
import { defaultClassify, type HttpCall } from '../http-client.js';
import { defineNotifier, headline, JSON_HEADERS, json, sendCalls, truncate } from '../notifier.js';
import { apiUrl, join, token } from './fields.js';

/**
 * Opsgenie Alert API with `Authorization: GenieKey <api_key>`: raised → `POST /v2/alerts` with
 * `alias` = the alert's uuid; acknowledged → `POST /v2/alerts/{alias}/acknowledge?identifierType=alias`;
 * resolved → `POST /v2/alerts/{alias}/close?identifierType=alias`. Every request answers 202
 * `{"result": "Request will be processed", "requestId"}`; 4xx is given up, 429 and 5xx retried.
 * https://docs.opsgenie.com/docs/alert-api — limits: message 130 characters, alias 512, description
 * 15,000 (https://docs.opsgenie.com/docs/alert-api#create-alert). The EU instance is
 * `api_url: https://api.eu.opsgenie.com` (https://docs.opsgenie.com/docs/european-service-region).
 * A test creates an alert under the test's own alias and closes it at once.
 */
const PRIORITY = { critical: 'P1', warning: 'P3', info: 'P5' } as const;

export default defineNotifier({
  type: 'opsgenie',
  label: 'Opsgenie',
  docs: ['https://docs.opsgenie.com/docs/alert-api'],
  config: z.strictObject({
    api_key: token('The API key of an API integration.', 128),
    api_url: apiUrl('https://api.opsgenie.com'),
  }),
  secrets: ['api_key'],
  follows: ['acknowledged', 'resolved'],
  // One event per alert even in a burst: the service deduplicates and groups by dedup key itself, and
  // its users expect one incident per alert.
  grouping: 'per_alert',
  describe: (c) => `Opsgenie ${new URL(c.api_url).host}`,
  render(c, m: OutgoingMessage): HttpCall[] {
    const call = (path: string, body: unknown): HttpCall => ({
      method: 'POST',
      url: join(c.api_url, path),
      headers: { ...JSON_HEADERS, authorization: `GenieKey ${c.api_key}` },
      body: json(body),
    });
    const alias = encodeURIComponent(m.dedup_key);
    const create = call('v2/alerts', {
      message: truncate(headline(m), 130),
      alias: m.dedup_key,
      description: truncate(m.text, 15_000),
      priority: PRIORITY[m.alert?.severity ?? 'info'],
      source: 'Lookout',
      ...(m.links?.acknowledge || m.links?.alert
        ? {
            details: {
              ...(m.links.alert ? { alert: m.links.alert } : {}),
              ...(m.links.acknowledge ? { acknowledge: m.links.acknowledge } : {}),
            },
          }
        : {}),
    });
    const close = call(`v2/alerts/${alias}/close?identifierType=alias`, {
      source: 'Lookout',
      note: headline(m),
    });
    switch (m.event) {
      case 'raised':
        return [create];
      case 'acknowledged':
        return [
          call(`v2/alerts/${alias}/acknowledge?identifierType=alias`, {
            source: 'Lookout',
            note: headline(m),
          }),
        ];
      case 'resolved':
        return [close];
      case 'test':
        return [create, close];
    }
  },
  send: (_c, calls, ctx) => sendCalls(calls, ctx),
  classify: defaultClassify,
});
