import type { ChildProcess } from 'node:child_process';
import { createServer as createTcpServer, type Server } from 'node:net';
import { systemClock } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentToken } from '../../control-plane/src/domain/agents/agent-tokens.js';
import { verifySignature } from '../../control-plane/src/notify/webhook.js';
import { exited, startAgentProcess } from '../support/processes.js';
import type { Hit } from '../support/receivers.js';
import { startRoutingRig } from '../support/routing-rig.js';
import { waitFor } from '../support/wait.js';

/**
 * The recovery notice end to end: a TCP monitor checked by a real agent process against a loopback
 * port that is closed, then opened. Its alert reaches the admin by email (the real SMTP server) and a
 * webhook channel (a real receiver); when the port opens the alert resolves itself, and both hear of
 * it: a mail saying how long it lasted, and a signed `alert.resolved` event with the same alert id.
 */
let rig: Awaited<ReturnType<typeof startRoutingRig>>;
const agents: ChildProcess[] = [];
let listener: Server | undefined;

beforeAll(async () => {
  rig = await startRoutingRig({
    clock: systemClock,
    config: { plans: { e2e: { max_monitors: 10, min_interval_seconds: 1 } }, assignment_poll_ms: 500 },
  });
});
afterAll(async () => {
  for (const a of agents) a.kill('SIGTERM');
  await Promise.all(agents.map(exited));
  await new Promise((r) => (listener ? listener.close(r) : r(undefined)));
  await rig?.close();
});

/** A loopback port nothing listens on (taken, then let go). */
const closedPort = async () => {
  const s = createTcpServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
};

describe('recovery notice', () => {
  it('a closed port goes down and comes back: the email and the webhook that were told of it hear it resolved, with how long it lasted', async () => {
    const { h, rx, smtp } = rig;
    const w = await h.workspace('recovery', 'e2e');
    const hook = await w.api('POST', '/channels', {
      json: { name: 'Ops hook', type: 'webhook', config: { url: rx.url('/recovery') } },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    // Checked against the system clock here (the receiver's own check uses the harness's manual one).
    const signed = (hit: Hit) =>
      verifySignature(
        hook.body.signing_secret,
        hit.headers['x-lookout-signature'] as string,
        hit.body,
        Math.floor(Date.now() / 1000),
      );
    const policy = await w.api('POST', '/escalation-policies', {
      json: {
        name: 'Primary',
        steps: [{ wait_minutes: 0, notify_user_ids: [w.admin.id], notify_channel_ids: [hook.body.id] }],
      },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const port = await closedPort();
    const monitor = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'Billing DB',
        monitor_type: 'tcp',
        url: '127.0.0.1',
        port,
        check_interval_seconds: 1,
        timeout_seconds: 1,
        failure_threshold: 1,
        check_locations: ['eu-west'],
        escalation_policy_id: policy.body.id,
      },
    });
    expect(monitor.status, JSON.stringify(monitor.body)).toBe(201);
    const token = (await createAgentToken(h.store, h.config.regions, { region: 'eu-west' }, new Date()))
      .value;
    agents.push(
      (await startAgentProcess({ rpcUrl: h.cp.rpcUrl, token, region: 'eu-west', instance: 'eu-west-1' }))
        .child,
    );

    // Down: the admin's mail and the webhook, both naming the monitor and linking to the alert.
    const mailsTo = () => smtp.mails.filter((m) => m.rcpt.includes(w.admin.email));
    await waitFor(
      async () => [mailsTo().length, rx.on('/recovery').length],
      ([m, wh]) => m === 1 && wh === 1,
      { what: 'the alert by email and webhook', timeoutMs: 45_000 },
    );
    const raised = rx.on('/recovery')[0]!;
    expect(signed(raised)).toBe(true);
    expect(raised.json).toMatchObject({
      event: 'alert.notification',
      alert: { status: 'open', source_id: monitor.body.id, source_name: 'Monitor “Billing DB”' },
    });
    const alertId: string = raised.json.alert.id;
    const base = `http://recovery.localhost:${new URL(raised.json.ack_url).port}`;
    expect(raised.json.alert.url).toBe(`${base}/alerts/${alertId}`);
    const first = mailsTo()[0]!;
    expect(first.text).toContain(`Monitor “Billing DB”: ${base}/monitors/${monitor.body.id}`);
    expect(first.text).toContain(`Open in Lookout: ${base}/alerts/${alertId}`);
    expect(first.text).toContain('Notified at step 1 of 1 in escalation policy “Primary”.');
    expect(first.text).not.toMatch(/Escalation step 1\./);

    // The port opens: the alert resolves itself, and both hear of it, once.
    listener = createTcpServer((s) => s.end());
    await new Promise<void>((r) => listener!.listen(port, '127.0.0.1', () => r()));
    await waitFor(
      async () => (await w.api('GET', `/alerts/${alertId}`)).body.status,
      (s) => s === 'resolved',
      { what: 'the alert resolved by the recovery', timeoutMs: 30_000 },
    );
    await waitFor(
      async () => [mailsTo().length, rx.on('/recovery').length],
      ([m, wh]) => m === 2 && wh === 2,
      { what: 'the recovery email and webhook event' },
    );
    const resolved = rx.on('/recovery')[1]!;
    expect(signed(resolved)).toBe(true);
    expect(resolved.headers['x-lookout-delivery']).toBe(`${alertId}:follow:resolved:channel:${hook.body.id}`);
    expect(resolved.json).toMatchObject({
      event: 'alert.resolved',
      alert: { id: alertId, status: 'resolved', source_name: 'Monitor “Billing DB”' },
      by: 'Lookout (it recovered)',
    });
    const alert = (await w.api('GET', `/alerts/${alertId}`)).body;
    const lastedSeconds = Math.round(
      (new Date(alert.resolved_at).getTime() - new Date(alert.created_at).getTime()) / 1000,
    );
    expect(resolved.json.alert.duration_seconds).toBe(lastedSeconds);
    const recovery = mailsTo()[1]!;
    expect(recovery.subject).toMatch(/^\[Lookout recovery\] RESOLVED after \d+s: Billing DB is down$/);
    expect(recovery.text).toMatch(
      /^Resolved by Lookout \(it recovered\) at .+\. It lasted \d+s \(raised .+\)\./,
    );
    expect(recovery.headers.get('x-lookout-delivery')).toBe(`${alertId}:follow:resolved:user:${w.admin.id}`);

    // Nothing more: a later pass sends neither again.
    await new Promise((r) => setTimeout(r, 300));
    expect([mailsTo().length, rx.on('/recovery').length]).toEqual([2, 2]);
  });
});
