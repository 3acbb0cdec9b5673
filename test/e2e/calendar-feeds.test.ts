/**
 * Calendar feeds end to end (domain/oncall/calendar-feeds.ts, http/calendar-feed.ts): a real control
 * plane process with a clock the test drives, two schedules across the autumn DST changes (Berlin on
 * 25 October, New York on 1 November) with an override, both kinds of feed read with ical.js
 * (test/support/icalendar.ts) and every DTSTART/DTEND resolved through the feed's own VTIMEZONE, then
 * held to the shifts API's instants; stable and unique UIDs, revocation, another workspace's host,
 * roles, the failed-credential limit, and no token in the process's logs.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../control-plane/src/config.js';
import { createNamedKey } from '../../control-plane/src/domain/access/api-keys.js';
import { createUser, createWorkspace } from '../../control-plane/src/domain/tenancy/workspaces.js';
import type { Role, User, Workspace } from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';
import { type ClockedControlPlane, startClockedControlPlane } from '../support/clocked-control-plane.js';
import { parseFeed } from '../support/icalendar.js';
import { exited } from '../support/processes.js';

const T0 = Date.parse('2026-10-20T12:00:00Z');
const DAY = 86_400_000;
/** The feed's window at T0 (domain/oncall/calendar-feeds.ts feedWindow): whole UTC days, 93 in all. */
const FROM = new Date(Math.floor(T0 / DAY) * DAY - 7 * DAY);
const TO = new Date(FROM.getTime() + 93 * DAY);
const FAILURES_PER_MINUTE = 25;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  body: any;
  text: string;
}

const dir = mkdtempSync(join(tmpdir(), 'lookout-calendars-'));
const children: ChildProcess[] = [];
let cp: ClockedControlPlane;
let store: Store;
let logs = '';

