import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../control-plane/src/config.js';
import { createNamedKey } from '../../control-plane/src/domain/access/api-keys.js';
import { createUser, createWorkspace } from '../../control-plane/src/domain/tenancy/workspaces.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';
import { type ClockedControlPlane, startClockedControlPlane } from '../support/clocked-control-plane.js';
import { jobPassed } from '../support/job-passes.js';
import { exited } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

/**
 * Cron heartbeats through the real HTTP API of a control-plane process whose clock the test drives:
 * schedules in a time zone, slug pings with the workspace's ping key, ?create=1, run durations.
 */
const sh = promisify(execFile);
const SECOND = 1000;
const T0 = Date.parse('2026-06-01T00:00:00Z'); // a Monday
const dir = mkdtempSync(join(tmpdir(), 'lookout-cron-hb-'));
const children: ChildProcess[] = [];
let cp: ClockedControlPlane;
let store: Store;
let adminKey: string;
let memberKey: string;

beforeAll(async () => {
  store = createSqliteStore({ path: join(dir, 'lookout.db') });
  await store.init();
  const { workspace, admin } = await createWorkspace(
    store,
    loadConfig({}, {}).plans,
    { subdomain: 'cron', admin_email: 'a@cron.test', plan: 'team' },
    new Date(T0),
  );
  adminKey = (await createNamedKey(store, workspace, admin, { name: 'k', expiry: 'none' }, new Date(T0)))
    .value;
  const member = await createUser(store, workspace, { email: 'm@cron.test', role: 'member' }, new Date(T0));
  memberKey = (
    await createNamedKey(store, workspace, member.user, { name: 'm', expiry: 'none' }, new Date(T0))
  ).value;
  cp = await startClockedControlPlane({
    data: dir,
    clockStart: T0,
    children,
    env: {
      LOOKOUT_HEARTBEAT_CHECK_MS: '10',
      // A small cap, so that ?create=1 meets it (team as by default otherwise).
      LOOKOUT_PLANS: JSON.stringify({
        team: { max_monitors: 100, min_interval_seconds: 30, max_heartbeats: 10 },
      }),
    },
  });
});
afterAll(async () => {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await exited(c);
  }
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const base = () => `http://127.0.0.1:${cp.port}`;
/** The API on the workspace's host (fetch cannot set Host: node:http can). */
const api = (method: string, path: string, json?: unknown, key = adminKey) =>
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  new Promise<{ status: number; body: any }>((resolve, reject) => {
    const body = json === undefined ? undefined : JSON.stringify(json);
    const headers: Record<string, string> = { host: 'cron.localhost', 'x-api-key': key };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const req = httpRequest(
      { host: '127.0.0.1', port: cp.port, method, path: `/api/v1${path}`, headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
const get = async (id: string) => (await api('GET', `/heartbeats/${id}`)).body;
const alertsOf = async (id: string) =>
  (await api('GET', `/alerts?source_id=${id}`)).body.data as {
    title: string;
    created_at: string;
    cause: string;
  }[];
const deadlinesChecked = (at: number) => jobPassed(base(), 'heartbeat-deadlines', at);
const at = async (iso: string) => {
  const ms = Date.parse(iso);
  await cp.setClock(ms);
  await deadlinesChecked(ms);
  return ms;
};

describe('slug pings with the workspace ping key', () => {
  it('a crontab line with a slug and ?create=1 creates its heartbeat on its first run, and records the run', async () => {
    const key = await api('GET', '/ping-key');
    expect(key.status).toBe(200);
    const pingKey = key.body.ping_key as string;
    expect(pingKey).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // Shown again the same; members may not see it.
    expect((await api('GET', '/ping-key')).body.ping_key).toBe(pingKey);
    expect((await api('GET', '/ping-key', undefined, memberKey)).status).toBe(403);

    const url = `${base()}/hb/ping/${pingKey}/nightly-backup`;
    const before = (await api('GET', '/heartbeats')).body.data.length;
    // Without ?create=1 an unknown slug is a 404 and creates nothing.
    const unknown = await fetch(url);
    expect(unknown.status).toBe(404);
    expect((await api('GET', '/heartbeats')).body.data.length).toBe(before);

    // The crontab line's first half (the run starts), through a real shell and curl.
    const curl = 'curl -fsS -m 10 --retry 5 -o /dev/null';
    await sh('/bin/sh', ['-c', `${curl} "${url}/start?create=1"`]);
    const list = (await api('GET', '/heartbeats')).body.data as { slug: string; id: string }[];
    const created = list.find((x) => x.slug === 'nightly-backup');
    expect(created).toBeDefined();
    expect(list.length).toBe(before + 1);
    // 90 s later the job ends with exit status 0: `curl .../$?`.
    await cp.setClock(T0 + 90 * SECOND);
    await sh('/bin/sh', ['-c', `true; ${curl} "${url}/$?"`]);
    const hb = await get(created!.id);
    expect(hb).toMatchObject({
      display_name: 'nightly-backup',
      slug: 'nightly-backup',
      state: 'up',
      last_duration_ms: 90_000,
      period_seconds: 86_400,
      grace_seconds: 3_600,
    });
    const pings = (await api('GET', `/heartbeats/${created!.id}/pings`)).body.data;
    expect(pings.map((p: { kind: string; duration_ms: number | null }) => [p.kind, p.duration_ms])).toEqual([
      ['success', 90_000],
      ['start', null],
    ]);
    // A failing run by exit status, under the slug.
    expect((await fetch(`${url}/3`)).status).toBe(200);
    await waitFor(
      () => get(created!.id),
      (x) => x.state === 'down',
      { what: 'down', everyMs: 10 },
    );

    // Regenerated: on the replica that regenerated it the old key stops at once (the clock has not
    // moved, the old key was looked up a moment ago and would still be in the ping cache), the new one works.
    const fresh = (await api('POST', '/ping-key/regenerate')).body.ping_key as string;
    expect(fresh).not.toBe(pingKey);
    expect((await fetch(url)).status).toBe(404);
    await cp.setClock(T0 + 120 * SECOND);
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(`${base()}/hb/ping/${fresh}/nightly-backup`)).status).toBe(200);
    // A taken slug is refused on create.
    const dup = await api('POST', '/heartbeats', { display_name: 'x', slug: 'nightly-backup' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.details).toEqual([{ field: 'slug', message: expect.stringMatching(/taken/) }]);
  });

  it('slug pings are stored before their 200 and meet the same per-heartbeat rate limit as uuid pings', async () => {
    const pingKey = (await api('GET', '/ping-key')).body.ping_key as string;
    const url = `${base()}/hb/ping/${pingKey}/burst`;
    // The first ping creates the heartbeat; 99 more fill the burst of 100 (10/s × 10; the clock stands still).
    expect((await fetch(`${url}?create=1`)).status).toBe(200);
    const replies = await Promise.all(Array.from({ length: 99 }, () => fetch(url)));
    expect(replies.map((r) => r.status)).toEqual(Array(99).fill(200));
    // This test's own connection to the SQLite file sees every acknowledged ping.
    const workspace = (await store.getWorkspaceBySubdomain('cron'))!;
    const hb = (await store.findHeartbeatBySlug(workspace.id, 'burst'))!;
    expect((await store.listPings(workspace.id, hb.id, { limit: 1000 })).data.length).toBe(100);
    const limited = await fetch(url);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await store.listPings(workspace.id, hb.id, { limit: 1000 })).data.length).toBe(100);
  });
});

describe('schedules in the heartbeat’s own time zone', () => {
  it('a weekday-only schedule does not alert on Saturday or Sunday', async () => {
    await cp.setClock(Date.parse('2026-06-05T01:00:00Z')); // Friday 03:00 in Berlin
    const created = await api('POST', '/heartbeats', {
      display_name: 'weekday report',
      schedule: '0 3 * * 1-5',
      timezone: 'Europe/Berlin',
      grace_seconds: 1800,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      schedule: '0 3 * * 1-5',
      timezone: 'Europe/Berlin',
      period_seconds: null,
      schedule_text: 'At 03:00, Monday through Friday, Europe/Berlin',
    });
    const id = created.body.id as string;
    await cp.setClock(Date.parse('2026-06-05T01:00:30Z'));
    expect((await fetch(`${base()}/hb/ping/${id}`)).status).toBe(200);
    expect((await get(id)).next_expected_at).toBe('2026-06-08T01:00:00.000Z');
    // Saturday and Sunday past 03:00 + grace: the job has looked, nothing is late.
    await at('2026-06-06T02:00:00Z');
    expect((await get(id)).state).toBe('up');
    await at('2026-06-07T12:00:00Z');
    expect((await get(id)).state).toBe('up');
    expect(await alertsOf(id)).toEqual([]);
    // Monday's run is missed: down at 03:00 + 30 min Berlin time.
    await at('2026-06-08T01:29:59Z');
    expect((await get(id)).state).toBe('late');
    await at('2026-06-08T01:30:00Z');
    expect((await get(id)).state).toBe('down');
    expect((await alertsOf(id)).map((a) => a.created_at)).toEqual(['2026-06-08T01:30:00.000Z']);
  });

  it('a missed 03:00 run alerts at 03:00 plus grace in the heartbeat’s zone (New York, then Kolkata)', async () => {
    for (const [zone, ranAt, lateAt, downAt] of [
      // 03:00 EDT is 07:00 UTC.
      ['America/New_York', '2026-06-09T07:00:10Z', '2026-06-10T07:00:00Z', '2026-06-10T07:10:00Z'],
      // 03:00 IST is 21:30 UTC the day before.
      ['Asia/Kolkata', '2026-06-10T21:30:10Z', '2026-06-11T21:30:00Z', '2026-06-11T21:40:00Z'],
    ] as const) {
      await cp.setClock(Date.parse(ranAt) - 60 * SECOND);
      const id = (
        await api('POST', '/heartbeats', {
          display_name: `daily ${zone}`,
          schedule: '0 3 * * *',
          timezone: zone,
          grace_seconds: 600,
        })
      ).body.id as string;
      await cp.setClock(Date.parse(ranAt));
      expect((await fetch(`${base()}/hb/ping/${id}`)).status).toBe(200);
      expect((await get(id)).next_expected_at).toBe(new Date(lateAt).toISOString());
      await at(new Date(Date.parse(downAt) - SECOND).toISOString());
      expect((await get(id)).state).toBe('late');
      expect(await alertsOf(id)).toEqual([]);
      await at(downAt);
      const alerts = await alertsOf(id);
      expect(alerts.map((a) => [a.cause, a.created_at])).toEqual([['down', new Date(downAt).toISOString()]]);
      expect(alerts[0]!.title).toContain('missed its deadline');
    }
  });

  it('a run started and not finished within the grace raises its own alert', async () => {
    await cp.setClock(Date.parse('2026-06-15T00:00:00Z'));
    const id = (
      await api('POST', '/heartbeats', {
        display_name: 'export',
        schedule: '@hourly',
        grace_seconds: 300,
      })
    ).body.id as string;
    expect((await fetch(`${base()}/hb/ping/${id}`)).status).toBe(200);
    await cp.setClock(Date.parse('2026-06-15T00:30:00Z'));
    expect((await fetch(`${base()}/hb/ping/${id}/start`)).status).toBe(200);
    await at('2026-06-15T00:34:59Z');
    expect(await alertsOf(id)).toEqual([]);
    await at('2026-06-15T00:35:00Z');
    const [alert] = await alertsOf(id);
    expect(alert!.title).toBe('"export" started but did not finish within 5m');
  });

  it('bad schedules, zones and mixes are 422s naming every field', async () => {
    const r = await api('POST', '/heartbeats', {
      display_name: 'x',
      schedule: '0 25 * * *',
      period_seconds: 3600,
      timezone: 'Mars/Olympus',
      slug: 'Bad Slug',
    });
    expect(r.status).toBe(422);
    expect(r.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'period_seconds',
      'schedule',
      'slug',
      'timezone',
    ]);
  });
});

describe('signals on the record', () => {
  it('a job pinging far too often is flagged on its record, not alerted; a schedule can go back to a period', async () => {
    const start = Date.parse('2026-07-01T00:00:00Z');
    await cp.setClock(start);
    const id = (await api('POST', '/heartbeats', { display_name: 'loop', schedule: '@daily' })).body
      .id as string;
    for (let i = 0; i < 10; i++) {
      await cp.setClock(start + i * 60 * SECOND);
      expect((await fetch(`${base()}/hb/ping/${id}`)).status).toBe(200);
    }
    await at(new Date(start + 10 * 60 * SECOND).toISOString());
    expect(await get(id)).toMatchObject({ pinging_too_often: true, state: 'up' });
    expect(await alertsOf(id)).toEqual([]);
    // A period given switches the heartbeat to it; schedule null would too.
    const patched = await api('PATCH', `/heartbeats/${id}`, { period_seconds: 3600 });
    expect(patched.body).toMatchObject({ schedule: null, period_seconds: 3600, schedule_text: 'Every hour' });
    const back = await api('PATCH', `/heartbeats/${id}`, {
      schedule: '0 3 * * *',
      timezone: 'europe/berlin',
    });
    expect(back.body).toMatchObject({
      schedule: '0 3 * * *',
      timezone: 'Europe/Berlin',
      period_seconds: null,
    });
  });

  it('?create=1 stops at the plan’s cap: 402 and nothing created', async () => {
    const pingKey = (await api('GET', '/ping-key')).body.ping_key as string;
    let count = (await api('GET', '/heartbeats?limit=100')).body.data.length as number;
    while (count < 10) {
      expect((await fetch(`${base()}/hb/ping/${pingKey}/filler-${count}?create=1`)).status).toBe(200);
      count++;
    }
    const full = await fetch(`${base()}/hb/ping/${pingKey}/one-too-many?create=1`);
    expect(full.status).toBe(402);
    expect(((await full.json()) as { error: { message: string } }).error.message).toMatch(
      /allows 10 heartbeats/,
    );
    expect((await api('GET', '/heartbeats?limit=100')).body.data.length).toBe(10);
    expect((await api('POST', '/heartbeats', { display_name: 'by API' })).status).toBe(402);
  });
});
