import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pingResponse } from '../../control-plane/src/http/pings/responses.js';
import { errorResponse } from '../../control-plane/src/http/responses.js';
import { startDnsServer } from '../support/dns-server.js';
import { type Harness, type Reply, type RequestOptions, startHarness } from '../support/harness.js';
import { startSmtp } from '../support/receivers.js';
import { waitFor } from '../support/wait.js';

/*
 * The API contract is honest: every operation of the OpenAPI document declares its success body and
 * its error bodies, and every route, driven once with a request that succeeds, answers with a body its
 * declared schema accepts. The harness turns on `validate_responses`, so the app itself checks each
 * success body against the route's schema and answers 500 naming the mismatch; this file drives every
 * route so none escapes that check (the whole e2e suite runs with it on as well).
 */

type Op = { method: string; path: string };
// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document as JSON
type Doc = any;

const SCHEDULES = 'schedules.test.ts (each schedule route to success, at an injected clock)';
/** Operations driven to success in another e2e file, which runs with the same check on. */
/** Driven with responses checked (validate_responses) beside the monitors that name them. */
const SECRETS = 'secrets.test.ts (with monitors naming them)';
/** TOTP codes from the secret a setup returns, at the harness's clock. */
const TWO_FACTOR = 'two-factor.test.ts (codes computed from the secret, at an injected clock)';
/** Credentials made and used by a software authenticator (test/support/soft-authenticator.ts). */
const PASSKEYS = 'passkeys.test.ts (a software authenticator answers the options)';
const DRIVEN_ELSEWHERE: Record<string, string> = {
  'get /schedules': SCHEDULES,
  'post /schedules': SCHEDULES,
  'post /schedules/preview': SCHEDULES,
  'get /schedules/{id}': SCHEDULES,
  'patch /schedules/{id}': SCHEDULES,
  'delete /schedules/{id}': SCHEDULES,
  'get /schedules/{id}/on-call': SCHEDULES,
  'get /schedules/{id}/shifts': SCHEDULES,
  'get /me/shifts': SCHEDULES,
  'get /schedules/{id}/overrides': SCHEDULES,
  'post /schedules/{id}/overrides': SCHEDULES,
  'delete /schedules/{id}/overrides/{override_id}': SCHEDULES,
  'get /schedules/{id}/offers': SCHEDULES,
  'post /schedules/{id}/offers': SCHEDULES,
  'post /schedules/{id}/offers/{offer_id}/take': SCHEDULES,
  'post /schedules/{id}/offers/{offer_id}/assign': SCHEDULES,
  'delete /schedules/{id}/offers/{offer_id}': SCHEDULES,
  'get /schedules/{id}/history': SCHEDULES,
  'get /me/handoff-notices': 'oncall-escalation.test.ts (at an injected clock)',
  'put /me/handoff-notices': 'oncall-escalation.test.ts (at an injected clock)',
  'post /schedules/{id}/ical-url': 'calendar-feeds.test.ts (feeds read at an injected clock)',
  'delete /schedules/{id}/ical-url': 'calendar-feeds.test.ts (feeds read at an injected clock)',
  'post /me/ical-url': 'calendar-feeds.test.ts (feeds read at an injected clock)',
  'delete /me/ical-url': 'calendar-feeds.test.ts (feeds read at an injected clock)',
  'post /connected-apps/{id}/revoke': 'mcp-oauth.test.ts (needs an OAuth grant)',
  'post /workspace/connected-apps/{id}/revoke': 'mcp-oauth.test.ts (needs an OAuth grant)',
  'post /users/me/contact-methods/{id}/verify': 'contact-methods.test.ts (needs the code from a real mail)',
  'get /monitors/{id}/results/{result_id}/script': 'script-runs.test.ts (runs sent over the agent protocol)',
  'get /monitors/{id}/results/{result_id}/screenshot':
    'script-runs.test.ts (runs sent over the agent protocol)',
  'get /monitors/{id}/script-runs/latest': 'script-runs.test.ts (runs sent over the agent protocol)',
  'get /secrets': SECRETS,
  'get /secrets/{name}': SECRETS,
  'put /secrets/{name}': SECRETS,
  'delete /secrets/{name}': SECRETS,
  'post /session/second-factor': TWO_FACTOR,
  'post /me/totp': TWO_FACTOR,
  'delete /me/totp': TWO_FACTOR,
  'post /me/totp/confirm': TWO_FACTOR,
  'post /me/recovery-codes': TWO_FACTOR,
  'get /security': TWO_FACTOR,
  'put /security': TWO_FACTOR,
  'post /me/passkeys/options': PASSKEYS,
  'post /me/passkeys': PASSKEYS,
  'get /me/passkeys': PASSKEYS,
  'delete /me/passkeys/{id}': PASSKEYS,
  'post /session/passkey/options': PASSKEYS,
  'post /session/passkey': PASSKEYS,
};

