import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecretBox } from '@lookout/shared';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../control-plane/src/config.js';
import { raiseAlert } from '../../control-plane/src/domain/alerts/alerts.js';
import { createPolicy } from '../../control-plane/src/domain/escalation/escalation-policies.js';
import { createChannel } from '../../control-plane/src/domain/notifications/channels.js';
import { createWorkspace } from '../../control-plane/src/domain/tenancy/workspaces.js';
import type { Alert, NotificationChannel } from '../../control-plane/src/domain/types.js';
import { CHANNEL_KINDS } from '../../control-plane/src/notify/kinds/index.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';
import { type ClockedControlPlane, startClockedControlPlane } from '../support/clocked-control-plane.js';
import { jobPassed } from '../support/job-passes.js';
import { exited } from '../support/processes.js';
import { type Receiver, startReceiver } from '../support/receivers.js';
import { waitFor } from '../support/wait.js';

/**
 * The escalation scheduler across real OS processes on one SQLite file, with a clock the test moves
 * (test/support/control-plane-child.js): two control planes never send a step twice; a control plane
 * killed mid-escalation and replaced loses no step and repeats none; a recovery notice survives a
 * restart and a kill mid-notice the same way.
 */
const T0 = Date.parse('2026-06-01T12:00:00Z');
const MIN = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'lookout-escalation-'));
const children: ChildProcess[] = [];
const open: { close(): Promise<unknown> }[] = [];
let now = T0;

afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await exited(c);
  }
  for (const o of open.splice(0)) await o.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const startChild = (data: string) =>
  startClockedControlPlane({
    data,
    clockStart: now,
    children,
    env: {
      LOOKOUT_ESCALATION_POLL_MS: '20',
      LOOKOUT_ESCALATION_LEASE_SECONDS: '30',
      LOOKOUT_NOTIFY_RETRY_BASE_MS: '10',
    },
  });

/** A store on the shared file, a workspace, webhook channels on the receiver, and a policy. */
const setup = async (
  data: string,
  rx: Receiver,
  paths: string[],
  steps: { wait: number; hooks: number[] }[],
  repeat = 0,
) => {
  const store: Store = createSqliteStore({ path: join(data, 'lookout.db') });
  await store.init();
  open.push(store);
  const config = loadConfig({}, {});
  const { workspace } = await createWorkspace(
    store,
    config.plans,
    { subdomain: `esc-${Math.random().toString(36).slice(2, 8)}`, admin_email: 'a@x.test', plan: 'team' },
    new Date(now),
  );
  const channels: NotificationChannel[] = [];
  for (const path of paths) {
    const c = await createChannel(
      store,
      { kinds: CHANNEL_KINDS, box: createSecretBox(undefined) },
      workspace.id,
      { name: path, type: 'webhook', config: { url: rx.url(path) } },
      new Date(now),
    );
    rx.secret(path, c.secret!);
    channels.push(c);
  }
  const policy = await createPolicy(
    store,
    workspace.id,
    {
      name: 'durable',
      steps: steps.map((s) => ({
        wait_minutes: s.wait,
        notify_channel_ids: s.hooks.map((i) => channels[i]!.id),
      })),
      repeat,
    },
    new Date(now),
  );
  const raise = async (key: string) =>
    (
      await raiseAlert(
        store,
        {
          workspace_id: workspace.id,
          source_type: 'integration',
          source_id: 'src',
          cause: 'webhook',
          dedup_key: key,
          title: key,
          escalation_policy_id: policy.id,
        },
        new Date(now),
      )
    ).alert;
  return { store, workspace, channels, policy, raise };
};

const deliveryIds = (rx: Receiver) => rx.hits.map((h) => h.headers['x-lookout-delivery'] as string);

/**
 * Moves a process's clock to `at` and resolves once its escalation job has finished a pass there: what
 * was due by then has been sent, so nothing more can be asserted after it.
 */
const escalatedAt = async (cp: ClockedControlPlane, at: number) => {
  await cp.setClock(at);
  await jobPassed(`http://127.0.0.1:${cp.port}`, 'escalations', at);
};

