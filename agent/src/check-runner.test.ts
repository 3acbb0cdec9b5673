import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { create } from '@bufbuild/protobuf';
import { AssignmentSchema, type CheckResult, CheckSpecSchema } from '@lookout/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckRunner } from './check-runner.js';
import { manualTimers } from './manual-timers.js';
import { nextRunAt } from './phase.js';
import type { Deadline, Prober } from './probe-port.js';
import { createHttpProber } from './probers/http-prober.js';

const T0 = 1_800_000_000_000;
let hang: Server;
let hangPort: number;
let requests = 0;
beforeAll(async () => {
  hang = createServer(() => void requests++); // accepts the request, never answers
  await new Promise<void>((r) => hang.listen(0, '127.0.0.1', () => r()));
  hangPort = (hang.address() as AddressInfo).port;
});
afterAll(() => {
  hang.closeAllConnections();
  hang.close();
});

/** Polls a condition that real I/O makes true (the runner's time is manual). */
const until = async (what: string, ok: () => boolean) => {
  for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
};

/** An http monitor's assignment at version 1. */
const httpAssignment = (monitorId: string, url: string, intervalSeconds: number, timeoutMs: number) =>
  create(AssignmentSchema, {
    monitorId,
    version: 1n,
    spec: create(CheckSpecSchema, { monitorType: 'http', url, timeoutMs, intervalSeconds }),
  });

const setup = (prober: Prober, url: string, timeoutMs: number) => {
  const t = manualTimers(T0);
  const results: CheckResult[] = [];
  const runner = createCheckRunner({
    prober,
    timers: t.timers,
    concurrency: 1,
    queueMax: 10,
    onResult: (_at, r) => void results.push(r),
  });
  runner.setRegion('eu-west');
  runner.apply(httpAssignment('m1', url, 3600, timeoutMs));
  // Its scheduled slot is far beyond these tests: the runs here are the runNow ones alone, and the
  // scheduler's one timer is the only timer pending between checks.
  expect(nextRunAt('m1', 'eu-west', 3_600_000, T0) - T0).toBeGreaterThan(60_000);
  return { t, results, runner, idle: t.pendingCount() };
};

describe('check runner: one deadline per check', () => {
  it('at the spec timeout the prober deadline passes, and the check is a timeout like before', async () => {
    const { t, results, runner, idle } = setup(createHttpProber(), `http://127.0.0.1:${hangPort}/`, 30_000);
    const before = requests;
    runner.runNow('m1', 'r1');
    await until('the request', () => requests > before);
    expect(runner.health().inFlight).toBe(1);
    // Just before the timeout nothing happens; at it, the one timer ends the check.
    await t.advanceTo(T0 + 29_999);
    await new Promise((r) => setTimeout(r, 20));
    expect(results).toHaveLength(0);
    await t.advanceTo(T0 + 30_000);
    await until('the result', () => results.length === 1);
    expect(results[0]).toMatchObject({ ok: false, errorKind: 'timeout', errorMessage: 'timed out' });
    expect(runner.health().inFlight).toBe(0);
    expect(t.pendingCount()).toBe(idle); // no backstop left armed
  });

  it('the hard backstop: a prober that ignores its deadline frees its slot 1 s after the timeout', async () => {
    let seen: Deadline | null = null;
    const deaf: Prober = {
      run: (_spec, deadline) => {
        seen = deadline;
        return new Promise(() => {}); // never settles, whatever the deadline says
      },
    };
    const { t, results, runner } = setup(deaf, 'http://example.test/', 5000);
    runner.runNow('m1', 'r1');
    await until('the run', () => seen !== null);
    await t.advanceTo(T0 + 5000);
    expect(seen!.aborted).toBe(true);
    expect((seen!.reason as Error).name).toBe('TimeoutError');
    expect((seen!.reason as Error).message).toBe('timed out after 5000 ms');
    await new Promise((r) => setTimeout(r, 20));
    expect(results).toHaveLength(0);
    expect(runner.health().inFlight).toBe(1);
    await t.advanceTo(T0 + 6000);
    await until('the result', () => results.length === 1);
    expect(results[0]).toMatchObject({
      ok: false,
      errorKind: 'agent_error',
      errorMessage: 'timed out after 6000 ms',
    });
    await until('the slot freed', () => runner.health().inFlight === 0);
  });

  it('a check that ends in time leaves no timer behind', async () => {
    const quick: Prober = { run: async () => ({ ok: true, error: null, response_time_ms: 1 }) };
    const { t, results, runner, idle } = setup(quick, 'http://example.test/', 5000);
    runner.runNow('m1', 'r1');
    await until('the result', () => results.length === 1);
    expect(results[0]).toMatchObject({ ok: true });
    expect(t.pendingCount()).toBe(idle);
  });
});