let h: Harness;
let doc: Doc;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  // Custom domains are checked against a DNS server of our own (it knows no names); the deployment's
  // mail (a password reset's link) goes to an SMTP server of our own.
  dns = await startDnsServer({});
  smtp = await startSmtp();
  h = await startHarness({
    custom_domain_dns_servers: [dns.address],
    smtp_host: '127.0.0.1',
    smtp_port: smtp.port,
    smtp_from: 'Lookout <lookout@deploy.test>',
  });
  doc = (await h.request('GET', '/api/v1/openapi.json', { host: 'demo.localhost' })).body;
});
afterAll(async () => {
  await h.close();
  await dns.close();
  await smtp.close();
});

const operations = (d: Doc): Op[] =>
  Object.entries(d.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({ method, path })),
  );

describe('the OpenAPI document', () => {
  it('declares, for every operation, its success body and its error bodies', () => {
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(70);
    const missing: string[] = [];
    for (const { method, path } of ops) {
      const responses = doc.paths[path][method].responses as Record<string, Doc>;
      const name = `${method} ${path}`;
      const success = Object.keys(responses).filter((c) => c.startsWith('2'));
      if (success.length !== 1) missing.push(`${name}: ${success.length} success statuses`);
      for (const code of success) {
        // JSON, or bytes (a screenshot): each content type with a binary string schema.
        const content = (responses[code].content ?? {}) as Record<string, Doc>;
        const bytes = Object.values(content).every((c) => c.schema?.format === 'binary');
        const schema =
          content['application/json']?.schema ?? (bytes ? Object.values(content)[0]?.schema : undefined);
        if (code === '204' ? schema !== undefined : schema === undefined)
          missing.push(`${name}: ${code} ${code === '204' ? 'has' : 'has no'} body schema`);
      }
      const errors = Object.keys(responses).filter((c) => Number(c) >= 400);
      if (!errors.includes('500') || !errors.some((c) => c.startsWith('4')))
        missing.push(`${name}: error statuses ${errors.join(',')}`);
      for (const code of errors)
        if (responses[code].content?.['application/json']?.schema?.$ref !== '#/components/schemas/Error')
          missing.push(`${name}: ${code} is not the error body`);
    }
    expect(missing).toEqual([]);
    // Spec-pinned shapes.
    const ok = (path: string, method: string, code = '200') =>
      doc.paths[path][method].responses[code].content['application/json'].schema;
    const named = (schema: Doc) =>
      schema.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
    expect(named(ok('/hb/ping/{uuid}', 'post')).required.sort()).toEqual(['message', 'status']);
    expect(ok('/alerts/resolve', 'post').required.sort()).toEqual([
      'already_resolved',
      'not_found',
      'resolved',
    ]);
    expect(ok('/monitors', 'get').required.sort()).toEqual(['data', 'next_cursor']);
    // Record shapes are named once and referred to.
    expect(ok('/monitors', 'get').properties.data.items).toEqual({ $ref: '#/components/schemas/Monitor' });
    expect(ok('/monitors/{id}', 'get')).toEqual({ $ref: '#/components/schemas/Monitor' });
    expect(doc.components.schemas.Monitor.additionalProperties).toBe(false);
    expect(doc.components.schemas.Monitor.properties.created_at.format).toBe('date-time');
  });
});

