import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * On-call schedules through the real API (docs/decisions.md, "On-call schedules"): CRUD, one 422
 * naming every bad field, roles, other workspaces invisible, who is on call and the shifts at the
 * harness's injected clock (2026-06-01T12:00Z, a Monday), overrides, shift trades, history and a user
 * leaving the workspace.
 */

let h: Harness;
let w: Awaited<ReturnType<Harness['workspace']>>;
let other: Awaited<ReturnType<Harness['workspace']>>;
type U = Awaited<ReturnType<typeof w.userWithKey>>;
let ana: U;
let bob: U;
let viewer: U;
let stranger: U;

beforeAll(async () => {
  h = await startHarness();
  w = await h.workspace('sched-a', 'business');
  other = await h.workspace('sched-b', 'business');
  ana = await w.userWithKey('member', 'ana@sched-a.test');
  bob = await w.userWithKey('member', 'bob@sched-a.test');
  viewer = await w.userWithKey('viewer');
  stranger = await other.userWithKey('member');
}, 60_000);
afterAll(() => h.close());

const fields = (r: { body: { error?: { details?: { field: string }[] } } }) =>
  (r.body.error?.details ?? []).map((d) => d.field).sort();

/** Daily 09:00 Berlin handoffs, Ana then Bob, from Monday 2026-06-01 09:00 (07:00Z). */
const daily = (name: string, users = [ana.user.id, bob.user.id]) => ({
  name,
  timezone: 'Europe/Berlin',
  layers: [{ users, rotation: 'daily', handoff: '09:00', starts_at: '2026-06-01T09:00:00+02:00' }],
});