describe('durable escalation', () => {
  it('two control-plane processes on one SQLite file send every step of every alert exactly once', async () => {
    now = T0;
    const data = join(dir, 'two');
    const rx = await startReceiver({ nowSeconds: () => Math.floor(now / 1000) });
    open.push(rx);
    const s = await setup(
      data,
      rx,
      ['/two'],
      [
        { wait: 0, hooks: [0] },
        { wait: 1, hooks: [0] },
        { wait: 1, hooks: [0] },
      ],
      1,
    );
    const alerts: Alert[] = [];
    for (let i = 0; i < 6; i++) alerts.push(await s.raise(`a${i}`));
    const [a, b] = await Promise.all([startChild(data), startChild(data)]);
    // schedule per alert: minutes 0, 1, 2 (round 0), 3, 4, 5 (the repeat waits as long as the last step)
    for (let m = 0; m <= 5; m++) {
      now = T0 + m * MIN;
      await Promise.all([a.setClock(now), b.setClock(now)]);
      await waitFor(
        async () => rx.hits.length,
        (n) => n >= alerts.length * (m + 1),
        {
          what: `deliveries up to minute ${m}`,
        },
      );
      // Move the clock on only once every step of this minute is logged and released: jumping past a
      // running step's lease would (rightly) let the other process take it over and run it again.
      await waitFor(
        () => Promise.all(alerts.map((al) => s.store.getAlert(s.workspace.id, al.id))),
        (as) => as.every((x) => x?.escalation?.claim === null && x.escalation_due_at?.getTime() !== now),
        { what: `steps of minute ${m} released` },
      );
    }
    // Long after the last step, both processes have looked again: nothing more was sent.
    now = T0 + 60 * MIN;
    await Promise.all([escalatedAt(a, now), escalatedAt(b, now)]);
    const ids = deliveryIds(rx);
    expect(ids).toHaveLength(alerts.length * 6);
    expect(new Set(ids).size).toBe(ids.length);
    expect(rx.hits.every((h) => h.verified)).toBe(true);
    for (const al of alerts) {
      const steps = rx.hits
        .filter((h) => h.json.alert.id === al.id)
        .map((h) => `${h.json.round}:${h.json.step}`)
        .sort();
      expect(steps).toEqual(['0:0', '0:1', '0:2', '1:0', '1:1', '1:2']);
    }
    const stored = await s.store.getAlert(s.workspace.id, alerts[0]!.id);
    expect(stored?.escalation).toMatchObject({ finished: true, claim: null });
    expect(stored?.escalation_due_at).toBeNull();
  });

  it('a control plane killed between steps and replaced: the next step is sent once, none is repeated', async () => {
    now = T0;
    const data = join(dir, 'restart');
    const rx = await startReceiver({ nowSeconds: () => Math.floor(now / 1000) });
    open.push(rx);
    const s = await setup(
      data,
      rx,
      ['/restart'],
      [
        { wait: 0, hooks: [0] },
        { wait: 2, hooks: [0] },
      ],
    );
    const alert = await s.raise('r');
    const first = await startChild(data);
    await waitFor(
      async () => rx.hits.length,
      (n) => n === 1,
      { what: 'step 1' },
    );
    await waitFor(
      async () => (await s.store.getAlert(s.workspace.id, alert.id))?.escalation?.step,
      (step) => step === 1,
      { what: 'step 1 recorded as done' },
    );
    first.child.kill('SIGKILL');
    await exited(first.child);
    // down while step 2 falls due; the replacement starts late and sends it then
    now = T0 + 3 * MIN;
    const second = await startChild(data);
    await waitFor(
      async () => rx.hits.length,
      (n) => n === 2,
      { what: 'step 2 after the restart' },
    );
    await waitFor(
      async () => (await s.store.getAlert(s.workspace.id, alert.id))?.escalation,
      (e) => e?.finished === true && e.claim === null,
      { what: 'the escalation finished and released' },
    );
    // Long after, the replacement has looked again: nothing more was sent.
    now = T0 + 60 * MIN;
    await escalatedAt(second, now);
    expect(rx.hits.map((h) => h.json.step)).toEqual([0, 1]);
    expect(new Set(deliveryIds(rx)).size).toBe(2);
    second.child.kill('SIGKILL');
  });

  it('killed in the middle of a step: after the lease the step is finished, skipping targets already sent', async () => {
    now = T0;
    const data = join(dir, 'mid');
    const rx = await startReceiver({ nowSeconds: () => Math.floor(now / 1000) });
    open.push(rx);
    const s = await setup(
      data,
      rx,
      ['/mid-a', '/mid-b'],
      [
        { wait: 0, hooks: [0, 1] },
        { wait: 5, hooks: [0] },
      ],
    );
    rx.hold('/mid-b'); // B's request arrives and is never answered
    const alert = await s.raise('m');
    const first = await startChild(data);
    await waitFor(
      async () => (await s.store.listDeliveries(s.workspace.id, { alert_id: alert.id, limit: 10 })).length,
      (n) => n === 1,
      { what: 'A sent and logged while B hangs' },
    );
    await waitFor(
      async () => rx.pending.length,
      (n) => n === 1,
      { what: 'B in flight' },
    );
    first.child.kill('SIGKILL');
    await exited(first.child);
    rx.hold('/mid-b', false);

    const second = await startChild(data);
    // the claim is still held until its lease ends (T0 + 30 s): nothing happens before
    now = T0 + 29_000;
    await escalatedAt(second, now);
    expect(rx.on('/mid-b')).toHaveLength(0);
    now = T0 + 31_000;
    await second.setClock(now);
    await waitFor(
      async () => rx.on('/mid-b').length,
      (n) => n === 1,
      { what: 'B after the lease' },
    );
    // That run of the step is over once it has moved the escalation on and released it; A, logged as
    // sent before the kill, was skipped.
    await waitFor(
      async () => (await s.store.getAlert(s.workspace.id, alert.id))?.escalation,
      (e) => e?.step === 1 && e.claim === null,
      { what: 'the step finished and released' },
    );
    expect(rx.on('/mid-a')).toHaveLength(1);
    // at least once: B's delivery id reached the receiver twice (the unanswered request, then this one)
    expect(rx.on('/mid-b')[0]!.headers['x-lookout-delivery']).toBe(
      rx.pending[0]!.headers['x-lookout-delivery'],
    );
    // and the escalation goes on from there
    now = T0 + 31_000 + 5 * MIN;
    await second.setClock(now);
    await waitFor(
      async () => rx.on('/mid-a').length,
      (n) => n === 2,
      { what: 'step 2' },
    );
    expect(rx.on('/mid-a')[1]!.json.step).toBe(1);
  });

  it('resolved while no control plane runs: the one started hours later sends the recovery notice, once; killed mid-notice, it is finished after the lease', async () => {
    now = T0;
    const data = join(dir, 'recovery');
    const rx = await startReceiver({ nowSeconds: () => Math.floor(now / 1000) });
    open.push(rx);
    const s = await setup(data, rx, ['/rec-a', '/rec-b'], [{ wait: 0, hooks: [0, 1] }]);
    const alert = await s.raise('rec');
    const first = await startChild(data);
    await waitFor(
      async () => rx.hits.length,
      (n) => n === 2,
      { what: 'the alert on both hooks' },
    );
    await waitFor(
      async () => (await s.store.getAlert(s.workspace.id, alert.id))?.escalation,
      (e) => e?.finished === true && e.claim === null,
      { what: 'the step recorded as done' },
    );
    first.child.kill('SIGKILL');
    await exited(first.child);
    // Resolved (its source recovered) while nothing runs; the next control plane starts hours later.
    now = T0 + 5 * MIN;
    expect(
      (await s.store.resolveAlert(s.workspace.id, alert.id, { type: 'system' }, new Date(now))).outcome,
    ).toBe('resolved');
    now = T0 + 3 * 60 * MIN;
    rx.hold('/rec-b'); // B's recovery notice arrives and is never answered
    const second = await startChild(data);
    await waitFor(
      async () => [rx.on('/rec-a').length, rx.pending.length],
      ([a, b]) => a === 2 && b === 1,
      { what: 'the recovery notice to A, and to B in flight' },
    );
    const followKeyA = `${alert.id}:follow:resolved:channel:${s.channels[0]!.id}`;
    await waitFor(
      async () => s.store.hasSentDelivery(followKeyA),
      (sent) => sent,
      { what: 'A logged as sent' },
    );
    second.child.kill('SIGKILL');
    await exited(second.child);
    rx.hold('/rec-b', false);
    const third = await startChild(data);
    now += 31_000; // past the dead one's lease
    await third.setClock(now);
    await waitFor(
      async () => rx.on('/rec-b').length,
      (n) => n === 2,
      { what: 'the recovery notice to B after the lease' },
    );
    await waitFor(
      async () => (await s.store.getAlert(s.workspace.id, alert.id))?.escalation_due_at,
      (due) => due === null,
      { what: 'the follow-up finished' },
    );
    now += 60 * MIN;
    await third.setClock(now);
    await jobPassed(`http://127.0.0.1:${third.port}`, 'alert-follow-ups', now);
    // A once (logged as sent before the kill, skipped after); B at least once, under one delivery id.
    const resolved = (path: string) => rx.on(path).filter((h) => h.json.event === 'alert.resolved');
    expect(resolved('/rec-a')).toHaveLength(1);
    expect(resolved('/rec-b')).toHaveLength(1);
    expect(resolved('/rec-b')[0]!.headers['x-lookout-delivery']).toBe(
      rx.pending[0]!.headers['x-lookout-delivery'],
    );
    expect(resolved('/rec-a')[0]!.json.alert).toMatchObject({ id: alert.id, duration_seconds: 300 });
    expect(rx.hits.every((h) => h.verified)).toBe(true);
    third.child.kill('SIGKILL');
  });
});