describe('check runner: the waiting runs', () => {
  it('runs wait in slot order while every place is taken; beyond queueMax they are dropped and counted', async () => {
    const t = manualTimers(T0);
    const held: { id: string; release: () => void }[] = [];
    const prober: Prober = {
      run: (spec) =>
        new Promise((resolve) =>
          held.push({
            id: spec.monitor_id,
            release: () => resolve({ ok: true, error: null, response_time_ms: 1 }),
          }),
        ),
    };
    const results: string[] = [];
    const runner = createCheckRunner({
      prober,
      timers: t.timers,
      concurrency: 1,
      queueMax: 2,
      onResult: (_at, r) => void results.push(r.monitorId),
    });
    runner.setRegion('eu-west');
    const ids = ['a', 'b', 'c', 'd'];
    // A timeout past the test: each run ends when it is released, not at its deadline.
    for (const monitorId of ids) runner.apply(httpAssignment(monitorId, 'http://127.0.0.1:1/', 60, 600_000));
    const bySlot = [...ids].sort(
      (x, y) => nextRunAt(x, 'eu-west', 60_000, T0) - nextRunAt(y, 'eu-west', 60_000, T0),
    );
    await t.advanceTo(T0 + 60_000);
    await until('the first run to start', () => held.length === 1);
    // One runs, two wait, the fourth found the list full.
    expect(held.map((h) => h.id)).toEqual([bySlot[0]]);
    expect(runner.health()).toMatchObject({ inFlight: 1, queueDepth: 2 });
    expect(runner.skipped.queueFull).toBe(1);
    for (let k = 1; k <= 2; k++) {
      held[k - 1]!.release();
      await until(`run ${k + 1} to start`, () => held.length === k + 1);
    }
    held[2]!.release();
    await until('the three results', () => results.length === 3);
    expect(results).toEqual(bySlot.slice(0, 3));
    expect(runner.health()).toMatchObject({ inFlight: 0, queueDepth: 0 });
    await runner.stop();
  });
});

describe('check runner: what it keeps per monitor', () => {
  it('monitors that differ only by URL share one spec shape, each run still gets its own id and URL, and shapes go with their monitors', async () => {
    const t = manualTimers(T0);
    const seen: string[] = [];
    const prober: Prober = {
      run: async (spec) => {
        seen.push(`${spec.monitor_id} ${spec.url} ${spec.timeout_ms}`);
        return { ok: true, error: null, response_time_ms: 1 };
      },
    };
    const runner = createCheckRunner({
      prober,
      timers: t.timers,
      concurrency: 4,
      queueMax: 10,
      onResult() {},
    });
    runner.setRegion('eu-west');
    const assign = (monitorId: string, url: string, timeoutMs = 5000) =>
      runner.apply(httpAssignment(monitorId, url, 60, timeoutMs));
    for (let i = 0; i < 5; i++) assign(`m${i}`, `http://127.0.0.1:${1000 + i}/`);
    expect(runner.specShapes).toBe(1);
    assign('m4', 'http://127.0.0.1:1004/', 9000); // a new version with its own timeout
    expect(runner.specShapes).toBe(2);
    runner.runNow('m0', 'r0');
    runner.runNow('m4', 'r4');
    await until('both runs', () => seen.length === 2);
    expect(seen.sort()).toEqual(['m0 http://127.0.0.1:1000/ 5000', 'm4 http://127.0.0.1:1004/ 9000']);
    runner.drop('m4');
    expect(runner.specShapes).toBe(1);
    for (let i = 0; i < 4; i++) runner.drop(`m${i}`);
    expect(runner.specShapes).toBe(0);
    expect(runner.health().assigned).toBe(0);
    await runner.stop();
  });

  it('the health it reports carries its cadence: the shortest interval and for how long it has had it', async () => {
    const t = manualTimers(T0);
    const prober: Prober = { run: async () => ({ ok: true, error: null, response_time_ms: 1 }) };
    const runner = createCheckRunner({
      prober,
      timers: t.timers,
      concurrency: 1,
      queueMax: 10,
      onResult() {},
    });
    runner.setRegion('eu-west');
    expect(runner.health()).toMatchObject({ shortestIntervalSeconds: 0, shortestIntervalAgeSeconds: 0 });
    runner.apply(httpAssignment('slow', 'http://127.0.0.1:1/', 300, 5000));
    await t.advanceTo(T0 + 20_000);
    runner.apply(httpAssignment('fast', 'http://127.0.0.1:1/', 30, 5000));
    await t.advanceTo(T0 + 27_500);
    expect(runner.health()).toMatchObject({ shortestIntervalSeconds: 30, shortestIntervalAgeSeconds: 7 });
    runner.apply({ ...httpAssignment('fast', 'http://127.0.0.1:1/', 120, 5000), version: 2n });
    expect(runner.health()).toMatchObject({ shortestIntervalSeconds: 120, shortestIntervalAgeSeconds: 7 });
    runner.drop('fast');
    // back to the slow one: counted from when the fast one came (a later moment: more time, never less)
    expect(runner.health()).toMatchObject({ shortestIntervalSeconds: 300, shortestIntervalAgeSeconds: 7 });
    runner.drop('slow');
    expect(runner.health()).toMatchObject({ assigned: 0, shortestIntervalSeconds: 0 });
    await runner.stop();
  });
});

