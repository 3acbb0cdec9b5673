import { createSecretBox, ManualClock } from '@lookout/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { CHANNEL_KINDS } from '../../notify/kinds/index.js';
import type { Store } from '../../store/port.js';
import { createSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { raiseAlert } from '../alerts/alerts.js';
import { idempotencyKey } from '../alerts/escalation-timing.js';
import { createHeartbeat } from '../heartbeats/heartbeats.js';
import { createChannel } from '../notifications/channels.js';
import type { Dispatcher, Target } from '../notifications/messages.js';
import { createWorkspace } from '../tenancy/workspaces.js';
import type { Alert, Workspace } from '../types.js';
import { createPolicy } from './escalation-policies.js';
import { createEscalationRunner } from './escalation-runner.js';

const MIN = 60_000;
let store: Store;
let clock: ManualClock;
let workspace: Workspace;
let adminId: string;
let channelId: string;
let sent: { target: Target; key: string | null; step: number; event: string }[];

/** Records sends; every one succeeds. */
const dispatcher: Dispatcher = {
  async send(target, message, deliveryId, onAttempt) {
    sent.push({
      target,
      key: deliveryId,
      step: (message.payload as { step: number }).step,
      event: message.event,
    });
    const ok = { ok: true, permanent: false, status_code: 200, error: null };
    await onAttempt(1, ok, false);
    return ok;
  },
  describe: (t) => (t.config.addresses as string[] | undefined)?.join(', ') ?? t.kind,
  follows: (kind) => CHANNEL_KINDS[kind]?.follows ?? [],
  grouping: (kind) => CHANNEL_KINDS[kind]?.grouping ?? 'per_alert',
};
const runner = () => createEscalationRunner({ store, clock, dispatcher, leaseMs: 60_000 });

beforeEach(async () => {
  store = createSqliteStore({ path: ':memory:' });
  await store.init();
  clock = new ManualClock('2026-06-01T12:00:00Z');
  sent = [];
  const ws = await createWorkspace(
    store,
    loadConfig({}, {}).plans,
    { subdomain: 'run', admin_email: 'admin@run.test', plan: 'team' },
    clock.now(),
  );
  workspace = ws.workspace;
  adminId = ws.admin.id;
  channelId = (
    await createChannel(
      store,
      { kinds: CHANNEL_KINDS, box: createSecretBox(undefined) },
      workspace.id,
      { name: 'hook', type: 'webhook', config: { url: 'http://127.0.0.1:9/' } },
      clock.now(),
    )
  ).id;
});

const policy = (
  steps: { wait_minutes: number; notify_user_ids?: string[]; notify_channel_ids?: string[] }[],
) => createPolicy(store, workspace.id, { name: 'p', steps }, clock.now());

const raise = async (policyId: string, key = 'k'): Promise<Alert> =>
  (
    await raiseAlert(
      store,
      {
        workspace_id: workspace.id,
        source_type: 'integration',
        source_id: 's',
        cause: 'c',
        dedup_key: key,
        title: 't',
        escalation_policy_id: policyId,
      },
      clock.now(),
    )
  ).alert;

describe('escalation runner', () => {
  it('sends a step to its users (email) and channels once it is due, and only then', async () => {
    const p = await policy([
      { wait_minutes: 0, notify_user_ids: [adminId], notify_channel_ids: [channelId] },
      { wait_minutes: 10, notify_channel_ids: [channelId] },
    ]);
    const a = await raise(p.id);
    const r = runner();
    expect(await r.tick()).toBe(1);
    expect(sent.map((s) => s.target.kind).sort()).toEqual(['email', 'webhook']);
    expect(sent.find((s) => s.target.kind === 'email')?.target).toEqual({
      kind: 'email',
      config: { addresses: ['admin@run.test'] },
      workspace_id: workspace.id,
    });
    expect(await r.tick()).toBe(0);
    clock.advance(10 * MIN - 1);
    expect(await r.tick()).toBe(0);
    clock.advance(1);
    expect(await r.tick()).toBe(1);
    expect(sent.map((s) => s.step)).toEqual([0, 0, 1]);
    const done = await store.getAlert(workspace.id, a.id);
    expect(done?.escalation).toMatchObject({ finished: true, claim: null });
    expect(await store.listDeliveries(workspace.id, { alert_id: a.id, limit: 10 })).toHaveLength(3);
  });

  it('two runners ticking at once on one store send each step once', async () => {
    const p = await policy([{ wait_minutes: 0, notify_channel_ids: [channelId] }]);
    for (let i = 0; i < 5; i++) await raise(p.id, `k${i}`);
    const [x, y] = [runner(), runner()];
    const ran = await Promise.all([x.tick(), y.tick(), x.tick(), y.tick()]);
    expect(ran.reduce((s, n) => s + n, 0)).toBe(5);
    expect(sent).toHaveLength(5);
    expect(new Set(sent.map((s) => s.key)).size).toBe(5);
  });

  it('a step whose runner died is run again after the lease, skipping targets already sent', async () => {
    const p = await policy([
      { wait_minutes: 0, notify_user_ids: [adminId], notify_channel_ids: [channelId] },
    ]);
    const a = await raise(p.id);
    // a replica claimed the step, emailed the admin, logged it, and died
    expect(
      await store.claimEscalation(
        workspace.id,
        a.id,
        a.escalation_due_at!,
        'dead',
        new Date(clock.now().getTime() + 60_000),
      ),
    ).not.toBeNull();
    await store.insertDelivery({
      id: crypto.randomUUID(),
      workspace_id: workspace.id,
      alert_id: a.id,
      channel_id: null,
      user_id: adminId,
      kind: 'email',
      target: 'admin@run.test',
      step: 0,
      round: 0,
      attempt: 1,
      outcome: 'sent',
      permanent: false,
      status_code: null,
      error: null,
      idempotency_key: idempotencyKey(a, { policy_id: p.id, round: 0, step: 0 }, `user:${adminId}`),
      test: false,
      at: clock.now(),
    });
    const r = runner();
    expect(await r.tick()).toBe(0); // still leased
    clock.advance(60_000);
    expect(await r.tick()).toBe(1);
    expect(sent.map((s) => s.target.kind)).toEqual(['webhook']);
  });

  it('an acknowledged alert is not notified; a deleted policy falls back to the workspace default', async () => {
    const p = await policy([
      { wait_minutes: 0, notify_channel_ids: [channelId] },
      { wait_minutes: 5, notify_channel_ids: [channelId] },
    ]);
    const acked = await raise(p.id, 'acked');
    await store.acknowledgeAlert(workspace.id, acked.id, { type: 'system' }, clock.now());
    const orphan = await raise(p.id, 'orphan');
    const r = runner();
    await r.tick();
    expect(sent.map((s) => s.key)).toEqual([`${orphan.id}:${p.id}:0:0:channel:${channelId}`]);
    // the policy goes away mid-escalation (no monitor uses it): the default (email the admin) takes over
    expect(await store.deleteEscalationPolicy(workspace.id, p.id)).toBe('deleted');
    clock.advance(5 * MIN);
    await r.tick();
    expect(sent.at(-1)?.target).toEqual({
      kind: 'email',
      config: { addresses: ['admin@run.test'] },
      workspace_id: workspace.id,
    });
  });

  it('follows an alert: acknowledged and resolved go once to the channels it reached whose kind follows them', async () => {
    const rules = { kinds: CHANNEL_KINDS, box: createSecretBox(undefined) };
    const make = (name: string, type: string, config: Record<string, unknown>) =>
      createChannel(store, rules, workspace.id, { name, type, config }, clock.now());
    const pd = await make('pd', 'pagerduty', { routing_key: 'R0UT1NGKEY0123456789abcdefABCDEF' });
    const chat = await make('chat', 'slack', { url: 'http://127.0.0.1:9/slack' });
    const unreached = await make('pd2', 'pagerduty', { routing_key: 'R0UT1NGKEY0123456789abcdefABCDEF' });
    const p = await policy([{ wait_minutes: 0, notify_channel_ids: [pd.id, chat.id, channelId] }]);
    const r = runner();
    const a = await raise(p.id, 'one');
    await r.tick();
    expect(sent.map((s) => s.event)).toEqual(['raised', 'raised', 'raised']);
    const events = () =>
      sent
        .filter((s) => s.event !== 'raised')
        .map((s) => `${s.event} ${s.target.kind}`)
        .sort();

    clock.advance(MIN);
    await store.acknowledgeAlert(workspace.id, a.id, { type: 'system' }, clock.now());
    expect(await r.followTick()).toBe(1);
    expect(events()).toEqual(['acknowledged pagerduty', 'acknowledged webhook']);
    expect(await r.followTick()).toBe(0);
    expect(events()).toEqual(['acknowledged pagerduty', 'acknowledged webhook']);

    clock.advance(MIN);
    await store.resolveAlert(workspace.id, a.id, { type: 'system' }, clock.now());
    expect(await r.followTick()).toBe(1);
    expect(events()).toEqual([
      'acknowledged pagerduty',
      'acknowledged webhook',
      'resolved pagerduty',
      'resolved slack',
      'resolved webhook',
    ]);
    expect(sent.every((s) => !s.key?.includes(unreached.id))).toBe(true);
    const keys = sent.filter((s) => s.event === 'resolved').map((s) => s.key);
    expect(keys.sort()).toEqual(
      [
        `${a.id}:follow:resolved:channel:${chat.id}`,
        `${a.id}:follow:resolved:channel:${pd.id}`,
        `${a.id}:follow:resolved:channel:${channelId}`,
      ].sort(),
    );

    // Acknowledged and resolved between two passes: "resolved" alone.
    sent = [];
    const b = await raise(p.id, 'two');
    await r.tick();
    clock.advance(MIN);
    await store.acknowledgeAlert(workspace.id, b.id, { type: 'system' }, clock.now());
    await store.resolveAlert(workspace.id, b.id, { type: 'system' }, clock.now());
    await r.followTick();
    expect(events()).toEqual(['resolved pagerduty', 'resolved slack', 'resolved webhook']);
    // A new runner (a restart) finds nothing left to send.
    await runner().followTick();
    expect(events()).toEqual(['resolved pagerduty', 'resolved slack', 'resolved webhook']);
  });

  it('the recovery notice reaches every user email the alert reached, says how long it lasted, and names things', async () => {
    const p = await policy([{ wait_minutes: 0, notify_user_ids: [adminId] }]);
    const messages: { event: string; subject: string; text: string; payload: unknown }[] = [];
    const r = createEscalationRunner({
      store,
      clock,
      leaseMs: 60_000,
      workspaceUrl: (s) => `https://${s}.lookout.test`,
      dispatcher: {
        ...dispatcher,
        async send(target, message, key, onAttempt) {
          messages.push(message);
          return dispatcher.send(target, message, key, onAttempt);
        },
      },
    });
    const a = await raise(p.id);
    await r.tick();
    clock.advance(4 * MIN + 12_000);
    await store.resolveAlert(
      workspace.id,
      a.id,
      { type: 'user', user_id: adminId, api_key_id: null },
      clock.now(),
    );
    expect(await r.followTick()).toBe(1);
    expect(sent.map((s) => [s.event, s.target.kind, s.key])).toEqual([
      ['raised', 'email', `${a.id}:${p.id}:0:0:user:${adminId}`],
      ['resolved', 'email', `${a.id}:follow:resolved:user:${adminId}`],
    ]);
    expect(messages[0]!.text).toContain('Notified at step 1 of 1 in escalation policy “p”.');
    expect(messages[0]!.text).toContain(`Open in Lookout: https://run.lookout.test/alerts/${a.id}`);
    expect(messages[1]!.subject).toBe('[Lookout run] RESOLVED after 4m 12s: t');
    expect(messages[1]!.text.split('\n')[0]).toBe(
      'Resolved by admin@run.test at 2026-06-01 12:04 UTC. It lasted 4m 12s (raised 2026-06-01 12:00 UTC).',
    );
    // both logged as sent (the timeline shows them)
    const links = await store.listDeliveries(workspace.id, { alert_id: a.id, limit: 10 });
    expect(links.map((d) => d.outcome)).toEqual(['sent', 'sent']);
  });

  it('a follow-up whose runner died is sent after the lease by another, once; two runners at once send it once', async () => {
    const p = await policy([
      { wait_minutes: 0, notify_user_ids: [adminId], notify_channel_ids: [channelId] },
    ]);
    const a = await raise(p.id);
    await runner().tick();
    clock.advance(MIN);
    await store.resolveAlert(workspace.id, a.id, { type: 'system' }, clock.now());
    // a replica claimed the follow-up, mailed the admin, logged it, and died before the webhook
    const due = (await store.getAlert(workspace.id, a.id))!.escalation_due_at!;
    expect(due).toEqual(clock.now());
    const lease = new Date(clock.now().getTime() + 60_000);
    expect(await store.claimFollowUp(workspace.id, a.id, due, 'follow:dead', lease)).not.toBeNull();
    await store.insertDelivery({
      id: crypto.randomUUID(),
      workspace_id: workspace.id,
      alert_id: a.id,
      channel_id: null,
      user_id: adminId,
      kind: 'email',
      target: 'admin@run.test',
      step: null,
      round: null,
      attempt: 1,
      outcome: 'sent',
      permanent: false,
      status_code: null,
      error: null,
      idempotency_key: `${a.id}:follow:resolved:user:${adminId}`,
      test: false,
      at: clock.now(),
    });
    sent = [];
    const [x, y] = [runner(), runner()];
    expect(await Promise.all([x.followTick(), y.followTick()])).toEqual([0, 0]); // still leased
    clock.advance(60_000);
    const ran = await Promise.all([x.followTick(), y.followTick(), x.followTick()]);
    expect(ran.reduce((s, n) => s + n, 0)).toBe(1);
    expect(sent.map((s) => `${s.event} ${s.target.kind}`)).toEqual(['resolved webhook']);
    expect((await store.getAlert(workspace.id, a.id))?.escalation_due_at).toBeNull();
    expect(await runner().followTick()).toBe(0);
  });

  it('an alert resolved while its step is being sent: the follow-up waits a lease, then reaches whoever the step reached', async () => {
    const p = await policy([{ wait_minutes: 0, notify_channel_ids: [channelId] }]);
    const a = await raise(p.id);
    // a replica claimed the step and is still sending it when the alert resolves
    const lease = new Date(clock.now().getTime() + 60_000);
    expect(
      await store.claimEscalation(workspace.id, a.id, a.escalation_due_at!, 'step', lease),
    ).not.toBeNull();
    await store.resolveAlert(workspace.id, a.id, { type: 'system' }, clock.now());
    const r = runner();
    expect(await r.followTick()).toBe(0);
    // the step's send lands and is logged after the resolve
    await store.insertDelivery({
      id: crypto.randomUUID(),
      workspace_id: workspace.id,
      alert_id: a.id,
      channel_id: channelId,
      user_id: null,
      kind: 'webhook',
      target: 'http://127.0.0.1:9/',
      step: 0,
      round: 0,
      attempt: 1,
      outcome: 'sent',
      permanent: false,
      status_code: 200,
      error: null,
      idempotency_key: idempotencyKey(a, { policy_id: p.id, round: 0, step: 0 }, `channel:${channelId}`),
      test: false,
      at: clock.now(),
    });
    clock.advance(59_999);
    expect(await r.followTick()).toBe(0);
    expect(sent).toEqual([]);
    clock.advance(1);
    expect(await r.followTick()).toBe(1);
    expect(sent.map((s) => [s.event, s.key])).toEqual([
      ['resolved', `${a.id}:follow:resolved:channel:${channelId}`],
    ]);
  });

  it("a heartbeat's alert is named by the heartbeat and links to its page and the alert's", async () => {
    const p = await policy([{ wait_minutes: 0, notify_channel_ids: [channelId] }]);
    const hb = await createHeartbeat(
      store,
      workspace,
      { display_name: 'Nightly backup', period_seconds: 3600 },
      clock.now(),
    );
    const texts: string[] = [];
    const r = createEscalationRunner({
      store,
      clock,
      leaseMs: 60_000,
      workspaceUrl: (s) => `https://${s}.lookout.test`,
      dispatcher: {
        ...dispatcher,
        async send(target, message, key, onAttempt) {
          texts.push(message.text);
          return dispatcher.send(target, message, key, onAttempt);
        },
      },
    });
    const a = (
      await raiseAlert(
        store,
        {
          workspace_id: workspace.id,
          source_type: 'heartbeat',
          source_id: hb.id,
          cause: 'missed',
          dedup_key: '',
          title: 'Nightly backup is late',
          escalation_policy_id: p.id,
        },
        clock.now(),
      )
    ).alert;
    await r.tick();
    expect(texts[0]!.split('\n')).toEqual([
      'Nightly backup is late',
      '',
      `Heartbeat “Nightly backup”: https://run.lookout.test/heartbeats/${hb.id}`,
      'Raised 2026-06-01 12:00 UTC.',
      'Notified at step 1 of 1 in escalation policy “p”.',
      `Open in Lookout: https://run.lookout.test/alerts/${a.id}`,
    ]);
  });

  it('two replicas on one store: a grouped message is claimed by one and sent once', async () => {
    const p = await policy([{ wait_minutes: 0, notify_channel_ids: [channelId] }]);
    const grouping = { waitMs: 5_000, intervalMs: 60_000 };
    const one = createEscalationRunner({ store, clock, dispatcher, leaseMs: 60_000, grouping });
    const two = createEscalationRunner({ store, clock, dispatcher, leaseMs: 60_000, grouping });
    for (let i = 0; i < 5; i++) await raise(p.id, `k${i}`);
    await Promise.all([one.tick(), two.tick()]);
    expect(sent).toEqual([]);
    clock.advance(5_000);
    const ran = await Promise.all([one.groupTick(), two.groupTick(), one.groupTick(), two.groupTick()]);
    expect(ran.reduce((x, y) => x + y, 0)).toBe(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.key).toMatch(/^group:/);
    // Nothing left to send, on either replica, however long they look.
    clock.advance(3_600_000);
    expect(await Promise.all([one.groupTick(), two.groupTick()])).toEqual([0, 0]);
  });
});
