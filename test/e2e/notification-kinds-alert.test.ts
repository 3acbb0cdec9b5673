import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentToken } from '../../control-plane/src/domain/agents/agent-tokens.js';
import { acceptedAnswer, expectedAuth, kindOfPath, sampleConfigs } from '../support/kind-samples.js';
import { exited, startAgentProcess } from '../support/processes.js';
import { startRoutingRig } from '../support/routing-rig.js';
import { type ServiceRequest, startService } from '../support/service-double.js';
import { waitFor } from '../support/wait.js';

/**
 * One real alert through every notification kind: a monitor checked by real agent processes in two
 * regions against a real HTTP target that fails, escalated at once to a channel of each kind (each
 * service played by a local double that checks its credential and answers as the service does),
 * acknowledged through the API (PagerDuty, Opsgenie and the webhook are told), and resolved by the
 * target's recovery (PagerDuty resolves, Opsgenie closes, every other kind — email, webhook and SMS
 * too — gets a "resolved" saying how long it lasted).
 */
let rig: Awaited<ReturnType<typeof startRoutingRig>>;
let svc: Awaited<ReturnType<typeof startService>>;
let target: Server;
let targetStatus = 503;
const agents: ChildProcess[] = [];
/** Requests that arrived without the credential their service expects. */
const unauthorized: ServiceRequest[] = [];

beforeAll(async () => {
  rig = await startRoutingRig({
    clock: systemClock,
    config: { plans: { e2e: { max_monitors: 10, min_interval_seconds: 1 } }, assignment_poll_ms: 500 },
  });
  svc = await startService((r) => {
    const kind = kindOfPath(r.path);
    const auth = expectedAuth(kind);
    if (auth && r.headers[auth.header] !== auth.value) {
      unauthorized.push(r);
      return { status: 401, body: { error: 'unauthorized' } };
    }
    return acceptedAnswer(kind, r.json);
  });
  target = createServer((_req, res) => res.writeHead(targetStatus).end(targetStatus === 200 ? 'ok' : 'down'));
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
});
afterAll(async () => {
  for (const a of agents) a.kill('SIGTERM');
  await Promise.all(agents.map(exited));
  target?.close();
  await svc?.close();
  await rig?.close();
});

const FOLLOW_RESOLVED = [
  'slack',
  'discord',
  'teams',
  'mattermost',
  'google_chat',
  'telegram',
  'matrix',
  'ntfy',
  'gotify',
  'pushover',
  'webhook',
  'twilio_sms',
];