const call = (method: string, path: string, opts: { host: string; key?: string; json?: unknown }) =>
  new Promise<Reply>((resolve, reject) => {
    const headers: Record<string, string> = { host: opts.host };
    if (opts.key) headers['x-api-key'] = opts.key;
    const payload = opts.json === undefined ? undefined : Buffer.from(JSON.stringify(opts.json));
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    const req = httpRequest({ host: '127.0.0.1', port: cp.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });

interface Member {
  user: User;
  key: string;
}
interface Ws {
  workspace: Workspace;
  host: string;
  admin: Member;
  api: (key: string, method: string, path: string, json?: unknown) => Promise<Reply>;
}

const workspace = async (subdomain: string): Promise<Ws> => {
  const config = loadConfig({}, {});
  const now = new Date(T0);
  const created = await createWorkspace(
    store,
    config.plans,
    { subdomain, admin_email: `admin@${subdomain}.test`, plan: 'team' },
    now,
  );
  const k = await createNamedKey(store, created.workspace, created.admin, { name: 'k', expiry: 'none' }, now);
  const host = `${subdomain}.localhost`;
  return {
    workspace: created.workspace,
    host,
    admin: { user: created.admin, key: k.value },
    api: (key, method, path, json) => call(method, `/api/v1${path}`, { host, key, json }),
  };
};

const member = async (ws: Ws, email: string, role: Role): Promise<Member> => {
  const now = new Date(T0);
  const { user } = await createUser(store, ws.workspace, { email, role }, now);
  const k = await createNamedKey(store, ws.workspace, user, { name: 'k', expiry: 'none' }, now);
  return { user, key: k.value };
};

/** GET a feed by its URL as a calendar would: no key, no cookie; `host` overrides the URL's. */
const fetchFeed = (url: string, host?: string) => {
  const u = new URL(url);
  return call('GET', u.pathname, { host: host ?? u.host });
};

let a: Ws;
let b: Ws;
let ana: Member;
let bob: Member;
let viewer: Member;
let berlin: { id: string };
let newYork: { id: string };
const tokens: string[] = [];
const issued = (r: Reply) => {
  expect(r.status, r.text).toBe(201);
  const url = r.body.url as string;
  tokens.push(/\/calendars\/([^/]+)\.ics$/.exec(url)![1]!);
  return url;
};

beforeAll(async () => {
  const data = join(dir, 'data');
  store = createSqliteStore({ path: join(data, 'lookout.db') });
  await store.init();
  a = await workspace('cal-a');
  b = await workspace('cal-b');
  ana = await member(a, 'ana@cal-a.test', 'member');
  bob = await member(a, 'bob@cal-a.test', 'member');
  viewer = await member(a, 'vic@cal-a.test', 'viewer');
  cp = await startClockedControlPlane({
    data,
    clockStart: T0,
    children,
    env: {
      LOOKOUT_LOG_LEVEL: 'debug',
      LOOKOUT_AUTH_FAILURES_PER_MINUTE: String(FAILURES_PER_MINUTE),
    },
  });
  cp.child.stdout!.on('data', (d) => (logs += d));
  cp.child.stderr!.on('data', (d) => (logs += d));

  // Berlin: daily at 09:00 local, ana then bob; the 24th's shift runs into the 25th across the change
  // back to CET (25 hours). An override by bob over ana's shift on the night of the change.
  const created = await a.api(a.admin.key, 'POST', '/schedules', {
    name: 'Primary',
    timezone: 'Europe/Berlin',
    layers: [
      {
        name: 'Days',
        users: [ana.user.id, bob.user.id],
        rotation: 'daily',
        handoff: '09:00',
        starts_at: '2026-10-19T07:00:00Z',
      },
    ],
  });
  expect(created.status, created.text).toBe(201);
  berlin = created.body;
  const override = await a.api(a.admin.key, 'POST', `/schedules/${berlin.id}/overrides`, {
    user_id: await notOnCall(berlin.id, '2026-10-25T00:00:00Z'),
    starts_at: '2026-10-24T23:30:00Z',
    ends_at: '2026-10-25T02:30:00Z',
  });
  expect(override.status, override.text).toBe(201);
  // New York: weekly, Mondays 10:00 local; the week of 26 October ends after the change to EST.
  const ny = await a.api(a.admin.key, 'POST', '/schedules', {
    name: 'Secondary',
    timezone: 'America/New_York',
    layers: [
      {
        name: 'Weeks',
        users: [bob.user.id, ana.user.id],
        rotation: 'weekly',
        handoff: '10:00',
        handoff_day: 'mon',
        starts_at: '2026-10-12T14:00:00Z',
      },
    ],
  });
  expect(ny.status, ny.text).toBe(201);
  newYork = ny.body;
}, 60_000);

afterAll(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await exited(c);
  }
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Of ana and bob, the one not on call at `at` (an override by them shows as a shift of its own). */
const notOnCall = async (scheduleId: string, at: string) => {
  const r = await a.api(a.admin.key, 'GET', `/schedules/${scheduleId}/on-call?at=${at}`);
  expect(r.status, r.text).toBe(200);
  return r.body.user?.id === ana.user.id ? bob.user.id : ana.user.id;
};

/** The shifts API's answer over the feed's window. */
const shiftsOf = async (scheduleId: string) => {
  const r = await a.api(
    a.admin.key,
    'GET',
    `/schedules/${scheduleId}/shifts?from=${FROM.toISOString()}&to=${TO.toISOString()}`,
  );
  expect(r.status, r.text).toBe(200);
  return (r.body.data as { user: { id: string; email: string }; starts_at: string; ends_at: string }[]).map(
    (s) => ({ user: s.user, start: new Date(s.starts_at), end: new Date(s.ends_at) }),
  );
};

describe('calendar feeds', () => {
  it('a schedule’s feed holds every final shift, in its zone with its VTIMEZONE, at the shifts API’s instants', async () => {
    const url = issued(await a.api(ana.key, 'POST', `/schedules/${berlin.id}/ical-url`));
    expect(url).toMatch(/^http:\/\/cal-a\.localhost:\d+\/calendars\/lcal\.[\w-]{43}\.ics$/);
    const r = await fetchFeed(url);
    expect(r.status, r.text).toBe(200);
    expect(r.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(r.headers['cache-control']).toBe('private, max-age=300');
    expect(r.headers['set-cookie']).toBeUndefined();
    const head = await call('HEAD', new URL(url).pathname, { host: new URL(url).host });
    expect([head.status, head.headers['content-type'], head.text]).toEqual([
      200,
      'text/calendar; charset=utf-8',
      '',
    ]);
    // The token without `.ics` is no URL of a feed.
    expect((await call('GET', new URL(url).pathname.slice(0, -4), { host: a.host })).status).toBe(404);
    const cal = parseFeed(r.text);
    expect(cal.props['X-WR-CALNAME']).toBe('Primary on call');
    expect(cal.props['REFRESH-INTERVAL']).toBeTruthy();
    expect(cal.props['X-PUBLISHED-TTL']).toBeTruthy();
    expect(cal.tzids).toEqual(['Europe/Berlin']);
    const shifts = await shiftsOf(berlin.id);
    expect(shifts.length).toBeGreaterThan(80);
    expect(cal.events.map((e) => [e.start, e.end, e.summary, e.tzid])).toEqual(
      shifts.map((s) => [s.start, s.end, `${s.user.email} on call — Primary`, 'Europe/Berlin']),
    );
    // The DST night is in it: the shift from the 24th's 09:00 CEST is cut by the override, and the
    // rest of it ends at 09:00 CET (08:00Z), 25 hours after it began.
    expect(cal.events.map((e) => e.startText)).toContain('DTSTART;TZID=Europe/Berlin:20261024T090000');
    const overridden = cal.events.find((e) => e.start.toISOString() === '2026-10-24T23:30:00.000Z');
    expect(overridden?.description).toContain('Override made by admin@cal-a.test');
    expect(cal.events.find((e) => e.end.toISOString() === '2026-10-25T08:00:00.000Z')).toBeDefined();
  });

  it('a user’s feed holds their shifts of every schedule, each in its own zone, every VTIMEZONE present', async () => {
    const url = issued(await a.api(ana.key, 'POST', '/me/ical-url'));
    const cal = parseFeed((await fetchFeed(url)).text);
    expect(cal.tzids.sort()).toEqual(['America/New_York', 'Europe/Berlin']);
    const expected = [
      ...(await shiftsOf(berlin.id)).map((s) => ({ ...s, zone: 'Europe/Berlin', name: 'Primary' })),
      ...(await shiftsOf(newYork.id)).map((s) => ({ ...s, zone: 'America/New_York', name: 'Secondary' })),
    ]
      .filter((s) => s.user.id === ana.user.id)
      .sort((x, y) => x.start.getTime() - y.start.getTime());
    expect(cal.events.map((e) => [e.start, e.end, e.summary, e.tzid])).toEqual(
      expected.map((s) => [s.start, s.end, `On call — ${s.name}`, s.zone]),
    );
  });

  it('UIDs are unique and the same on every fetch; the feed changes with the schedule', async () => {
    const url = issued(await a.api(a.admin.key, 'POST', `/schedules/${newYork.id}/ical-url`));
    const lastUse = async () =>
      (await store.getCalendarFeed(a.workspace.id, 'schedule', newYork.id))?.last_used_at?.getTime();
    expect(await lastUse()).toBeUndefined();
    const first = parseFeed((await fetchFeed(url)).text);
    expect(await lastUse()).toBe(T0);
    await cp.setClock(T0 + 2 * 3600_000);
    const second = parseFeed((await fetchFeed(url)).text);
    expect(await lastUse()).toBe(T0 + 2 * 3600_000);
    // Written at most once an hour: a read 30 minutes later leaves it.
    await cp.setClock(T0 + 2.5 * 3600_000);
    expect((await fetchFeed(url)).status).toBe(200);
    expect(await lastUse()).toBe(T0 + 2 * 3600_000);
    await cp.setClock(T0);
    const uids = first.events.map((e) => e.uid);
    expect(new Set(uids).size).toBe(uids.length);
    expect(second.events.map((e) => e.uid)).toEqual(uids);
    expect(uids.every((u) => u.endsWith('@cal-a.localhost'))).toBe(true);
    // The week across 1 November: 10:00 EDT Monday to 10:00 EST the next Monday (169 hours).
    const week = first.events.find((e) => e.startText === 'DTSTART;TZID=America/New_York:20261026T100000');
    expect(week?.end.toISOString()).toBe('2026-11-02T15:00:00.000Z');
    // An override shows at once (within the cache's 5 minutes for a calendar that keeps it).
    const o = await a.api(a.admin.key, 'POST', `/schedules/${newYork.id}/overrides`, {
      user_id: await notOnCall(newYork.id, '2026-11-10T16:00:00Z'),
      starts_at: '2026-11-10T15:00:00Z',
      ends_at: '2026-11-10T18:00:00Z',
    });
    expect(o.status, o.text).toBe(201);
    const third = parseFeed((await fetchFeed(url)).text);
    expect(third.events.some((e) => e.start.toISOString() === '2026-11-10T15:00:00.000Z')).toBe(true);
  });

  it('a new URL revokes the old one; DELETE revokes; both kinds; 404 when there is none', async () => {
    const old = issued(await a.api(bob.key, 'POST', `/schedules/${berlin.id}/ical-url`));
    const next = issued(await a.api(bob.key, 'POST', `/schedules/${berlin.id}/ical-url`));
    expect((await fetchFeed(old)).status).toBe(404);
    expect((await fetchFeed(next)).status).toBe(200);
    expect((await a.api(bob.key, 'DELETE', `/schedules/${berlin.id}/ical-url`)).status).toBe(204);
    expect((await fetchFeed(next)).status).toBe(404);
    expect((await a.api(bob.key, 'DELETE', `/schedules/${berlin.id}/ical-url`)).status).toBe(404);

    const mine = issued(await a.api(bob.key, 'POST', '/me/ical-url'));
    const mine2 = issued(await a.api(bob.key, 'POST', '/me/ical-url'));
    expect((await fetchFeed(mine)).status).toBe(404);
    expect((await fetchFeed(mine2)).status).toBe(200);
    expect((await a.api(bob.key, 'DELETE', '/me/ical-url')).status).toBe(204);
    expect((await fetchFeed(mine2)).status).toBe(404);
    expect((await a.api(bob.key, 'DELETE', '/me/ical-url')).status).toBe(404);
  });

  it('another workspace’s host, id or role gets nothing', async () => {
    const url = issued(await a.api(ana.key, 'POST', `/schedules/${berlin.id}/ical-url`));
    expect((await fetchFeed(url)).status).toBe(200);
    const elsewhere = await fetchFeed(url, `cal-b.localhost:${cp.port}`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.text).not.toContain(tokens.at(-1)!);
    expect((await b.api(b.admin.key, 'POST', `/schedules/${berlin.id}/ical-url`)).status).toBe(404);
    expect((await b.api(b.admin.key, 'DELETE', `/schedules/${berlin.id}/ical-url`)).status).toBe(404);
    const denied = await a.api(viewer.key, 'POST', `/schedules/${berlin.id}/ical-url`);
    expect(denied.status).toBe(403);
    expect((await a.api(viewer.key, 'DELETE', `/schedules/${berlin.id}/ical-url`)).status).toBe(403);
    // A viewer still has their own shifts' feed.
    issued(await a.api(viewer.key, 'POST', '/me/ical-url'));
    // Without a key or session: 401.
    expect((await call('POST', `/api/v1/schedules/${berlin.id}/ical-url`, { host: a.host })).status).toBe(
      401,
    );
    // The URL still works (nothing above touched it), and other methods are refused.
    expect((await fetchFeed(url)).status).toBe(200);
    expect((await call('POST', new URL(url).pathname, { host: a.host })).status).toBe(405);
  });

  it('a user who leaves the workspace takes their URLs with them', async () => {
    const mine = issued(await a.api(bob.key, 'POST', '/me/ical-url'));
    const made = issued(await a.api(bob.key, 'POST', `/schedules/${newYork.id}/ical-url`));
    expect((await fetchFeed(mine)).status).toBe(200);
    expect((await fetchFeed(made)).status).toBe(200);
    const removed = await a.api(a.admin.key, 'DELETE', `/users/${bob.user.id}`);
    expect(removed.status, removed.text).toBeLessThan(300);
    expect((await fetchFeed(mine)).status).toBe(404);
    expect((await fetchFeed(made)).status).toBe(404);
  });

  it('guessing tokens is limited like keys: 404s, then 429, while a real URL still works', async () => {
    const url = issued(await a.api(ana.key, 'POST', '/me/ical-url'));
    let limited: Reply | undefined;
    for (let i = 0; i < FAILURES_PER_MINUTE + 1 && !limited; i++) {
      const r = await call('GET', `/calendars/lcal.${'A'.repeat(42)}${i % 10}.ics`, { host: a.host });
      if (r.status === 429) limited = r;
      else expect(r.status).toBe(404);
    }
    expect(limited?.headers['retry-after']).toBeDefined();
    expect((await fetchFeed(url)).status).toBe(200);
  });

  it('no token reaches the process’s logs, while the feed’s requests are logged', async () => {
    expect(tokens.length).toBeGreaterThan(5);
    expect(logs).toContain('/calendars/[token].ics');
    for (const t of tokens) expect(logs).not.toContain(t);
    for (const t of tokens) expect(logs).not.toContain(t.slice(5));
  });
});
