import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Attempt, OutgoingMessage } from '../../control-plane/src/domain/notifications/messages.js';
import {
  alertMessage,
  followUpMessage,
  testMessage,
} from '../../control-plane/src/domain/notifications/messages.js';
import type { Alert } from '../../control-plane/src/domain/types.js';
import { createDispatcher } from '../../control-plane/src/notify/dispatcher.js';
import { createMailRouter } from '../../control-plane/src/notify/mail-route.js';

export interface ServiceRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  json: any;
  form: URLSearchParams;
}

export interface ServiceAnswer {
  status: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
}

/**
 * A real HTTP server on a loopback port that plays a notification service: it records every request
 * and answers with what `answer` returns for it (the test asserts the requests, and queues errors and
 * 429s as the service sends them).
 */
export const startService = async (answer: (req: ServiceRequest, n: number) => ServiceAnswer) => {
  const requests: ServiceRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const r: ServiceRequest = {
        method: req.method ?? '',
        path: req.url ?? '/',
        headers: req.headers,
        body,
        json,
        form: new URLSearchParams(body),
      };
      requests.push(r);
      const a = answer(r, requests.length);
      const text = a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
      res.writeHead(a.status, {
        ...(typeof a.body === 'object' ? { 'content-type': 'application/json' } : {}),
        ...a.headers,
      });
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
};

export const NOW = new Date('2026-06-01T12:00:00Z');
/** When the alert below is resolved: 4 minutes 12 seconds after it was raised. */
export const RESOLVED_AT = new Date('2026-06-01T12:03:12Z');

const alert: Alert = {
  id: '0b4f8a52-3c1e-4c1a-9d55-6f7e8a9b0c1d',
  workspace_id: 'ws',
  source_type: 'monitor',
  source_id: 'm-1',
  cause: 'down',
  dedup_key: '',
  title: 'Home page is down',
  description: 'HTTP 503 from eu-west and us-east',
  severity: 'critical',
  status: 'open',
  escalation_policy_id: null,
  created_at: new Date('2026-06-01T11:59:00Z'),
  updated_at: NOW,
  acknowledged_at: null,
  acknowledged_by: null,
  resolved_at: null,
  resolved_by: null,
  escalation: null,
  escalation_due_at: null,
};

/** What the messages name: the workspace's web app and the monitor by name. */
const context = {
  subdomain: 'acme',
  appUrl: 'https://acme.lookout.test',
  source: { label: 'Monitor “Home page”', path: '/monitors/m-1' },
};

/** The four events of one alert, as the escalation composes them (resolved 4m 12s after it was raised). */
export const messages = {
  alert,
  context,
  raised: alertMessage(
    context,
    alert,
    { step: 0, round: 0, policy: { name: 'Default', steps: 2 } },
    'k-raised',
    NOW,
  ),
  acknowledged: followUpMessage(
    context,
    { ...alert, status: 'acknowledged', acknowledged_at: NOW },
    'acknowledged',
    'k-ack',
    NOW,
    null,
    'ada@acme.test',
  ),
  resolved: followUpMessage(
    context,
    { ...alert, status: 'resolved', resolved_at: RESOLVED_AT, resolved_by: { type: 'system' } },
    'resolved',
    'k-res',
    RESOLVED_AT,
    null,
    'Lookout (it recovered)',
  ),
  test: testMessage(
    { subdomain: 'acme' },
    { id: 'c-1', name: 'ops' },
    { email: 'a@acme.test' },
    'test:t-1',
    NOW,
  ),
};

/**
 * Sends one message through the real dispatcher (loopback allowed, as the tests' receivers live
 * there; retries not slept but recorded), and returns the outcome, every attempt and every wait.
 */
export const sendThrough = async (
  kind: string,
  config: Record<string, unknown>,
  message: OutgoingMessage,
  opts: { maxAttempts?: number; blockPrivate?: boolean; deliveryId?: string } = {},
) => {
  const sleeps: number[] = [];
  const dispatcher = createDispatcher({
    mail: createMailRouter({ deployment: null, timeoutMs: 1000, blockPrivate: false }),
    retry: { maxAttempts: opts.maxAttempts ?? 3, baseDelayMs: 10, sleep: async (ms) => void sleeps.push(ms) },
    timeoutMs: 5000,
    blockPrivate: opts.blockPrivate ?? false,
    now: () => NOW,
  });
  const attempts: { n: number; result: Attempt; willRetry: boolean }[] = [];
  const result = await dispatcher.send(
    { kind, config, workspace_id: 'ws' },
    message,
    opts.deliveryId ?? 'ws:delivery-1',
    async (n, r, willRetry) => void attempts.push({ n, result: r, willRetry }),
  );
  return { result, attempts, sleeps, label: dispatcher.describe({ kind, config }) };
};
