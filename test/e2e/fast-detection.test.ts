import { type AddressInfo, createServer } from 'node:net';
import { ManualClock, silentLogger } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from '../../agent/src/agent.js';
import type { AgentConfig } from '../../agent/src/config.js';
import { manualTimers } from '../../agent/src/manual-timers.js';
import { nextRunAt } from '../../agent/src/phase.js';
import { createProbers } from '../../agent/src/probers/index.js';
import { createAgentToken } from '../../control-plane/src/domain/agents/agent-tokens.js';
import { type Harness, startHarness } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * How fast a dead target is found, with the defaults (60 s interval, failure_threshold 3, retry
 * interval 15 s): a real control plane and a real agent (in this process, so both clocks are the
 * test's), a tcp monitor of a closed port on loopback. Time moves only when the test moves it; the
 * assertions are about which checks ran at which (manual) times, never about wall durations.
 */
const T0 = Date.parse('2026-06-01T12:00:00Z');
let h: Harness;
let clock: ManualClock;
let closedPort: number;
let agent: ReturnType<typeof createAgent>;
const t = manualTimers(T0);

beforeAll(async () => {
  clock = new ManualClock(T0);
  h = await startHarness({ assignment_poll_ms: 50 }, { clock });
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const token = (await createAgentToken(h.store, h.config.regions, { region: 'eu-west' }, clock.now())).value;
  const config: AgentConfig = {
    control_plane_url: h.cp.rpcUrl,
    token,
    region: 'eu-west',
    instance_id: 'eu-west-1',
    concurrency: 4,
    queue_max: 100,
    buffer_max_results: 1000,
    buffer_max_bytes: 64 * 2 ** 20,
    buffer_max_age_seconds: 3600,
    log_level: 'silent',
    nice: 0,
    shutdown_grace_ms: 100,
    metrics_port: 0,
    metrics_host: '127.0.0.1',
    block_private_targets: false,
    data_dir: undefined,
    check_types: undefined,
    rdap_bootstrap_url: 'off',
    rdap_refresh_hours: 0,
    fping: 'off',
    auth_retry_seconds: 300,
    chromium_path: undefined,
    browser_concurrency: 2,
    browser_memory_mb: 128,
    browser_cpu_seconds: 30,
  };
  agent = createAgent({ config, logger: silentLogger(), prober: createProbers(), timers: t.timers });
  void agent.start();
  await waitFor(
    async () => agent.connected,
    (c) => c,
    { what: 'the agent to connect' },
  );
});
afterAll(async () => {
  await agent?.stop(100);
  await h?.close();
});

/**
 * Moves both clocks to `to`, a second at a time, letting the stream, checks and reports run between:
 * a check that starts ends before time moves on (its retry counts from when it ended).
 */
const advanceTo = async (to: number) => {
  while (t.timers.now() < to) {
    const next = Math.min(to, t.timers.now() + 1000);
    clock.set(next);
    await t.advanceTo(next);
    await new Promise((r) => setTimeout(r, 10));
    await waitFor(
      async () => agent.health().inFlight,
      (n) => n === 0,
      { everyMs: 2, what: 'the running checks to end' },
    );
  }
};

type Api = Awaited<ReturnType<Harness['workspace']>>['api'];
interface Result {
  scheduled_at: string;
  ok: boolean;
  location: string;
  run_now_request_id: string | null;
}

/** The monitor's results, oldest first, as the API shows them. */
const resultsOf = async (api: Api, id: string) =>
  ((await api('GET', `/monitors/${id}/results?limit=100`)).body.data as Result[]).reverse();
const statusOf = async (api: Api, id: string) => (await api('GET', `/monitors/${id}`)).body.status as string;

/** A tcp monitor of the closed port from eu-west, with every other setting left to its default. */
const createDeadMonitor = async (api: Api, extra: Record<string, unknown> = {}) => {
  const r = await api('POST', '/monitors/create', {
    json: {
      display_name: 'dead port',
      monitor_type: 'tcp',
      url: '127.0.0.1',
      port: closedPort,
      check_locations: ['eu-west'],
      ...extra,
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as {
    id: string;
    check_interval_seconds: number;
    failure_threshold: number;
    retry_interval_seconds: number;
  };
};

describe('detecting a dead target', () => {
  it('a new monitor is checked at once, not at its slot up to an interval later', async () => {
    const w = await h.workspace('first-check');
    const ran = agent.checksRun;
    const created = await createDeadMonitor(w.api);
    // The create asked for a check at once: run at the create's time, reported within the agent's
    // next report (every second).
    await waitFor(
      async () => agent.checksRun,
      (n) => n === ran + 1,
      { what: 'the first check to run' },
    );
    await advanceTo(T0 + 1000);
    const [first] = await waitFor(
      () => resultsOf(w.api, created.id),
      (rs) => rs.length > 0,
      { what: 'the first check' },
    );
    expect(first).toMatchObject({ ok: false, location: 'eu-west', scheduled_at: new Date(T0).toISOString() });
    expect(first!.run_now_request_id).not.toBeNull();
    expect(nextRunAt(created.id, 'eu-west', 60_000, T0)).toBeGreaterThan(T0);
    // One failure of three: not down yet.
    expect(await statusOf(w.api, created.id)).toBe('pending');
    await w.api('POST', `/monitors/${created.id}/pause`);
  });

  it('with the defaults, a dead port is down after the first check and two retries 15 s apart, then checks every 60 s', async () => {
    const w = await h.workspace('retries');
    // Made paused, so its first check can be placed: just after one of its slots, the next a whole
    // interval away (the phase is a hash of its id), so the retries are what come next.
    const created = await createDeadMonitor(w.api, { paused: true });
    expect(created).toMatchObject({
      check_interval_seconds: 60,
      failure_threshold: 3,
      retry_interval_seconds: 15,
    });
    // On a 10 ms tick, as the agent's timer wakes: the retries then come on the steps of advanceTo.
    const start = Math.ceil((nextRunAt(created.id, 'eu-west', 60_000, t.timers.now()) + 100) / 10) * 10;
    await advanceTo(start);
    const slot = nextRunAt(created.id, 'eu-west', 60_000, start);
    expect(slot - start).toBeGreaterThan(59_000);

    // Resumed: checked at once.
    const ran = agent.checksRun;
    expect((await w.api('POST', `/monitors/${created.id}/resume`)).status).toBe(200);
    await waitFor(
      async () => agent.checksRun,
      (n) => n === ran + 1,
      { what: 'the first check to run' },
    );
    await advanceTo(start + 1000);
    await waitFor(
      () => resultsOf(w.api, created.id),
      (rs) => rs.length === 1,
      { what: 'the first check' },
    );
    expect(await statusOf(w.api, created.id)).toBe('pending');

    // A retry 15 s after it: two failures in a row, still not down. (The agent's clock goes a little
    // further each time: it wakes on 10 ms ticks and reports every second.)
    await advanceTo(start + 17_000);
    await waitFor(
      () => resultsOf(w.api, created.id),
      (rs) => rs.length === 2,
      { what: 'the first retry' },
    );
    expect(await statusOf(w.api, created.id)).toBe('pending');

    // The second retry makes three: down, and an alert is open.
    await advanceTo(start + 32_000);
    const results = await waitFor(
      () => resultsOf(w.api, created.id),
      (rs) => rs.length === 3,
      { what: 'the second retry' },
    );
    expect(results.map((r) => [Date.parse(r.scheduled_at) - start, r.ok])).toEqual([
      [0, false],
      [15_000, false],
      [30_000, false],
    ]);
    await waitFor(
      () => statusOf(w.api, created.id),
      (s) => s === 'down',
      { what: 'the monitor to be down' },
    );
    const alerts = (await w.api('GET', '/alerts')).body.data as { source_id?: string; status: string }[];
    expect(alerts.filter((a) => a.status === 'open')).toHaveLength(1);

    // Then no more retries: the next check is at the monitor's slot, a whole interval on.
    await advanceTo(slot - 1000);
    expect(await resultsOf(w.api, created.id)).toHaveLength(3);
    await advanceTo(slot + 2000);
    const after = await waitFor(
      () => resultsOf(w.api, created.id),
      (rs) => rs.length === 4,
      { what: 'the check at its slot' },
    );
    expect(Date.parse(after[3]!.scheduled_at)).toBe(slot);
    expect(after[3]!.run_now_request_id).toBeNull();
  });
});
