import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../control-plane/src/config.js';
import { createHeartbeat } from '../../control-plane/src/domain/heartbeats/heartbeats.js';
import { createWorkspace } from '../../control-plane/src/domain/tenancy/workspaces.js';
import type { alertJson } from '../../control-plane/src/http/alerts/responses.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';
import { startClockedControlPlane } from '../support/clocked-control-plane.js';
import { type Harness, startHarness } from '../support/harness.js';
import { jobPassed } from '../support/job-passes.js';
import { exited } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

/** An alert as the API returns it. */
type AlertJson = ReturnType<typeof alertJson>;

/**
 * Heartbeat deadlines and signals against a real control plane: the deadline job runs on its own
 * timer, the clock is manual, so every deadline is hit exactly and nothing depends on wall time.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ heartbeat_check_ms: 20 });
});
afterAll(() => h.close());

const SECOND = 1000;

/** Resolves once the deadline job has finished a pass at the clock's time (or later). */
const deadlinesChecked = () => jobPassed(h.cp.url, 'heartbeat-deadlines', h.clock.now().getTime());

const setup = async (sub: string) => {
  const w = await h.workspace(sub);
  const create = async (json: Record<string, unknown>) =>
    (await w.api('POST', '/heartbeats', { json: { display_name: 'job', ...json } })).body as {
      id: string;
    };
  const get = async (id: string) => (await w.api('GET', `/heartbeats/${id}`)).body;
  const alerts = async (id: string) =>
    (await w.api('GET', `/alerts?source_id=${id}`)).body.data as AlertJson[];
  const ping = (id: string, suffix = '', opts: Parameters<Harness['request']>[2] = {}) =>
    h.request(opts.raw !== undefined ? 'POST' : 'GET', `/hb/ping/${id}${suffix}`, opts);
  const stateIs = (id: string, state: string) =>
    waitFor(
      () => get(id),
      (x) => x.state === state,
      { what: `heartbeat ${id} ${state}`, everyMs: 10 },
    );
  return { w, create, get, alerts, ping, stateIs };
};