describe('schedules', () => {
  it('creates, reads, edits, lists, searches and deletes; names unique ignoring case; other workspaces see none', async () => {
    const made = await w.api('POST', '/schedules', { json: daily('Primary') });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      name: 'Primary',
      timezone: 'Europe/Berlin',
      layers: [
        {
          name: 'Layer 1',
          users: [ana.user.id, bob.user.id],
          rotation: 'daily',
          shift_seconds: null,
          handoff: '09:00',
          handoff_day: null,
          starts_at: '2026-06-01T07:00:00.000Z',
          restrictions: [],
        },
      ],
      gaps: [],
    });
    const id = made.body.id as string;
    expect((await w.api('GET', `/schedules/${id}`)).body.name).toBe('Primary');
    expect((await w.api('POST', '/schedules', { json: daily('PRIMARY') })).status).toBe(409);
    const edited = await w.api('PATCH', `/schedules/${id}`, {
      json: { name: 'Primary on-call', timezone: 'america/new_york' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Primary on-call', timezone: 'America/New_York' });
    h.clock.advance(1000);
    const second = await w.api('POST', '/schedules', { json: daily('Secondary') });
    const list = await w.api('GET', '/schedules?limit=1');
    expect(list.body.data.map((s: { name: string }) => s.name)).toEqual(['Secondary']);
    const next = await w.api('GET', `/schedules?limit=1&cursor=${encodeURIComponent(list.body.next_cursor)}`);
    expect(next.body.data.map((s: { name: string }) => s.name)).toEqual(['Primary on-call']);
    expect((await w.api('GET', '/schedules?search=ON-CALL')).body.data).toHaveLength(1);

    for (const path of [
      `/schedules/${id}`,
      `/schedules/${id}/on-call`,
      `/schedules/${id}/shifts`,
      `/schedules/${id}/history`,
      `/schedules/${id}/overrides`,
      `/schedules/${id}/offers`,
    ])
      expect((await other.api('GET', path)).status, path).toBe(404);
    expect((await other.api('PATCH', `/schedules/${id}`, { json: { name: 'x' } })).status).toBe(404);
    expect((await other.api('DELETE', `/schedules/${id}`)).status).toBe(404);
    expect((await other.api('GET', '/schedules')).body.data).toEqual([]);

    expect((await w.api('DELETE', `/schedules/${second.body.id}`)).status).toBe(204);
    expect((await w.api('GET', `/schedules/${second.body.id}`)).status).toBe(404);
    await w.api('DELETE', `/schedules/${id}`);
  });

  it('answers ONE 422 naming an unknown user, overlapping restrictions, an unknown time zone and every other bad field', async () => {
    const r = await w.api('POST', '/schedules', {
      json: {
        name: 'Broken',
        timezone: 'Europe/Atlantis',
        layers: [
          {
            users: [ana.user.id, stranger.user.id, '00000000-0000-4000-8000-000000000000'],
            rotation: 'daily',
            shift_seconds: 3600,
            handoff: '25:00',
            handoff_day: 'mon',
            starts_at: '2026-06-01T09:00:00',
            restrictions: [
              { days: ['mon'], start: '09:00', end: '17:00' },
              { days: ['mon'], start: '12:00', end: '20:00' },
            ],
          },
          { users: [bob.user.id], rotation: 'custom', handoff: '09:00', starts_at: '2026-06-01T09:00:00Z' },
          { users: [bob.user.id], rotation: 'weekly', handoff: '09:00', starts_at: '2026-06-01T09:00:00Z' },
        ],
      },
    });
    expect(r.status).toBe(422);
    expect(fields(r)).toEqual(
      [
        'layers[0].handoff',
        'layers[0].handoff_day',
        'layers[0].restrictions[1]',
        'layers[0].shift_seconds',
        'layers[0].starts_at',
        'layers[0].users[1]',
        'layers[0].users[2]',
        'layers[1].shift_seconds',
        'layers[2].handoff_day',
        'timezone',
      ].sort(),
    );
    const byField = Object.fromEntries(
      r.body.error.details.map((d: { field: string; message: string }) => [d.field, d.message]),
    );
    expect(byField['layers[0].users[1]']).toBe('no user with this id in the workspace');
    expect(byField.timezone).toMatch(/time zone/);
    expect((await w.api('GET', '/schedules?search=Broken')).body.data).toEqual([]);
  });

  it('refuses what an attacker sends: huge arrays, deep bodies, long names, ten-year windows', async () => {
    const layer = daily('x').layers[0]!;
    const many = await w.api('POST', '/schedules', {
      json: { ...daily('Many'), layers: Array(11).fill(layer) },
    });
    expect(fields(many)).toEqual(['layers']);
    const users = Array.from({ length: 51 }, () => ana.user.id);
    const crowd = await w.api('POST', '/schedules', {
      json: { ...daily('Crowd'), layers: [{ ...layer, users }] },
    });
    expect(fields(crowd)).toEqual(['layers[0].users']);
    const restrictions = Array(29).fill({ days: ['mon'], start: '09:00', end: '10:00' });
    expect(
      fields(
        await w.api('POST', '/schedules', { json: { ...daily('R'), layers: [{ ...layer, restrictions }] } }),
      ),
    ).toEqual(['layers[0].restrictions']);
    let deep: unknown = 'x';
    for (let i = 0; i < 200; i++) deep = [deep];
    const d = await w.api('POST', '/schedules', { json: { ...daily('Deep'), layers: deep } });
    expect([400, 422]).toContain(d.status);
    expect(fields(await w.api('POST', '/schedules', { json: daily('n'.repeat(101)) }))).toEqual(['name']);
    expect(
      fields(await w.api('POST', '/schedules', { json: { ...daily('Z'), timezone: 'x'.repeat(5000) } })),
    ).toEqual(['timezone']);
    const s = (await w.api('POST', '/schedules', { json: daily('Windows') })).body;
    const tenYears = await w.api(
      'GET',
      `/schedules/${s.id}/shifts?from=2026-06-01T00:00:00Z&to=2036-06-01T00:00:00Z`,
    );
    expect(tenYears.status).toBe(422);
    expect(fields(tenYears)).toEqual(['to']);
    expect(fields(await w.api('GET', `/schedules/${s.id}/shifts?from=2026-06-01T00:00:00`))).toEqual([
      'from',
    ]);
    expect(fields(await w.api('GET', `/schedules/${s.id}/on-call?at=yesterday`))).toEqual(['at']);
    expect((await w.api('GET', '/me/shifts?days=1000')).status).toBe(422);
    const longOverride = await w.api('POST', `/schedules/${s.id}/overrides`, {
      json: { user_id: ana.user.id, starts_at: '2026-06-02T00:00:00Z', ends_at: '2026-08-02T00:00:00Z' },
    });
    expect(fields(longOverride)).toEqual(['ends_at']);
    const elsewhere = await w.api('POST', `/schedules/${s.id}/overrides`, {
      json: { user_id: stranger.user.id, starts_at: '2026-06-02T00:00:00Z', ends_at: '2026-06-03T00:00:00Z' },
    });
    expect(fields(elsewhere)).toEqual(['user_id']);
    // Instants far from now are refused (a zone's rules are computed per year), never computed slowly.
    const ancient = await w.api('POST', '/schedules', {
      json: { ...daily('Ancient'), layers: [{ ...daily('x').layers[0], starts_at: '0001-01-01T00:00:00Z' }] },
    });
    expect(fields(ancient)).toEqual(['layers[0].starts_at']);
    for (const [q, field] of [
      ['on-call?at=9999-12-31T23:00:00Z', 'at'],
      ['on-call?at=0001-01-02T00:00:00Z', 'at'],
      ['shifts?from=1970-01-01T00:00:00Z&to=1970-04-01T00:00:00Z', 'from'],
    ]) {
      const r = await w.api('GET', `/schedules/${s.id}/${q}`);
      expect(fields(r), q).toContain(field);
    }
    expect((await w.api('GET', `/schedules/${s.id}/on-call?at=2099-12-31T00:00:00Z`)).status).toBe(200);
    await w.api('DELETE', `/schedules/${s.id}`);
  });

  it('keeps roles: viewers read, members edit and override only themselves, admins override anyone', async () => {
    const asViewer = w.as(viewer.key);
    const asAna = w.as(ana.key);
    expect((await asViewer('POST', '/schedules', { json: daily('V') })).status).toBe(403);
    const s = (await asAna('POST', '/schedules', { json: daily('Roles') })).body;
    expect((await asViewer('GET', `/schedules/${s.id}`)).status).toBe(200);
    expect((await asViewer('GET', `/schedules/${s.id}/on-call`)).status).toBe(200);
    expect((await asViewer('PATCH', `/schedules/${s.id}`, { json: { name: 'V' } })).status).toBe(403);
    expect((await asViewer('DELETE', `/schedules/${s.id}`)).status).toBe(403);
    const span = { starts_at: '2026-06-02T00:00:00Z', ends_at: '2026-06-02T06:00:00Z' };
    expect(
      (await asViewer('POST', `/schedules/${s.id}/overrides`, { json: { user_id: viewer.user.id, ...span } }))
        .status,
    ).toBe(403);
    expect(
      (await asAna('POST', `/schedules/${s.id}/overrides`, { json: { user_id: bob.user.id, ...span } }))
        .status,
    ).toBe(403);
    const mine = await asAna('POST', `/schedules/${s.id}/overrides`, {
      json: { user_id: ana.user.id, ...span },
    });
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({
      user: { id: ana.user.id, email: 'ana@sched-a.test' },
      created_by: { id: ana.user.id },
    });
    const forBob = await w.api('POST', `/schedules/${s.id}/overrides`, {
      json: { user_id: bob.user.id, starts_at: '2026-06-03T00:00:00Z', ends_at: '2026-06-03T06:00:00Z' },
    });
    expect(forBob.status).toBe(201);
    // Ana neither made Bob's override nor is its user; Bob is its user.
    expect((await asAna('DELETE', `/schedules/${s.id}/overrides/${forBob.body.id}`)).status).toBe(403);
    expect((await w.as(bob.key)('DELETE', `/schedules/${s.id}/overrides/${forBob.body.id}`)).status).toBe(
      204,
    );
    expect((await other.api('DELETE', `/schedules/${s.id}/overrides/${mine.body.id}`)).status).toBe(404);
    expect((await asAna('DELETE', `/schedules/${s.id}/overrides/${mine.body.id}`)).status).toBe(204);
    await w.api('DELETE', `/schedules/${s.id}`);
  });

  it('answers who is on call, until when and who is next, and the shifts, at the injected clock', async () => {
    h.clock.set('2026-06-01T12:00:00Z');
    const s = (await w.api('POST', '/schedules', { json: daily('Clocked') })).body;
    // 2026-06-01T12:00Z is 14:00 in Berlin: Ana's first shift, to 09:00 Tuesday (07:00Z).
    const now = await w.api('GET', `/schedules/${s.id}/on-call`);
    expect(now.body).toEqual({
      user: { id: ana.user.id, email: 'ana@sched-a.test' },
      until: '2026-06-02T07:00:00.000Z',
      next: { user: { id: bob.user.id, email: 'bob@sched-a.test' }, starts_at: '2026-06-02T07:00:00.000Z' },
      source: { kind: 'layer', layer: 1, layer_name: 'Layer 1' },
    });
    const later = await w.api(
      'GET',
      `/schedules/${s.id}/on-call?at=${encodeURIComponent('2026-06-02T10:00:00+02:00')}`,
    );
    expect(later.body.user.id).toBe(bob.user.id);
    // An override across Tuesday's handoff: Bob from 06:00Z to 09:00Z.
    await w.api('POST', `/schedules/${s.id}/overrides`, {
      json: { user_id: bob.user.id, starts_at: '2026-06-02T06:00:00Z', ends_at: '2026-06-02T09:00:00Z' },
    });
    const shifts = await w.api(
      'GET',
      `/schedules/${s.id}/shifts?from=2026-06-01T12:00:00Z&to=2026-06-03T12:00:00Z`,
    );
    expect(
      shifts.body.data.map(
        (x: { user: { email: string }; starts_at: string; ends_at: string; source: { kind: string } }) => [
          x.user.email,
          x.starts_at,
          x.ends_at,
          x.source.kind,
        ],
      ),
    ).toEqual([
      ['ana@sched-a.test', '2026-06-01T12:00:00.000Z', '2026-06-02T06:00:00.000Z', 'layer'],
      ['bob@sched-a.test', '2026-06-02T06:00:00.000Z', '2026-06-03T07:00:00.000Z', 'override'],
      ['ana@sched-a.test', '2026-06-03T07:00:00.000Z', '2026-06-03T12:00:00.000Z', 'layer'],
    ]);
    expect(shifts.body.data[1].source.created_by).toEqual({ id: w.admin.id, email: w.admin.email });
    // Default window: now to 14 days on.
    const def = await w.api('GET', `/schedules/${s.id}/shifts`);
    expect(def.body.data[0].starts_at).toBe('2026-06-01T12:00:00.000Z');
    expect(def.body.data.at(-1).ends_at).toBe('2026-06-15T12:00:00.000Z');
    const mine = await w.as(bob.key)('GET', '/me/shifts?days=2');
    expect(mine.body.data.filter((x: { schedule: { id: string } }) => x.schedule.id === s.id)).toEqual([
      {
        schedule: { id: s.id, name: 'Clocked' },
        starts_at: '2026-06-02T06:00:00.000Z',
        ends_at: '2026-06-03T07:00:00.000Z',
        source: expect.objectContaining({ kind: 'override' }),
      },
    ]);
    const preview = await w.api('POST', '/schedules/preview', { json: { ...daily('P'), schedule_id: s.id } });
    expect(preview.status).toBe(200);
    expect(preview.body.data[1]).toMatchObject({ user: { id: bob.user.id }, source: { kind: 'override' } });
    expect(preview.body.gaps).toEqual([]);
    const bad = await w.api('POST', '/schedules/preview', {
      json: { ...daily('P'), schedule_id: other.admin.id },
    });
    expect(fields(bad)).toEqual(['schedule_id']);
    await w.api('DELETE', `/schedules/${s.id}`);
  });

  it('trades shifts: offer, take once, assign, withdraw, all in the history', async () => {
    h.clock.set('2026-06-01T12:00:00Z');
    const s = (await w.api('POST', '/schedules', { json: daily('Trades') })).body;
    const tick = () => h.clock.advance(1000);
    tick();
    const asAna = w.as(ana.key);
    const asBob = w.as(bob.key);
    // Bob is on call Tuesday 07:00Z to Wednesday 07:00Z, not Ana.
    const notMine = await asAna('POST', `/schedules/${s.id}/offers`, {
      json: { starts_at: '2026-06-02T08:00:00Z', ends_at: '2026-06-02T10:00:00Z' },
    });
    expect(fields(notMine)).toEqual(['starts_at']);
    const offer = await asBob('POST', `/schedules/${s.id}/offers`, {
      json: { starts_at: '2026-06-02T08:00:00Z', ends_at: '2026-06-02T10:00:00Z', note: 'dentist' },
    });
    expect(offer.status).toBe(201);
    tick();
    expect(offer.body).toMatchObject({
      status: 'open',
      user: { email: 'bob@sched-a.test' },
      note: 'dentist',
    });
    expect((await asBob('POST', `/schedules/${s.id}/offers/${offer.body.id}/take`)).status).toBe(409);
    expect((await w.as(viewer.key)('POST', `/schedules/${s.id}/offers/${offer.body.id}/take`)).status).toBe(
      403,
    );
    const taken = await asAna('POST', `/schedules/${s.id}/offers/${offer.body.id}/take`);
    expect(taken.status).toBe(200);
    tick();
    expect(taken.body).toMatchObject({ status: 'taken', taken_by: { id: ana.user.id } });
    expect((await w.api('POST', `/schedules/${s.id}/offers/${offer.body.id}/take`)).status).toBe(409);
    const at = await w.api('GET', `/schedules/${s.id}/on-call?at=2026-06-02T09:00:00Z`);
    expect(at.body).toMatchObject({
      user: { id: ana.user.id },
      source: { kind: 'override', override_id: taken.body.override_id },
    });

    const second = await asBob('POST', `/schedules/${s.id}/offers`, {
      json: { starts_at: '2026-06-02T12:00:00Z', ends_at: '2026-06-02T13:00:00Z' },
    });
    expect(
      (
        await asAna('POST', `/schedules/${s.id}/offers/${second.body.id}/assign`, {
          json: { user_id: ana.user.id },
        })
      ).status,
    ).toBe(403);
    expect(
      fields(
        await w.api('POST', `/schedules/${s.id}/offers/${second.body.id}/assign`, {
          json: { user_id: bob.user.id },
        }),
      ),
    ).toEqual(['user_id']);
    tick();
    const assigned = await w.api('POST', `/schedules/${s.id}/offers/${second.body.id}/assign`, {
      json: { user_id: w.admin.id },
    });
    expect(assigned.body).toMatchObject({ status: 'assigned', taken_by: { id: w.admin.id } });
    tick();

    const third = await asBob('POST', `/schedules/${s.id}/offers`, {
      json: { starts_at: '2026-06-02T14:00:00Z', ends_at: '2026-06-02T15:00:00Z' },
    });
    tick();
    expect((await asAna('DELETE', `/schedules/${s.id}/offers/${third.body.id}`)).status).toBe(403);
    const withdrawn = await asBob('DELETE', `/schedules/${s.id}/offers/${third.body.id}`);
    expect(withdrawn.body.status).toBe('withdrawn');
    expect((await w.api('GET', `/schedules/${s.id}/offers?status=open`)).body.data).toEqual([]);
    expect((await w.api('GET', `/schedules/${s.id}/offers`)).body.data).toHaveLength(3);

    const history = await w.api('GET', `/schedules/${s.id}/history?limit=100`);
    expect(history.body.data.map((e: { action: string }) => e.action)).toEqual([
      'offer_withdrawn',
      'shift_offered',
      'shift_assigned',
      'shift_offered',
      'shift_taken',
      'shift_offered',
      'created',
    ]);
    expect(history.body.data[4]).toMatchObject({ actor: { id: ana.user.id, email: 'ana@sched-a.test' } });
    expect(history.body.data[4].detail).toMatch(/ana@sched-a\.test took the shift bob@sched-a\.test offered/);
    await w.api('DELETE', `/schedules/${s.id}`);
  });

  it('takes a removed user out of the rotation in the removal’s own step, and the answer names the layer left empty', async () => {
    h.clock.set('2026-06-01T12:00:00Z');
    const carl = await w.userWithKey('member', 'carl@sched-a.test');
    const made = await w.api('POST', '/schedules', {
      json: {
        name: 'Leavers',
        timezone: 'Europe/Berlin',
        layers: [
          daily('x', [ana.user.id, carl.user.id, bob.user.id]).layers[0],
          {
            ...daily('x', [carl.user.id]).layers[0],
            name: 'Nights',
            restrictions: [
              { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start: '22:00', end: '06:00' },
            ],
          },
        ],
      },
    });
    const s = made.body;
    await w.as(carl.key)('POST', `/schedules/${s.id}/overrides`, {
      json: { user_id: carl.user.id, starts_at: '2026-06-05T00:00:00Z', ends_at: '2026-06-05T06:00:00Z' },
    });
    h.clock.advance(86_400_000); // Tuesday 12:00Z: Carl's turn in layer 1.
    expect((await w.api('GET', `/schedules/${s.id}/on-call`)).body.user.id).toBe(carl.user.id);
    const removed = await w.api('DELETE', `/users/${carl.user.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.schedules).toEqual([{ id: s.id, name: 'Leavers', empty_layers: [2] }]);
    const after = await w.api('GET', `/schedules/${s.id}`);
    expect(after.body.layers.map((l: { users: string[] }) => l.users.length)).toEqual([2, 0]);
    // The next in turn takes over at once; no gap in layer 1.
    expect((await w.api('GET', `/schedules/${s.id}/on-call`)).body.user.id).toBe(bob.user.id);
    expect((await w.api('GET', `/schedules/${s.id}/overrides`)).body.data).toEqual([]);
    const history = await w.api('GET', `/schedules/${s.id}/history`);
    expect(history.body.data[0]).toMatchObject({ action: 'user_removed', actor: null });
    expect(history.body.data[0].detail).toMatch(
      /carl@sched-a\.test left the workspace: taken out of layers 1, 2 \(layer 2 now covers nobody\)/,
    );
    await w.api('DELETE', `/schedules/${s.id}`);
  });

  it('shows gaps of the next 14 days', async () => {
    h.clock.set('2026-06-01T12:00:00Z');
    const s = await w.api('POST', '/schedules', {
      json: {
        ...daily('Gappy'),
        layers: [
          { ...daily('x').layers[0], restrictions: [{ days: ['mon'], start: '09:00', end: '17:00' }] },
        ],
      },
    });
    expect(s.body.gaps[0]).toEqual({
      starts_at: '2026-06-01T15:00:00.000Z',
      ends_at: '2026-06-08T07:00:00.000Z',
    });
    await w.api('DELETE', `/schedules/${s.body.id}`);
  });
});