describe('check runner: a fault outside the probe', () => {
  it('is told to onError, and the monitor still runs at its next slot (its run ended)', async () => {
    const t = manualTimers(T0);
    let probes = 0;
    const prober: Prober = {
      run: async () => {
        probes++;
        return { ok: true, error: null, response_time_ms: 1 };
      },
    };
    const errors: string[] = [];
    const delivered: CheckResult[] = [];
    let failDelivery = true;
    const runner = createCheckRunner({
      prober,
      timers: t.timers,
      concurrency: 1,
      queueMax: 10,
      onResult: (_at, r) => {
        if (failDelivery) throw new Error('the buffer broke');
        delivered.push(r);
      },
      onError: (e) => errors.push((e as Error).message),
    });
    runner.setRegion('eu-west');
    runner.apply(httpAssignment('m1', 'http://127.0.0.1:1/', 60, 5000));
    await t.advanceTo(T0 + 60_000);
    await until('the first run', () => errors.length === 1);
    expect(errors).toEqual(['the buffer broke']);
    await until('its place to free', () => runner.health().inFlight === 0);
    failDelivery = false;
    await t.advanceTo(T0 + 120_000);
    await until('the second run', () => delivered.length === 1);
    expect(probes).toBe(2);
    expect(runner.skipped.overlap).toBe(0);
    await runner.stop();
  });
});

describe('check runner: a first check at once, then retries', () => {
  /** A monitor checked hourly, retried every 15 s up to 3 failures in a row, against a dead target. */
  const dead = (concurrency = 1) => {
    const t = manualTimers(T0);
    const results: CheckResult[] = [];
    let hold: (() => void) | null = null;
    const prober: Prober = {
      run: (spec) =>
        spec.monitor_id === 'busy'
          ? new Promise((resolve) => {
              hold = () => resolve({ ok: true, error: null, response_time_ms: 1 });
            })
          : Promise.resolve({
              ok: false,
              error: { kind: 'connection_refused', message: 'refused' },
              response_time_ms: 1,
            }),
    };
    const runner = createCheckRunner({
      prober,
      timers: t.timers,
      concurrency,
      queueMax: 10,
      onResult: (_at, r) => void results.push(r),
    });
    runner.setRegion('eu-west');
    const assign = (monitorId: string) =>
      runner.apply(
        create(AssignmentSchema, {
          monitorId,
          version: 1n,
          spec: create(CheckSpecSchema, {
            monitorType: 'tcp',
            url: '127.0.0.1',
            port: 1,
            timeoutMs: 5000,
            intervalSeconds: 3600,
            failureThreshold: 3,
            retryIntervalSeconds: 15,
          }),
        }),
      );
    return { t, results, runner, assign, release: () => hold?.() };
  };

  it('runs a new monitor’s first check at once, retries it every 15 s until 3 failed, then keeps its phase', async () => {
    const { t, results, runner, assign } = dead();
    assign('m1');
    const slot = nextRunAt('m1', 'eu-west', 3_600_000, T0);
    expect(slot - T0).toBeGreaterThan(60_000);
    runner.runNow('m1', 'first-1', 'first');
    await until('the first check', () => results.length === 1);
    expect(results[0]).toMatchObject({ ok: false, runNowRequestId: 'first-1', scheduledAtMs: BigInt(T0) });
    // Then two retries, 15 s apart, and nothing more until the monitor's slot.
    await t.advanceTo(T0 + 15_000);
    await until('the first retry', () => results.length === 2);
    await t.advanceTo(T0 + 30_000);
    await until('the second retry', () => results.length === 3);
    await t.advanceTo(slot - 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(results.map((r) => Number(r.scheduledAtMs))).toEqual([T0, T0 + 15_000, T0 + 30_000]);
    await t.advanceTo(slot + 10);
    await until('the run at its slot', () => results.length === 4);
    expect(Number(results[3]!.scheduledAtMs)).toBe(slot);
    await runner.stop();
  });

  it('a first check finds no free place: it is left to the monitor’s slot, never queued behind others', async () => {
    const { t, results, runner, assign, release } = dead(1);
    assign('busy');
    assign('m1');
    runner.runNow('busy', 'test-1', 'test');
    await until('the busy run to start', () => runner.health().inFlight === 1);
    runner.runNow('m1', 'first-1', 'first');
    expect(runner.health().queueDepth).toBe(0);
    release();
    await until('the busy result', () => results.length === 1);
    await t.advanceTo(T0 + 60_000);
    await new Promise((r) => setTimeout(r, 20));
    expect(results.map((r) => r.monitorId)).toEqual(['busy']);
    await runner.stop();
  });
});