describe('heartbeat deadlines: new → up → late → down, alert at period + grace, resolved by the next ping', () => {
  it('walks the states on the manual clock and raises exactly at the deadline', async () => {
    const { create, get, alerts, ping, stateIs } = await setup('hb-deadline');
    const hb = await create({ period_seconds: 60, grace_seconds: 30 });
    // A second heartbeat whose deadline is one second earlier: when it is down, the job has run at that time.
    const early = await create({ period_seconds: 60, grace_seconds: 29 });
    expect((await get(hb.id)).state).toBe('new');

    // A new heartbeat never goes late: it waits for its first ping.
    h.clock.advance(3_600 * SECOND);
    const t0 = h.clock.now().getTime();
    expect((await ping(hb.id)).status).toBe(200);
    expect((await ping(early.id)).status).toBe(200);
    expect((await get(hb.id)).state).toBe('up');

    h.clock.set(t0 + 60 * SECOND);
    await stateIs(hb.id, 'late');
    expect(await alerts(hb.id)).toEqual([]);

    h.clock.set(t0 + 89 * SECOND);
    await stateIs(early.id, 'down');
    expect((await get(hb.id)).state).toBe('late');
    expect(await alerts(hb.id)).toEqual([]);

    h.clock.set(t0 + 90 * SECOND);
    await stateIs(hb.id, 'down');
    const [alert, ...more] = await alerts(hb.id);
    expect(more).toEqual([]);
    expect(alert).toMatchObject({
      source_type: 'heartbeat',
      source_id: hb.id,
      cause: 'down',
      status: 'open',
      created_at: new Date(t0 + 90 * SECOND).toISOString(),
    });
    expect(alert!.title).toContain('missed its deadline');
    expect((await get(hb.id)).alert_id).toBe(alert!.id);

    // Staying down raises nothing more: the job has looked at 600 s.
    h.clock.set(t0 + 600 * SECOND);
    await deadlinesChecked();
    expect((await alerts(hb.id)).length).toBe(1);

    // The next ping resolves it, the system being the resolver.
    expect((await ping(hb.id)).status).toBe(200);
    const resolved = await waitFor(
      () => alerts(hb.id),
      (a) => a[0]?.status === 'resolved',
      { what: 'resolution', everyMs: 10 },
    );
    expect(resolved[0]).toMatchObject({
      resolved_by: { type: 'system' },
      resolved_at: new Date(t0 + 600 * SECOND).toISOString(),
    });
    expect(await get(hb.id)).toMatchObject({ state: 'up', alert_id: null });

    // Missing again opens a new alert; the resolved one stays resolved.
    h.clock.set(t0 + 690 * SECOND);
    await stateIs(hb.id, 'down');
    const after = await alerts(hb.id);
    expect(after.map((a) => a.status)).toEqual(['open', 'resolved']);
    expect(after[0]!.id).not.toBe(alert!.id);
  });

  it('pausing silences (no deadline, its alert resolved); resuming waits for a first ping', async () => {
    const { w, create, alerts, ping, stateIs } = await setup('hb-pause');
    const hb = await create({ period_seconds: 60, grace_seconds: 0 });
    await ping(hb.id);
    h.clock.advance(60 * SECOND);
    await stateIs(hb.id, 'down');
    expect((await w.api('PATCH', `/heartbeats/${hb.id}`, { json: { paused: true } })).status).toBe(200);
    await stateIs(hb.id, 'paused');
    expect((await alerts(hb.id))[0]).toMatchObject({ status: 'resolved', resolved_by: { type: 'system' } });
    h.clock.advance(3_600 * SECOND);
    await w.api('PATCH', `/heartbeats/${hb.id}`, { json: { paused: false } });
    await stateIs(hb.id, 'new');
    h.clock.advance(3_600 * SECOND);
    await ping(hb.id);
    await stateIs(hb.id, 'up');
    expect((await alerts(hb.id)).length).toBe(1);
  });
});