describe('every route answers with the body it declares', () => {
  it('drives each operation once to success; the app checks each body against its schema', async () => {
    const w = await h.workspace('contract');
    const driven = new Set<string>();
    const { adminKey } = w;

    /** Calls an operation by its template path and records it as driven; it must succeed. */
    const call = async (
      method: string,
      template: string,
      {
        query,
        ...opts
      }: RequestOptions & {
        params?: Record<string, string>;
        root?: boolean;
        query?: Record<string, string>;
      } = {},
    ): Promise<Reply> => {
      const path = template.replace(/\{(\w+)\}/g, (_m, p: string) => opts.params?.[p] ?? `{${p}}`);
      const qs = query ? `?${new URLSearchParams(query)}` : '';
      const r = await h.request(method.toUpperCase(), `${opts.root ? '' : '/api/v1'}${path}${qs}`, {
        host: w.host,
        key: adminKey,
        ...opts,
      });
      const name = `${method} ${template}`;
      expect(r.status, `${name}: ${r.text}`).toBeGreaterThanOrEqual(200);
      expect(r.status, `${name}: ${r.text}`).toBeLessThan(300);
      const declared = Object.keys(doc.paths[template]?.[method]?.responses ?? {});
      expect(declared, name).toContain(String(r.status));
      driven.add(name);
      return r;
    };
    /** The list answered with at least one item (a check on an empty list proves little). */
    const list = async (template: string, opts: Parameters<typeof call>[2] = {}) => {
      const r = await call('get', template, opts);
      expect(r.body.data.length, template).toBeGreaterThan(0);
      return r;
    };

    // The web app's session (cookie + CSRF token), for the session-only routes.
    const signIn = await call('post', '/session', {
      key: '',
      json: { email: w.admin.email, password: w.password },
    });
    const cookie = () =>
      [signIn.headers['set-cookie'] ?? []]
        .flat()
        .map((c) => c.split(';')[0])
        .join('; ');
    let csrf = signIn.body.csrf_token as string;
    const session = () => ({ key: '', headers: { cookie: cookie(), 'x-csrf-token': csrf } });
    await call('get', '/session', session());
    const newKey = await call('post', '/api-keys', { ...session(), json: { name: 'ci', expiry: 'none' } });
    await call('post', '/api-keys/legacy/regenerate', session());
    await list('/api-keys');
    await call('post', '/api-keys/{id}/revoke', { params: { id: newKey.body.id } });
    await call('get', '/connected-apps', session());
    await call('get', '/workspace/connected-apps', session());

    // Users and invitations.
    await call('get', '/users/me');
    const invited = await call('post', '/users', { json: { email: 'new@contract.test', role: 'viewer' } });
    await list('/users');
    await list('/people');
    await call('patch', '/users/{id}', { params: { id: invited.body.id }, json: { role: 'member' } });
    const token = new URL(invited.body.invitation_url).hash.replace('#token=', '');
    await call('post', '/invitations/accept', {
      key: '',
      json: { token, password: 'a long enough password' },
    });
    await call('delete', '/users/{id}', { params: { id: invited.body.id } });

    // Monitors and their results.
    const monitor = await call('post', '/monitors/create', {
      json: {
        display_name: 'Site',
        monitor_type: 'http',
        url: 'https://example.com/',
        http_method: 'GET',
        expected_status_code: 200,
      },
    });
    const id = monitor.body.id as string;
    await list('/monitors');
    await call('get', '/monitors/counts');
    await call('get', '/monitors/{id}', { params: { id } });
    await call('get', '/monitors/{id}/timeline', { params: { id } });
    await call('patch', '/monitors/{id}', { params: { id }, json: { display_name: 'Site 2' } });
    await call('post', '/monitors/{id}/check', { params: { id } });
    await call('post', '/monitors/{id}/pause', { params: { id } });
    await call('post', '/monitors/{id}/resume', { params: { id } });
    await call('get', '/monitors/{id}/results', { params: { id } });
    await call('get', '/monitors/{id}/uptime', { params: { id } });
    const batch = {
      monitors: [{ display_name: 'Batch', monitor_type: 'tcp', url: 'example.com', port: 443 }],
    };
    await call('post', '/monitors/batch/check', { json: batch });
    await call('post', '/monitors/batch', { json: batch });
    await call('post', '/monitors/bulk', { json: { ids: [id], action: 'pause' } });
    await list('/regions');

    // Heartbeats and their pings (the ping endpoint is served outside Koa: checked here).
    const hb = await call('post', '/heartbeats', { json: { display_name: 'Nightly', period_seconds: 3600 } });
    const uuid = hb.body.id as string;
    for (const suffix of ['', '/start', '/fail', '/{exit_status}'])
      for (const method of ['post', 'get']) {
        const r = await call(method, `/hb/ping/{uuid}${suffix}`, {
          key: '',
          params: { uuid, exit_status: '0' },
          ...(method === 'post' ? { raw: 'output', headers: { 'content-type': 'text/plain' } } : {}),
        });
        expect(pingResponse.safeParse(r.body).success, r.text).toBe(true);
      }
    // Slug pings with the workspace's ping key; the first creates its heartbeat (?create=1).
    const pingKey = (await call('get', '/ping-key')).body.ping_key as string;
    await call('post', '/ping-key/regenerate');
    const key = (await call('get', '/ping-key')).body.ping_key as string;
    expect(key).not.toBe(pingKey);
    for (const suffix of ['', '/start', '/fail', '/{exit_status}'])
      for (const method of ['post', 'get']) {
        const r = await call(method, `/hb/ping/{ping_key}/{slug}${suffix}`, {
          key: '',
          params: { ping_key: key, slug: 'nightly-sync', exit_status: '0' },
          query: { create: '1' },
          ...(method === 'post' ? { raw: 'output', headers: { 'content-type': 'text/plain' } } : {}),
        });
        expect(pingResponse.safeParse(r.body).success, r.text).toBe(true);
      }
    await list('/heartbeats');
    await call('get', '/heartbeats/{uuid}', { params: { uuid } });
    await list('/heartbeats/{uuid}/pings', { params: { uuid } });
    await call('get', '/heartbeats/{uuid}/timeline', { params: { uuid } });
    await call('patch', '/heartbeats/{uuid}', { params: { uuid }, json: { display_name: 'Nightly 2' } });

    // Channels, policies, maintenance, mail.
    const channel = await call('post', '/channels', {
      json: { name: 'Ops', type: 'email', config: { addresses: ['ops@contract.test'] } },
    });
    const channelId = channel.body.id as string;
    await list('/channels');
    await call('get', '/channel-kinds');
    await call('get', '/check-types');
    await call('get', '/channels/{id}', { params: { id: channelId } });
    await call('patch', '/channels/{id}', { params: { id: channelId }, json: { name: 'Ops 2' } });
    await call('post', '/channels/{id}/test', { params: { id: channelId } });
    await list('/channels/{id}/deliveries', { params: { id: channelId } });
    const policy = await call('post', '/escalation-policies', {
      json: {
        name: 'Night',
        steps: [{ wait_minutes: 0, notify_user_ids: [w.admin.id], notify_channel_ids: [channelId] }],
      },
    });
    const policyId = policy.body.id as string;
    await list('/escalation-policies');
    await call('get', '/escalation-policies/{id}', { params: { id: policyId } });
    await call('patch', '/escalation-policies/{id}', { params: { id: policyId }, json: { name: 'Night 2' } });
    const now = h.clock.now().getTime();
    const window = await call('post', '/maintenance-windows', {
      json: {
        name: 'Upgrade',
        scope_type: 'workspace',
        starts_at: new Date(now - 60_000).toISOString(),
        ends_at: new Date(now + 3_600_000).toISOString(),
      },
    });
    const windowId = window.body.id as string;
    await list('/maintenance-windows');
    await call('get', '/maintenance-windows/{id}', { params: { id: windowId } });
    await call('patch', '/maintenance-windows/{id}', {
      params: { id: windowId },
      json: { name: 'Upgrade 2' },
    });
    await call('post', '/maintenance-windows/{id}/end', { params: { id: windowId } });
    await call('delete', '/maintenance-windows/{id}', { params: { id: windowId } });

    // Groups.
    const group = await call('post', '/groups', { json: { name: 'Edge' } });
    const groupId = group.body.id as string;
    await list('/groups');
    await call('get', '/groups/{id}', { params: { id: groupId } });
    await call('patch', '/groups/{id}', { params: { id: groupId }, json: { name: 'Edge 2' } });
    await call('delete', '/groups/{id}', { params: { id: groupId } });

    // Status pages and their incidents.
    const statusPage = await call('post', '/status-pages', {
      json: {
        name: 'Status',
        slug: 'status',
        components: [{ name: 'API', monitor_id: id }, { name: 'Jobs', heartbeat_id: uuid }, { name: 'Desk' }],
      },
    });
    const pageId = statusPage.body.id as string;
    await list('/status-pages');
    await call('get', '/status-pages/{id}', { params: { id: pageId } });
    await call('patch', '/status-pages/{id}', { params: { id: pageId }, json: { accent_color: '#123456' } });
    await call('patch', '/status-pages/{id}', {
      params: { id: pageId },
      json: { custom_domain: 'status.responses.test' },
    });
    await call('post', '/status-pages/{id}/custom-domain/verify', { params: { id: pageId } });
    const incident = await call('post', '/status-pages/{id}/incidents', {
      params: { id: pageId },
      json: {
        title: 'Errors',
        status: 'investigating',
        message: 'Looking.',
        components: { [statusPage.body.components[0].id]: 'major_outage' },
        published: false,
      },
    });
    const incidentIds = { id: pageId, incident_id: incident.body.id as string };
    await list('/status-pages/{id}/incidents', { params: { id: pageId } });
    await call('get', '/status-pages/{id}/incidents/{incident_id}', { params: incidentIds });
    await call('post', '/status-pages/{id}/incidents/{incident_id}/publish', { params: incidentIds });
    await call('post', '/status-pages/{id}/incidents/{incident_id}/updates', {
      params: incidentIds,
      json: { status: 'resolved', message: 'Fixed.' },
    });
    await call('patch', '/status-pages/{id}/incidents/{incident_id}', {
      params: incidentIds,
      json: { postmortem: '# Cause' },
    });
    const draft = await call('post', '/status-pages/{id}/incidents', {
      params: { id: pageId },
      json: { title: 'Maybe', message: 'Draft.', published: false },
    });
    await call('post', '/status-pages/{id}/incidents/{incident_id}/discard', {
      params: { id: pageId, incident_id: draft.body.id },
    });
    await call('delete', '/status-pages/{id}/incidents/{incident_id}', { params: incidentIds });
    // A reader subscribes on the public page; admins list and delete subscribers.
    const subscribed = await h.request('POST', '/status/status/subscribe', {
      host: w.host,
      raw: 'email=reader%40contract.test',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(subscribed.status).toBe(200);
    const subscribers = await list('/status-pages/{id}/subscribers', { params: { id: pageId } });
    await call('delete', '/status-pages/{id}/subscribers/{subscriber_id}', {
      params: { id: pageId, subscriber_id: subscribers.body.data[0].id },
    });
    await call('delete', '/status-pages/{id}', { params: { id: pageId } });
    await call('put', '/settings/mail', {
      json: { host: 'smtp.contract.test', port: 587, tls: 'starttls', from_address: 'lookout@contract.test' },
    });
    await call('get', '/settings/mail');
    await call('post', '/settings/mail/test', { json: {} });
    await call('delete', '/settings/mail');
    await call('put', '/reports/schedule', {
      json: { enabled: true, recipient_user_ids: [w.admin.id], slo: 99.5 },
    });
    await call('get', '/reports/schedule');
    await call('post', '/reports/schedule/send-now');
    // Single sign-on (its sign-ins against a real IdP: sso-oidc.test.ts).
    await call('put', '/sso', { json: { enforced: false } });
    await call('get', '/sso');
    await call('get', '/session/options');

    // Integrations, their inbound endpoints, and the alerts they raise.
    const integration = async (kind: string) =>
      (await call('post', '/integrations', { json: { name: kind, kind } })).body as {
        id: string;
        service_key: string;
      };
    const webhook = await integration('webhook');
    await list('/integrations');
    await call('get', '/integrations/{integration_id}', { params: { integration_id: webhook.id } });
    await call('patch', '/integrations/{integration_id}', {
      params: { integration_id: webhook.id },
      json: { name: 'hooks' },
    });
    const rotated = await call('post', '/integrations/{integration_id}/rotate-key', {
      params: { integration_id: webhook.id },
    });
    const serviceKey = (k: string) => ({ key: '', headers: { 'x-lookout-service-key': k } });
    await call('post', '/integrations/webhook/events', {
      ...serviceKey(rotated.body.service_key),
      json: { title: 'Disk full', dedup_key: 'disk' },
    });
    await call('post', '/integrations/alertmanager/events', {
      ...serviceKey((await integration('alertmanager')).service_key),
      json: {
        version: '4',
        groupKey: '{}:{alertname="DiskFull"}',
        truncatedAlerts: 0,
        status: 'firing',
        receiver: 'lookout',
        groupLabels: {},
        commonLabels: {},
        commonAnnotations: {},
        externalURL: 'http://alertmanager:9093',
        alerts: [
          {
            status: 'firing',
            labels: { alertname: 'DiskFull' },
            annotations: { summary: 'Disk full' },
            startsAt: '2026-06-01T11:59:00Z',
            endsAt: '0001-01-01T00:00:00Z',
            generatorURL: 'http://prometheus:9090/graph',
            fingerprint: 'f1',
          },
        ],
      },
    });
    await call('post', '/integrations/grafana/events', {
      ...serviceKey((await integration('grafana')).service_key),
      json: {
        receiver: 'lookout',
        status: 'firing',
        orgId: 1,
        alerts: [
          {
            status: 'firing',
            labels: { alertname: 'HighLatency' },
            annotations: { summary: 'p99 latency above 2 s' },
            startsAt: '2026-06-01T11:58:00Z',
            endsAt: '0001-01-01T00:00:00Z',
            generatorURL: 'http://grafana:3000/',
            fingerprint: 'g1',
          },
        ],
        groupLabels: {},
        commonLabels: {},
        commonAnnotations: {},
        externalURL: 'http://grafana:3000/',
        version: '1',
        groupKey: '{}',
        truncatedAlerts: 0,
      },
    });
    await call('post', '/integrations/pagerduty/v2/enqueue', {
      key: '',
      json: {
        routing_key: (await integration('pagerduty')).service_key,
        event_action: 'trigger',
        payload: { summary: 'API errors', source: 'gateway', severity: 'error' },
      },
    });
    const alerts = await list('/alerts');
    const [first, second] = alerts.body.data as { id: string }[];
    await call('get', '/alerts/{uuid}', { params: { uuid: first!.id } });
    await call('post', '/alerts/acknowledge', { json: { UUIDs: [first!.id] } });
    await call('post', '/alerts/resolve', { json: { UUIDs: [first!.id, second!.id] } });

    const method = await call('post', '/users/me/contact-methods', {
      // A server that refuses the connection at once: nothing leaves this machine.
      json: {
        type: 'ntfy',
        topic: 'responses',
        server_url: 'http://127.0.0.1:9',
        access_token: 'tk_responses',
      },
    });
    await call('get', '/users/me/contact-methods');
    await call('get', '/contact-method-kinds');
    await call('post', '/users/me/contact-methods/{id}/send-code', { params: { id: method.body.id } });

    // Deletions last.
    await call('delete', '/users/me/contact-methods/{id}', { params: { id: method.body.id } });
    await call('delete', '/integrations/{integration_id}', { params: { integration_id: webhook.id } });
    await call('delete', '/heartbeats/{uuid}', { params: { uuid } });
    await call('delete', '/monitors/{id}', { params: { id } });
    await call('delete', '/escalation-policies/{id}', { params: { id: policyId } });
    await call('delete', '/channels/{id}', { params: { id: channelId } });
    // The audit log the calls above wrote, and its export.
    await list('/audit-log');
    await call('get', '/audit-log/export');
    // The SLA report of the workspace this month so far (its figures: sla-report-month.test.ts).
    await call('get', '/reports/sla');
    // The exports, a download each.
    await call('get', '/export/results', {
      query: { from: '2026-05-01T00:00:00Z', to: '2026-06-02T00:00:00Z' },
    });
    await call('get', '/export/alerts', {
      query: { from: '2026-05-01T00:00:00Z', to: '2026-06-02T00:00:00Z', format: 'csv' },
    });
    // A password reset: its link arrives by mail, and is used once.
    const resetting = await w.userWithKey('viewer');
    await call('post', '/password-reset', { key: '', json: { email: resetting.user.email } });
    const mails = await waitFor(
      async () => smtp.mails.filter((m) => m.rcpt.includes(resetting.user.email)),
      (m) => m.length > 0,
      { what: 'the password reset mail' },
    );
    const resetToken = /reset-password\?token=([\w.-]+)/.exec(mails[0]!.text ?? '')![1]!;
    await call('post', '/password-reset/confirm', {
      key: '',
      json: { token: resetToken, new_password: 'a reset password' },
    });
    const changed = await call('post', '/session/password', {
      ...session(),
      json: { current_password: w.password, new_password: 'another long password' },
    });
    csrf = changed.body.csrf_token;
    await call('delete', '/session', {
      key: '',
      headers: {
        cookie: [changed.headers['set-cookie'] ?? []]
          .flat()
          .map((c) => c.split(';')[0])
          .join('; '),
        'x-csrf-token': csrf,
      },
    });

    const notDriven = operations(doc)
      .map((o) => `${o.method} ${o.path}`)
      .filter((name) => !driven.has(name) && !(name in DRIVEN_ELSEWHERE));
    expect(notDriven).toEqual([]);
  });

  it('every operation refuses a request without credentials or with an unknown id in the declared error body', async () => {
    const w = await h.workspace('errors');
    const wrong: string[] = [];
    for (const { method, path } of operations(doc)) {
      // How to sign in is asked before anyone is signed in, and has no id.
      if (`${method} ${path}` === 'get /session/options') continue;
      // A passkey sign-in's challenge is asked before anyone is signed in, and has no body or id.
      if (`${method} ${path}` === 'post /session/passkey/options') continue;
      const url = path.replace(/\{(\w+)\}/g, (_m, p: string) => (p === 'exit_status' ? '0' : randomUUID()));
      const r = await h.request(method.toUpperCase(), `/api/v1${url}`, {
        host: w.host,
        ...(['post', 'put', 'patch'].includes(method) ? { json: {} } : {}),
      });
      const declared = Object.keys(doc.paths[path][method].responses);
      const parsed = errorResponse.safeParse(r.body);
      if (r.status < 400 || !declared.includes(String(r.status)) || !parsed.success)
        wrong.push(`${method} ${path}: ${r.status} ${r.text}`);
    }
    expect(wrong).toEqual([]);
  });

  it('a body its schema does not allow is refused with 500 naming the field (and served when the check is off)', async () => {
    /** A maintenance window whose stored scope the declared shape does not allow (as drifted code would give). */
    const lyingWindow = async (on: Harness) => {
      const w = await on.workspace('lying');
      const now = on.clock.now().getTime();
      const created = await w.api('POST', '/maintenance-windows', {
        json: {
          name: 'Upgrade',
          scope_type: 'workspace',
          starts_at: new Date(now).toISOString(),
          ends_at: new Date(now + 3_600_000).toISOString(),
        },
      });
      expect(created.status).toBe(201);
      const db = new Database(join(on.dir, 'lookout.db'));
      db.prepare('UPDATE maintenance_windows SET scope_type = ? WHERE id = ?').run('galaxy', created.body.id);
      db.close();
      return w.api('GET', `/maintenance-windows/${created.body.id}`);
    };
    const r = await lyingWindow(h);
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe('internal');
    expect(r.body.error.message).toMatch(/GET \/maintenance-windows\/\{id\} does not match the schema/);
    expect(r.body.error.details.map((d: { field: string }) => d.field)).toEqual(['scope_type']);

    const unchecked = await startHarness({ validate_responses: false });
    try {
      const served = await lyingWindow(unchecked);
      expect(served.status).toBe(200);
      expect(served.body.scope_type).toBe('galaxy');
    } finally {
      await unchecked.close();
    }
  });
});