describe('an alert through every kind', () => {
  it('raised on every kind, acknowledged on PagerDuty, Opsgenie and the webhook, resolved on every kind with how long it lasted', async () => {
    const { h, smtp } = rig;
    const w = await h.workspace('every-kind', 'e2e');
    const channels: Record<string, string> = {};
    const configs = { ...sampleConfigs(svc.base), email: { addresses: ['oncall@every-kind.test'] } };
    for (const [kind, config] of Object.entries(configs)) {
      const c = await w.api('POST', '/channels', { json: { name: kind, type: kind, config } });
      expect(c.status, `${kind}: ${JSON.stringify(c.body)}`).toBe(201);
      channels[kind] = c.body.id;
    }
    const policy = await w.api('POST', '/escalation-policies', {
      json: { name: 'everyone', steps: [{ wait_minutes: 0, notify_channel_ids: Object.values(channels) }] },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const port = (target.address() as AddressInfo).port;
    const monitor = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'Checkout API',
        monitor_type: 'http',
        url: `http://127.0.0.1:${port}/health`,
        http_method: 'GET',
        expected_status_code: 200,
        check_interval_seconds: 1,
        timeout_seconds: 1,
        failure_threshold: 1,
        check_locations: ['eu-west', 'us-east'],
        escalation_policy_id: policy.body.id,
      },
    });
    expect(monitor.status, JSON.stringify(monitor.body)).toBe(201);
    for (const region of ['eu-west', 'us-east']) {
      const token = (await createAgentToken(h.store, h.config.regions, { region }, new Date())).value;
      const p = await startAgentProcess({ rpcUrl: h.cp.rpcUrl, token, region, instance: `${region}-1` });
      agents.push(p.child);
    }

    // Raised: every kind hears of it once, in its own format.
    const httpKinds = Object.keys(sampleConfigs(svc.base));
    const of = (kind: string) => svc.requests.filter((r) => kindOfPath(r.path) === kind);
    await waitFor(
      async () => httpKinds.filter((k) => of(k).length === 0),
      (missing) => missing.length === 0,
      { what: 'a notification on every kind', timeoutMs: 45_000 },
    );
    const alerts = await w.api('GET', `/alerts?source_id=${monitor.body.id}`);
    const alert = alerts.body.data[0];
    expect(alert).toMatchObject({ status: 'open' });
    await waitFor(
      async () => smtp.mails.filter((m) => m.rcpt.includes('oncall@every-kind.test')).length,
      (n) => n === 1,
      { what: 'the email' },
    );
    expect(of('pagerduty')[0]!.json).toMatchObject({
      event_action: 'trigger',
      dedup_key: alert.id,
      payload: { severity: alert.severity, source: 'Monitor “Checkout API”' },
    });
    expect(of('opsgenie')[0]!).toMatchObject({ path: '/opsgenie/v2/alerts', json: { alias: alert.id } });
    expect(of('telegram')[0]!.json.text).toContain(alert.title);
    expect(of('discord')[0]!.json.embeds[0].title).toContain(alert.title);
    expect(of('teams')[0]!.json.attachments[0].content.type).toBe('AdaptiveCard');
    expect(of('google_chat')[0]!.json.thread).toEqual({ threadKey: `lookout-${alert.id}` });
    expect(of('matrix')[0]!.method).toBe('PUT');
    expect(of('ntfy')[0]!.json).toMatchObject({ topic: 'lookout-alerts', priority: 5 });
    expect(of('twilio_sms')[0]!.form.get('Body')).toContain(alert.title);
    expect(of('webhook')[0]!.json).toMatchObject({ event: 'alert.notification', alert: { id: alert.id } });
    const raisedCount = svc.requests.length;
    expect(raisedCount).toBe(httpKinds.length);

    // Acknowledged in Lookout: PagerDuty, Opsgenie and the webhook are told; nobody else.
    const ack = await w.api('POST', '/alerts/acknowledge', { json: { UUIDs: [alert.id] } });
    expect(ack.status).toBe(200);
    await waitFor(
      async () => [of('pagerduty').length, of('opsgenie').length, of('webhook').length],
      ([p, o, wh]) => p === 2 && o === 2 && wh === 2,
      { what: 'acknowledge sent to PagerDuty, Opsgenie and the webhook' },
    );
    expect(of('webhook')[1]!.json).toMatchObject({
      event: 'alert.acknowledged',
      alert: { id: alert.id, status: 'acknowledged' },
    });
    expect(of('pagerduty')[1]!.json).toEqual({
      routing_key: sampleConfigs('').pagerduty!.routing_key,
      event_action: 'acknowledge',
      dedup_key: alert.id,
    });
    expect(of('opsgenie')[1]!.path).toBe(`/opsgenie/v2/alerts/${alert.id}/acknowledge?identifierType=alias`);

    // The target recovers: the alert resolves itself, and every kind that follows hears of it.
    targetStatus = 200;
    await waitFor(
      async () => (await w.api('GET', `/alerts/${alert.id}`)).body.status,
      (s) => s === 'resolved',
      { what: 'the alert resolved by the recovery', timeoutMs: 30_000 },
    );
    await waitFor(
      async () =>
        [...FOLLOW_RESOLVED, 'pagerduty', 'opsgenie'].filter(
          (k) => of(k).length < (['pagerduty', 'opsgenie', 'webhook'].includes(k) ? 3 : 2),
        ),
      (missing) => missing.length === 0,
      { what: 'resolved on every kind that follows' },
    );
    expect(of('pagerduty')[2]!.json).toMatchObject({ event_action: 'resolve', dedup_key: alert.id });
    expect(of('opsgenie')[2]!.path).toBe(`/opsgenie/v2/alerts/${alert.id}/close?identifierType=alias`);
    expect(of('google_chat')[1]!.json.thread).toEqual({ threadKey: `lookout-${alert.id}` });
    // Replies where the service allows it, to the raised message's id its answer gave.
    expect(of('telegram')[1]!.json.text).toMatch(/RESOLVED/);
    expect(of('telegram')[1]!.json.reply_parameters).toEqual({
      message_id: 501,
      allow_sending_without_reply: true,
    });
    expect(of('matrix')[1]!.json).toMatchObject({
      msgtype: 'm.notice',
      'm.relates_to': { 'm.in_reply_to': { event_id: '$e1:example.org' } },
    });
    expect(of('discord')[1]!).toMatchObject({
      method: 'PATCH',
      path: '/discord/api/webhooks/1/tok/messages/1100',
    });
    for (const k of FOLLOW_RESOLVED.filter((k) => k !== 'webhook')) expect(of(k), k).toHaveLength(2);
    expect(of('webhook')).toHaveLength(3);
    // Every recovery notice says how long the alert lasted.
    const lasted = /RESOLVED after \d+(?:s|m(?: \d+s)?)\b/;
    expect(of('slack')[1]!.json.text).toMatch(lasted);
    expect(of('twilio_sms')[1]!.form.get('Body')).toMatch(lasted);
    expect(of('ntfy')[1]!.json.title).toMatch(lasted);
    expect(of('opsgenie')[2]!.json.note).toMatch(lasted);
    expect(of('webhook')[2]!.json).toMatchObject({
      event: 'alert.resolved',
      alert: { id: alert.id, status: 'resolved', source_name: 'Monitor “Checkout API”' },
    });
    expect(of('webhook')[2]!.json.alert.duration_seconds).toBeGreaterThanOrEqual(0);
    await waitFor(
      async () => smtp.mails.filter((m) => m.rcpt.includes('oncall@every-kind.test')),
      (mails) => mails.length === 2,
      { what: 'the recovery email' },
    );
    const recovery = smtp.mails.filter((m) => m.rcpt.includes('oncall@every-kind.test'))[1]!;
    expect(recovery.subject).toMatch(lasted);
    expect(recovery.text).toContain('Monitor “Checkout API”');
    expect(unauthorized).toEqual([]);

    // The timeline and each channel's log tell the same story.
    const timeline = (await w.api('GET', `/alerts/${alert.id}`)).body.timeline as {
      type: string;
      via?: string;
      outcome?: string;
    }[];
    const sentVia = timeline
      .filter((e) => e.type === 'notification' && e.outcome === 'sent')
      .map((e) => e.via);
    expect(sentVia.filter((v) => v === 'pagerduty')).toHaveLength(3);
    expect(sentVia.filter((v) => v === 'email')).toHaveLength(2);
    const pdLog = await w.api('GET', `/channels/${channels.pagerduty}/deliveries`);
    expect(
      pdLog.body.data.map((d: { idempotency_key: string }) =>
        d.idempotency_key.split(':').slice(1, 3).join(':'),
      ),
    ).toEqual(expect.arrayContaining(['follow:resolved', 'follow:acknowledged']));
  });
});