describe('heartbeat signals (as Healthchecks): /start, /fail, /{exit status}, ?rid=, bodies', () => {
  it('/fail raises at once and shows the body; a success resolves it', async () => {
    const { create, alerts, ping, stateIs } = await setup('hb-fail');
    const hb = await create({ period_seconds: 3600, grace_seconds: 600 });
    await ping(hb.id);
    const r = await ping(hb.id, '/fail', {
      raw: 'backup failed: disk full\n',
      headers: { 'content-type': 'text/plain' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Ping recorded.', status: 'ok' });
    await stateIs(hb.id, 'down');
    const [a] = await waitFor(
      () => alerts(hb.id),
      (x) => x.length === 1,
      { what: 'fail alert', everyMs: 10 },
    );
    expect(a).toMatchObject({ cause: 'fail', status: 'open', created_at: h.clock.now().toISOString() });
    expect(a!.title).toContain('reported a failure');
    expect(a!.description).toContain('backup failed: disk full');
    // Failing again while the alert is open adds nothing (the job has looked since).
    await ping(hb.id, '/fail');
    await ping(hb.id, '/1');
    h.clock.advance(SECOND);
    await deadlinesChecked();
    expect((await alerts(hb.id)).length).toBe(1);
    // Exit status 0 is a success: resolved by the system.
    await ping(hb.id, '/0');
    await waitFor(
      () => alerts(hb.id),
      (x) => x[0]?.status === 'resolved',
      { what: 'resolved', everyMs: 10 },
    );
    await stateIs(hb.id, 'up');
  });

  it('a non-zero exit status is a failure and is recorded; 256 is refused; unknown actions are 404', async () => {
    const { w, create, alerts, ping, stateIs } = await setup('hb-exit');
    const hb = await create({});
    const r = await h.request('POST', `/api/v1/hb/ping/${hb.id}/3`, {
      raw: 'exit 3',
      headers: { 'content-type': 'text/plain' },
    });
    expect(r.status).toBe(200);
    await stateIs(hb.id, 'down');
    const [a] = await waitFor(
      () => alerts(hb.id),
      (x) => x.length === 1,
      { what: 'alert', everyMs: 10 },
    );
    expect(a!.title).toContain('exit status 3');
    const pings = (await w.api('GET', `/heartbeats/${hb.id}/pings`)).body.data;
    expect(pings[0]).toMatchObject({ kind: 'fail', exit_status: 3, body: 'exit 3', rid: null });
    const bad = await ping(hb.id, '/256');
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([{ field: 'exit_status', message: 'must be at most 255' }]);
    const unknown = await ping(hb.id, '/restart');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('/start, /fail');
    expect((await h.request('GET', '/hb/ping/%E0%A4%A')).status).toBe(404);
    const badRid = await ping(hb.id, '/start?rid=a%20b');
    expect(badRid.status).toBe(422);
    expect(badRid.body.error.details[0].field).toBe('rid');
    expect((await w.api('GET', `/heartbeats/${hb.id}/pings`)).body.data.length).toBe(1);
  });

  it('/start: a run must finish within the grace; its finish with the same rid pairs with it', async () => {
    const { w, create, get, alerts, ping, stateIs } = await setup('hb-start');
    const hb = await create({ period_seconds: 86_400, grace_seconds: 300 });
    await ping(hb.id);
    const rid = crypto.randomUUID();
    const started = h.clock.now().getTime();
    expect((await ping(hb.id, `/start?rid=${rid}`)).status).toBe(200);
    expect(await get(hb.id)).toMatchObject({
      state: 'up',
      start_rid: rid,
      started_at: new Date(started).toISOString(),
    });
    // Another run's finish does not end this one.
    h.clock.advance(60 * SECOND);
    await ping(hb.id, `/0?rid=${crypto.randomUUID()}`);
    h.clock.advance(60 * SECOND);
    await ping(hb.id, `?rid=${rid}`);
    expect(await get(hb.id)).toMatchObject({ state: 'up', start_rid: null, started_at: null });
    const pings = (await w.api('GET', `/heartbeats/${hb.id}/pings`)).body.data;
    expect(pings[0]).toMatchObject({ kind: 'success', rid, duration_ms: 120_000 });
    expect(pings.find((p: { kind: string }) => p.kind === 'start')).toMatchObject({ rid, duration_ms: null });

    // A run that never finishes: down at start + grace, with the run named on the alert.
    const overrun = h.clock.now().getTime();
    await ping(hb.id, '/start?rid=r2');
    h.clock.set(overrun + 299 * SECOND);
    // The job has looked at 299 s: nothing yet.
    await deadlinesChecked();
    expect((await get(hb.id)).state).toBe('up');
    h.clock.set(overrun + 300 * SECOND);
    await stateIs(hb.id, 'down');
    const [a] = await alerts(hb.id);
    expect(a).toMatchObject({ cause: 'down', created_at: new Date(overrun + 300 * SECOND).toISOString() });
    expect(a!.title).toContain('did not finish within 5m');
    expect(a!.description).toContain('run r2');
  });

  it('keeps at most 10,000 bytes of a body, cut at a character boundary; JSON bodies stay the timestamp form', async () => {
    const { w, create, ping } = await setup('hb-body');
    const hb = await create({});
    // A client timestamp may not be from before the heartbeat existed.
    h.clock.advance(60 * SECOND);
    const body = `${'é'.repeat(6_000)}tail`; // 12,004 bytes in UTF-8
    expect((await ping(hb.id, '', { raw: body, headers: { 'content-type': 'text/plain' } })).status).toBe(
      200,
    );
    const ts = Math.floor(h.clock.now().getTime() / 1000) - 10;
    expect((await h.request('POST', `/hb/ping/${hb.id}`, { json: { timestamp: ts } })).status).toBe(200);
    const pings = (await w.api('GET', `/heartbeats/${hb.id}/pings`)).body.data;
    const text = pings.find((p: { body: string | null }) => p.body)!.body as string;
    expect(Buffer.byteLength(text)).toBe(10_000);
    expect(text).toBe('é'.repeat(5_000));
    expect(pings.find((p: { body: string | null }) => !p.body)).toMatchObject({
      at: new Date(ts * 1000).toISOString(),
    });
  });
});

describe("spec 3.2: after a manual resolve, the heartbeat's next failure raises a new alert", () => {
  const resolveByHand = async (w: Awaited<ReturnType<typeof setup>>['w'], id: string) => {
    const r = await w.api('POST', '/alerts/resolve', { json: { UUIDs: [id] } });
    expect(r.status).toBe(200);
    expect(r.body.resolved.map((a: AlertJson) => a.id)).toEqual([id]);
  };

  it('the next /fail raises a new alert (an edit or a passing job pass does not)', async () => {
    const { w, create, get, alerts, ping, stateIs } = await setup('hb-resolve-fail');
    const hb = await create({ period_seconds: 3600, grace_seconds: 600 });
    const sentinel = await create({ period_seconds: 60, grace_seconds: 0 });
    await ping(hb.id);
    await ping(hb.id, '/fail');
    const [first] = await waitFor(
      () => alerts(hb.id),
      (x) => x.length === 1,
      { what: 'fail alert', everyMs: 10 },
    );
    await resolveByHand(w, first!.id);
    expect(await get(hb.id)).toMatchObject({ state: 'down', alert_id: null });
    // An edit and further job passes raise nothing: no new failure has been reported.
    const edit = await w.api('PATCH', `/heartbeats/${hb.id}`, { json: { display_name: 'job (renamed)' } });
    expect(edit.status).toBe(200);
    await ping(sentinel.id);
    h.clock.advance(60 * SECOND);
    await stateIs(sentinel.id, 'down');
    expect((await alerts(hb.id)).map((a) => a.status)).toEqual(['resolved']);
    // The next /fail: a new alert with a new UUID; the resolved one stays resolved.
    await ping(hb.id, '/fail');
    const after = await waitFor(
      () => alerts(hb.id),
      (x) => x.length === 2,
      { what: 'a new fail alert', everyMs: 10 },
    );
    expect(after[0]).toMatchObject({
      cause: 'fail',
      status: 'open',
      created_at: h.clock.now().toISOString(),
    });
    expect(after[0]!.id).not.toBe(first!.id);
    expect(after[1]).toMatchObject({ id: first!.id, status: 'resolved', resolved_by: { type: 'user' } });
    expect((await get(hb.id)).alert_id).toBe(after[0]!.id);
    // While it is open, failing again adds nothing (the job has looked since); a success resolves it.
    await ping(hb.id, '/fail');
    h.clock.advance(SECOND);
    await deadlinesChecked();
    expect((await alerts(hb.id)).length).toBe(2);
    await ping(hb.id);
    await waitFor(
      () => alerts(hb.id),
      (x) => x[0]?.status === 'resolved',
      { what: 'resolved by the system', everyMs: 10 },
    );
  });

  it('a heartbeat still silent after its missed-deadline alert was resolved raises again one period + grace later', async () => {
    const { w, create, get, alerts, ping, stateIs } = await setup('hb-resolve-missed');
    const hb = await create({ period_seconds: 60, grace_seconds: 30 });
    const sentinel = await create({ period_seconds: 60, grace_seconds: 29 });
    await ping(hb.id);
    const t0 = h.clock.now().getTime();
    h.clock.set(t0 + 90 * SECOND);
    await stateIs(hb.id, 'down');
    const [first] = await alerts(hb.id);
    expect(first).toMatchObject({ cause: 'down', status: 'open' });
    h.clock.set(t0 + 100 * SECOND);
    await resolveByHand(w, first!.id);
    // Nothing until one period + grace after the resolve (the sentinel shows the job ran at 189 s).
    await ping(sentinel.id);
    h.clock.set(t0 + 189 * SECOND);
    await stateIs(sentinel.id, 'down');
    expect(await alerts(hb.id)).toHaveLength(1);
    expect((await get(hb.id)).state).toBe('down');
    h.clock.set(t0 + 190 * SECOND);
    const after = await waitFor(
      () => alerts(hb.id),
      (x) => x.length === 2,
      { what: 'a new missed-deadline alert', everyMs: 10 },
    );
    expect(after[0]).toMatchObject({
      cause: 'down',
      status: 'open',
      created_at: new Date(t0 + 190 * SECOND).toISOString(),
    });
    expect(after[0]!.title).toContain('missed its deadline');
    expect(after[0]!.id).not.toBe(first!.id);
    // Staying silent with it open raises nothing more: the job has looked at 900 s.
    h.clock.set(t0 + 900 * SECOND);
    await deadlinesChecked();
    expect(await alerts(hb.id)).toHaveLength(2);
  });

  it('a run started after the resolve that overruns its grace raises a new alert', async () => {
    const { w, create, alerts, ping } = await setup('hb-resolve-run');
    const hb = await create({ period_seconds: 86_400, grace_seconds: 300 });
    await ping(hb.id);
    await ping(hb.id, '/fail');
    const [first] = await waitFor(
      () => alerts(hb.id),
      (x) => x.length === 1,
      { what: 'fail alert', everyMs: 10 },
    );
    await resolveByHand(w, first!.id);
    h.clock.advance(60 * SECOND);
    const started = h.clock.now().getTime();
    await ping(hb.id, '/start?rid=r9');
    h.clock.set(started + 300 * SECOND);
    const after = await waitFor(
      () => alerts(hb.id),
      (x) => x.length === 2,
      { what: 'an overrun alert', everyMs: 10 },
    );
    expect(after[0]).toMatchObject({
      cause: 'down',
      created_at: new Date(started + 300 * SECOND).toISOString(),
    });
    expect(after[0]!.title).toContain('did not finish within 5m');
  });
});

describe("a ping's time never moves a heartbeat backwards (issue 10, item 5)", () => {
  it('refuses a timestamp from before the heartbeat existed with 422 naming timestamp, and records nothing', async () => {
    const { w, create, get } = await setup('hb-ts-past');
    const hb = await create({ period_seconds: 60, grace_seconds: 0 });
    const created = Math.floor(h.clock.now().getTime() / 1000);
    for (const timestamp of [0, 1, created - 1]) {
      const r = await h.request('POST', `/hb/ping/${hb.id}`, { json: { timestamp } });
      expect(r.status, String(timestamp)).toBe(422);
      expect(r.body.error.code).toBe('validation_failed');
      expect(r.body.error.details).toEqual([
        { field: 'timestamp', message: expect.stringContaining('before the heartbeat was created') },
      ]);
    }
    expect((await w.api('GET', `/heartbeats/${hb.id}/pings`)).body.data).toEqual([]);
    expect(await get(hb.id)).toMatchObject({ state: 'new', last_ping_at: null });
    // The second it was created in is fine (timestamps are whole seconds).
    h.clock.advance(10 * SECOND);
    expect((await h.request('POST', `/hb/ping/${hb.id}`, { json: { timestamp: created } })).status).toBe(200);
    expect((await get(hb.id)).last_ping_at).toBe(new Date(created * 1000).toISOString());
  });

  it('an older success, fail or start is kept in the ping log but moves nothing: no state change, no alert', async () => {
    const { w, create, get, alerts, ping, stateIs } = await setup('hb-ts-older');
    const hb = await create({ period_seconds: 600, grace_seconds: 60 });
    // A sentinel due at the older pings' would-be deadlines: once it is down, the job has run then.
    const sentinel = await create({ period_seconds: 60, grace_seconds: 0 });
    h.clock.advance(1_000 * SECOND);
    const t1 = h.clock.now().getTime();
    expect((await ping(hb.id)).status).toBe(200);
    expect((await ping(sentinel.id)).status).toBe(200);
    const older = Math.floor(t1 / 1000) - 500;
    for (const suffix of ['', '/fail', '/start']) {
      const r = await h.request('POST', `/hb/ping/${hb.id}${suffix}`, { json: { timestamp: older } });
      expect(r.status, suffix).toBe(200);
    }
    const pings = (await w.api('GET', `/heartbeats/${hb.id}/pings`)).body.data as {
      kind: string;
      at: string;
    }[];
    expect(pings.map((p) => p.kind).sort()).toEqual(['fail', 'start', 'success', 'success']);
    expect(pings.filter((p) => p.at === new Date(older * 1000).toISOString()).length).toBe(3);
    expect(await get(hb.id)).toMatchObject({
      state: 'up',
      last_ping_at: new Date(t1).toISOString(),
      started_at: null,
      start_rid: null,
    });
    // Past the older start's grace and the older success's deadline: the job has run, nothing raised.
    h.clock.set(t1 + 120 * SECOND);
    await stateIs(sentinel.id, 'down');
    expect((await get(hb.id)).state).toBe('up');
    expect(await alerts(hb.id)).toEqual([]);
    // Its own deadline (from the newest ping) still holds.
    h.clock.set(t1 + 660 * SECOND);
    await stateIs(hb.id, 'down');
    expect((await alerts(hb.id)).map((a) => a.cause)).toEqual(['down']);
  });
});

describe('deadlines with two control-plane processes on one SQLite file', () => {
  it('both run the job; each missed heartbeat raises exactly one alert', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lookout-hb-replicas-'));
    const start = Date.parse('2026-06-01T12:00:00Z');
    const children: ChildProcess[] = [];
    const store = createSqliteStore({ path: join(dir, 'lookout.db') });
    try {
      await store.init();
      const a = await startChild(dir, start, children);
      const b = await startChild(dir, start, children);
      const { workspace } = await createWorkspace(
        store,
        loadConfig({}, {}).plans,
        { subdomain: 'hb-replicas', admin_email: 'a@x.test', plan: 'team' },
        new Date(start),
      );
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        const hb = await createHeartbeat(
          store,
          workspace,
          { display_name: `job ${i}`, period_seconds: 60, grace_seconds: 0 },
          new Date(start),
        );
        ids.push(hb.id);
      }
      // Half the pings through each replica.
      const replies = await Promise.all(
        ids.map((id, i) => fetch(`http://127.0.0.1:${(i % 2 ? a : b).port}/hb/ping/${id}`)),
      );
      expect(replies.every((r) => r.status === 200)).toBe(true);
      await Promise.all([a.setClock(start + 60 * SECOND), b.setClock(start + 60 * SECOND)]);
      const openAlerts = async () =>
        (await store.listAlerts(workspace.id, { limit: 100, source_type: 'heartbeat' })).data;
      await waitFor(openAlerts, (x) => x.length >= 30, { what: '30 alerts', everyMs: 20 });
      // Both step past further deadlines (each has finished a pass at 600 s): still one alert per heartbeat.
      await Promise.all([a.setClock(start + 600 * SECOND), b.setClock(start + 600 * SECOND)]);
      await Promise.all(
        [a, b].map((cp) =>
          jobPassed(`http://127.0.0.1:${cp.port}`, 'heartbeat-deadlines', start + 600 * SECOND),
        ),
      );
      const all = await openAlerts();
      expect(all.length).toBe(30);
      expect(new Set(all.map((x) => x.source_id))).toEqual(new Set(ids));
      for (const id of ids) expect((await store.findHeartbeat(id))?.state).toBe('down');
    } finally {
      for (const c of children) {
        if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
        await exited(c);
      }
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A control-plane OS process whose clock the test moves. */
const startChild = (data: string, clockStart: number, children: ChildProcess[]) =>
  startClockedControlPlane({ data, clockStart, children, env: { LOOKOUT_HEARTBEAT_CHECK_MS: '10' } });
