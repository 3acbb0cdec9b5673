import { createServer, type Http2Server, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { create, fromBinary } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { connectNodeAdapter, createGrpcTransport } from '@connectrpc/connect-node';
import {
  AgentService,
  type CheckResult,
  CheckResultSchema,
  ReportResultsRequestSchema,
  ReportResultsResponseSchema,
  StepReportSchema,
} from '@lookout/proto';
import { silentLogger } from '@lookout/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { every } from './every.js';
import { manualTimers } from './manual-timers.js';
import { reportEncodedResults } from './report-rpc.js';
import { batchSize, createReporter, REPORT_BATCH, REPORT_MAX_BYTES } from './reporter.js';
import { encodeRecord } from './result-encoder.js';
import { PER_RESULT_BYTES } from './waiting-results.js';

const T0 = 1_800_000_000_000;
let server: Http2Server | null = null;
const sessions = new Set<ServerHttp2Session>();
afterEach(async () => {
  for (const s of sessions) s.destroy();
  sessions.clear();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

/** Polls a condition that a real network call makes true. */
const until = async (what: string, ok: () => boolean) => {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
};

/**
 * A real AgentService on loopback whose ReportResults answers only when the test releases it (a
 * slow control plane, without durations). Records every call's batch, and how many were in flight.
 */
const startSlowControlPlane = async () => {
  const calls: { ids: string[]; phase: string }[] = [];
  const received: CheckResult[] = [];
  const waiting: (() => void)[] = [];
  const state = { phase: 'push', inFlight: 0, maxInFlight: 0, refuse: false };
  server = createServer(
    connectNodeAdapter({
      routes: (router) =>
        router.service(AgentService, {
          register: async () => ({ sessionId: 's1', epoch: 1n, region: 'eu-west' }),
          async *watchAssignments() {},
          reportResults: async (req) => {
            state.inFlight++;
            state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
            calls.push({ ids: req.results.map((r) => r.resultId), phase: state.phase });
            received.push(...req.results);
            await new Promise<void>((r) => waiting.push(r));
            state.inFlight--;
            if (state.refuse) throw new ConnectError('down for maintenance', Code.Unavailable);
            return { accepted: req.results.length, duplicates: 0, slowDownMs: 0 };
          },
          heartbeat: async () => ({}),
        }),
    }),
  );
  server.on('session', (s) => sessions.add(s));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    received,
    state,
    /** Answers the oldest call waiting, if any. */
    release: () => waiting.shift()?.(),
    get waiting() {
      return waiting.length;
    },
  };
};

/** Answers the reporter's calls one at a time, each once it is made, while `more()` holds. */
const answerWhile = async (
  cp: Awaited<ReturnType<typeof startSlowControlPlane>>,
  reporter: { readonly buffered: number },
  more: () => boolean,
) => {
  while (more()) {
    await until('a call', () => cp.waiting > 0);
    const buffered = reporter.buffered;
    cp.release();
    await until('the acknowledgement', () => reporter.buffered < buffered);
  }
};

const reporterFor = (url: string, t: ReturnType<typeof manualTimers>, maxBatch?: number) => {
  const transport = createGrpcTransport({ baseUrl: url });
  return createReporter({
    reportEncoded: reportEncodedResults(transport),
    instanceId: 'a1',
    timers: t.timers,
    log: silentLogger(),
    callTimeoutMs: 10_000,
    buffer: { maxItems: 100_000, maxBytes: 64 * 2 ** 20, maxAgeMs: 3_600_000 },
    session: () => ({ id: 's1', maxBatch }),
    failed: () => 'transient',
    stopping: () => false,
  });
};
const result = (id: string) => create(CheckResultSchema, { resultId: id });

describe('reporter', () => {
  it('coalesces: one call in flight, full batches while checks finish, the rest on the tick; each result once', {
    timeout: 20_000,
  }, async () => {
    const t = manualTimers(T0);
    const cp = await startSlowControlPlane();
    const reporter = reporterFor(cp.url, t);
    // The agent's 1 s report tick (agent.ts), on the test's clock.
    const stopTick = every(t.timers, 1000, () => void reporter.report());

    // 1,010 checks finish 25 at a time; between groups the control plane answers the call it holds.
    const N = 1010;
    let pushed = 0;
    while (pushed < N) {
      for (let i = 0; i < 25 && pushed < N; i++, pushed++) {
        reporter.push(T0, result(`r${pushed}`));
      }
      if (cp.waiting > 0) {
        const buffered = reporter.buffered;
        cp.release();
        await until('the acknowledgement', () => reporter.buffered < buffered);
      }
      // Let a call the reporter starts now reach the control plane.
      await new Promise((r) => setTimeout(r, 5));
    }
    // Until the reporter is idle: no call held, none on its way, and less than a full batch left
    // (a full one would go out as soon as the last acknowledgement lands).
    while (cp.waiting > 0 || cp.state.inFlight > 0 || reporter.buffered >= REPORT_BATCH) {
      cp.release();
      await new Promise((r) => setTimeout(r, 5));
    }

    // While checks were finishing: only full batches, one call at a time, about N / 200 calls.
    const pushCalls = cp.calls.filter((c) => c.phase === 'push');
    expect(pushCalls.map((c) => c.ids.length)).toEqual(pushCalls.map(() => REPORT_BATCH));
    expect(pushCalls.length).toBeLessThanOrEqual(Math.floor(N / REPORT_BATCH));
    expect(cp.state.maxInFlight).toBe(1);
    expect(reporter.buffered).toBeGreaterThan(0);

    // The tick sends everything left, in batches of at most REPORT_BATCH.
    cp.state.phase = 'tick';
    const rest = reporter.buffered;
    await t.advanceTo(T0 + 1000);
    await answerWhile(cp, reporter, () => reporter.buffered > 0);
    const tickCalls = cp.calls.filter((c) => c.phase === 'tick');
    expect(tickCalls.length).toBe(Math.ceil(rest / REPORT_BATCH));
    expect(tickCalls.every((c) => c.ids.length <= REPORT_BATCH)).toBe(true);
    expect(cp.state.maxInFlight).toBe(1);

    // Every result arrived exactly once.
    const ids = cp.calls.flatMap((c) => c.ids);
    expect(ids).toHaveLength(N);
    expect(new Set(ids).size).toBe(N);
    stopTick();
  });

  it('behind a slow control plane, the next call carries every whole batch waiting, up to the limit it announced', async () => {
    const t = manualTimers(T0);
    const cp = await startSlowControlPlane();
    const reporter = reporterFor(cp.url, t, 1000);
    for (let i = 0; i < REPORT_BATCH; i++) reporter.push(T0, result(`r${i}`));
    await until('the first call', () => cp.waiting === 1);
    expect(REPORT_BATCH).toBe(500); // the figures below
    // While the control plane holds it, 1,950 more checks finish: 3 whole batches and 450 over.
    for (let i = REPORT_BATCH; i < REPORT_BATCH + 1950; i++) reporter.push(T0, result(`r${i}`));
    await answerWhile(cp, reporter, () => reporter.buffered >= REPORT_BATCH);
    // 1,000 (the limit), then the 500 left in whole batches; the 450 wait for the tick.
    expect(cp.calls.map((c) => c.ids.length)).toEqual([500, 1000, 500]);
    expect(reporter.buffered).toBe(450);
    expect(cp.state.maxInFlight).toBe(1);
  });

  it('a batch is REPORT_BATCH with nothing backed up or no limit announced, and never more than the limit', () => {
    expect(REPORT_BATCH).toBe(500);
    expect(batchSize(150, 1000)).toBe(500);
    expect(batchSize(999, 1000)).toBe(500);
    expect(batchSize(5000, 0)).toBe(500);
    expect(batchSize(1200, 2000)).toBe(1000);
    expect(batchSize(5000, 1000)).toBe(1000);
    expect(batchSize(5000, 700)).toBe(700);
    // A control plane with a smaller limit than ours gets batches of its limit.
    expect(batchSize(150, 100)).toBe(100);
    expect(batchSize(5000, 100)).toBe(100);
  });

  it('sends a control plane that announced a limit below REPORT_BATCH full batches of that limit', async () => {
    const t = manualTimers(T0);
    const cp = await startSlowControlPlane();
    const reporter = reporterFor(cp.url, t, 100);
    for (let i = 0; i < REPORT_BATCH + 30; i++) reporter.push(T0, result(`r${i}`));
    await answerWhile(cp, reporter, () => reporter.buffered >= REPORT_BATCH);
    // Then the tick sends the rest, in calls of at most 100 as well.
    const stopTick = every(t.timers, 1000, () => void reporter.report());
    await t.advanceTo(T0 + 1000);
    await answerWhile(cp, reporter, () => reporter.buffered > 0);
    stopTick();
    expect(cp.calls.map((c) => c.ids.length)).toEqual([100, 100, 100, 100, 100, 30]);
    expect(new Set(cp.calls.flatMap((c) => c.ids)).size).toBe(REPORT_BATCH + 30);
  });

  it('after a failed call, full batches wait for the tick instead of a call per finished check', async () => {
    const t = manualTimers(T0);
    const cp = await startSlowControlPlane();
    cp.state.refuse = true;
    const reporter = reporterFor(cp.url, t);
    const stopTick = every(t.timers, 1000, () => void reporter.report());
    for (let i = 0; i < REPORT_BATCH; i++) reporter.push(T0, result(`r${i}`));
    await until('the first call', () => cp.waiting === 1);
    cp.release();
    // The call failed; more checks finish with a full batch and more buffered: no call until the tick.
    for (let i = REPORT_BATCH; i < 3 * REPORT_BATCH; i++) {
      reporter.push(T0, result(`r${i}`));
      await Promise.resolve();
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(cp.calls).toHaveLength(1);
    expect(reporter.buffered).toBe(3 * REPORT_BATCH);
    // The tick retries; once the control plane answers, everything goes, and full batches flow again.
    cp.state.refuse = false;
    await t.advanceTo(T0 + 1000);
    await answerWhile(cp, reporter, () => reporter.buffered > 0);
    expect(cp.calls.map((c) => c.ids.length)).toEqual(Array(4).fill(REPORT_BATCH));
    for (let i = 0; i < REPORT_BATCH; i++) reporter.push(T0, result(`s${i}`));
    await until('a full batch', () => cp.waiting === 1);
    cp.release();
    await until('acknowledged', () => reporter.buffered === 0);
    stopTick();
  });

  it('a backlog waits as its wire bytes, counted exactly, and every result still arrives once, intact', {
    timeout: 20_000,
  }, async () => {
    const t = manualTimers(T0);
    const cp = await startSlowControlPlane();
    const reporter = reporterFor(cp.url, t, 1000);
    const full = (i: number) =>
      create(CheckResultSchema, {
        resultId: `m${i % 7}:eu-west:${T0 + i}`,
        monitorId: `m${i % 7}`,
        monitorVersion: 3n,
        scheduledAtMs: BigInt(T0 + i),
        startedAtMs: BigInt(T0 + i + 2),
        ok: i % 3 !== 0,
        errorKind: i % 3 === 0 ? 'timeout' : '',
        errorMessage: i % 3 === 0 ? `timed out after ${i} ms` : '',
        responseTimeMs: i % 900,
        statusCode: i % 3 === 0 ? 0 : 200,
        timings: { dnsMs: 1, connectMs: 2, firstByteMs: i % 50, totalMs: i % 900 },
      });
    const N = 5600;
    const sent = Array.from({ length: N }, (_, i) => full(i));
    for (const r of sent.slice(0, REPORT_BATCH)) reporter.push(T0, r);
    await until('the first call', () => cp.waiting === 1);
    // The control plane holds that call while a backlog builds up behind it.
    for (const r of sent.slice(REPORT_BATCH)) reporter.push(T0, r);
    const exact = sent.reduce((n, r) => n + encodeRecord(2, r).length + PER_RESULT_BYTES, 0);
    expect(reporter.bufferedBytes).toBe(exact);
    expect(reporter.buffered).toBe(N);
    // The batches decode, at a control plane that knows only ReportResultsRequest, to the results as
    // they were made, in order, each once.
    while (reporter.buffered > 0 || cp.waiting > 0) {
      await until('a call', () => cp.waiting > 0);
      const buffered = reporter.buffered;
      cp.release();
      await until('the acknowledgement', () => reporter.buffered < buffered);
      if (reporter.buffered > 0 && reporter.buffered < REPORT_BATCH) void reporter.report();
    }
    expect(cp.received).toEqual(sent);
    expect(reporter.bufferedBytes).toBe(0);
  });
});

describe('reporter and screenshots', () => {
  it('sends results with screenshots in batches under REPORT_MAX_BYTES, each result once', async () => {
    const t = manualTimers(T0);
    const sizes: number[] = [];
    let got = 0;
    const reporter = createReporter({
      reportEncoded: async (req) => {
        sizes.push(req.records.length);
        got += fromBinary(ReportResultsRequestSchema, req.records).results.length;
        return create(ReportResultsResponseSchema, { accepted: 0 });
      },
      instanceId: 'a1',
      timers: t.timers,
      log: silentLogger(),
      callTimeoutMs: 10_000,
      buffer: { maxItems: 100_000, maxBytes: 64 * 2 ** 20, maxAgeMs: 3_600_000 },
      session: () => ({ id: 's1', maxBatch: 1000 }),
      failed: () => 'transient',
      stopping: () => false,
    });
    // 600 results, every tenth a failed browser run with a 250 KiB screenshot (16 keep theirs), and
    // long scripted reports (50 steps of 2,000-character errors) on the others.
    const steps = Array.from({ length: 50 }, (_, i) =>
      create(StepReportSchema, { name: `step ${i}`, error: 'x'.repeat(2000) }),
    );
    for (let i = 0; i < 600; i++) {
      const shot = new Uint8Array(250 * 1024);
      shot.set([0xff, 0xd8, 0xff]);
      reporter.push(
        T0,
        create(CheckResultSchema, {
          resultId: `r${i}`,
          script:
            i % 10 === 0
              ? { screenshot: shot, screenshotType: 'image/jpeg' }
              : { steps: i % 3 === 0 ? steps : [] },
        }),
      );
    }
    await reporter.report();
    expect(got).toBe(600);
    expect(reporter.buffered).toBe(0);
    expect(reporter.droppedScreenshots).toBe(600 / 10 - 16);
    expect(sizes.length).toBeGreaterThan(1);
    for (const s of sizes) expect(s).toBeLessThanOrEqual(REPORT_MAX_BYTES);
  });
});
