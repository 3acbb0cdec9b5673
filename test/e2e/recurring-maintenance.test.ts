import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlert } from '../../control-plane/src/domain/alerts/alerts.js';
import { checkHeartbeatDeadlines } from '../../control-plane/src/domain/heartbeats/heartbeat-deadlines.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * Recurring maintenance windows (README.md, "Maintenance windows"): `schedule` + `timezone` +
 * `duration_seconds` instead of `starts_at`/`ends_at`, through the API, with the harness's clock.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Ws = Awaited<ReturnType<Harness['workspace']>>;

const monitor = async (w: Ws, name: string, extra: Record<string, unknown> = {}) => {
  const r = await w.api('POST', '/monitors/create', {
    json: {
      display_name: name,
      monitor_type: 'http',
      url: `https://${name}.example.test/`,
      http_method: 'GET',
      expected_status_code: 200,
      ...extra,
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
};

const raise = (w: Ws, monitorId: string, key: string) =>
  raiseAlert(
    h.store,
    {
      workspace_id: w.workspace.id,
      source_type: 'monitor',
      source_id: monitorId,
      cause: 'down',
      dedup_key: key,
      title: key,
      escalation_policy_id: null,
    },
    h.clock.now(),
  ).then((r) => ({ ...r.alert, suppressed_by: r.alert.escalation?.suppressed_by ?? null }));

/** A default policy whose first step waits an hour: alerts get an escalation, nothing is sent here. */
const policy = async (w: Ws) => {
  const ch = await w.api('POST', '/channels', {
    json: { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.test/x' } },
  });
  const r = await w.api('POST', '/escalation-policies', {
    json: { name: 'p', steps: [{ wait_minutes: 60, notify_channel_ids: [ch.body.id] }], is_default: true },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
};

const fields = (r: { body: { error: { details: { field: string }[] } } }) =>
  r.body.error.details.map((d) => d.field).sort();

describe('recurring maintenance windows', () => {
  it('every Sunday 02:00–04:00 Berlin: created, shown with its next occurrence, suppressing alerts only then', async () => {
    h.clock.set('2026-06-10T12:00:00Z'); // a Wednesday
    const w = await h.workspace('rmw');
    await policy(w);
    const viewer = await w.userWithKey('viewer');
    const mon = await monitor(w, 'db');
    const body = {
      name: 'Sunday backups',
      scope_type: 'monitor',
      scope_id: mon,
      schedule: '0 2 * * 0',
      timezone: 'Europe/Berlin',
      duration_seconds: 7200,
    };
    expect((await w.as(viewer.key)('POST', '/maintenance-windows', { json: body })).status).toBe(403);
    const win = await w.api('POST', '/maintenance-windows', { json: body });
    expect(win.status, JSON.stringify(win.body)).toBe(201);
    expect(win.body).toMatchObject({
      schedule: '0 2 * * 0',
      timezone: 'Europe/Berlin',
      duration_seconds: 7200,
      starts_at: null,
      ends_at: null,
      active: false,
      schedule_text: 'At 02:00, only on Sunday, Europe/Berlin, for 2 hours',
      // Sunday 14 June, 02:00 in Berlin (CEST) is 00:00 UTC.
      next_occurrence: { starts_at: '2026-06-14T00:00:00.000Z', ends_at: '2026-06-14T02:00:00.000Z' },
    });

    // Saturday night: not yet; Sunday 03:00 local: suppressed; Sunday 04:00 local: escalated again.
    const sat = await raise(w, mon, 'sat');
    expect(sat.suppressed_by).toBeNull();
    h.clock.set('2026-06-14T01:00:00Z');
    expect((await w.api('GET', `/maintenance-windows/${win.body.id}`)).body.active).toBe(true);
    const sun = await raise(w, mon, 'sun');
    expect(sun.suppressed_by).toEqual({ window_id: win.body.id, name: 'Sunday backups' });
    const other = await raise(w, await monitor(w, 'web'), 'other');
    expect(other.suppressed_by).toBeNull();
    h.clock.set('2026-06-14T02:00:00Z');
    expect((await raise(w, mon, 'after')).suppressed_by).toBeNull();
    const listed = (await w.as(viewer.key)('GET', '/maintenance-windows')).body.data[0];
    expect(listed.next_occurrence.starts_at).toBe('2026-06-21T00:00:00.000Z');

    // Edits keep the form: a new schedule is taken, one-off times are refused; it cannot be "ended".
    const path = `/maintenance-windows/${win.body.id}`;
    const moved = await w.api('PATCH', path, { json: { schedule: '30 1 * * 6', duration_seconds: 3600 } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.next_occurrence.starts_at).toBe('2026-06-19T23:30:00.000Z');
    const wrongForm = await w.api('PATCH', path, {
      json: { ends_at: '2026-07-01T00:00:00Z', timezone: 'Mars/Base' },
    });
    expect(wrongForm.status).toBe(422);
    expect(fields(wrongForm)).toEqual(['ends_at', 'timezone']);
    expect((await w.api('POST', `${path}/end`)).status).toBe(409);
    expect((await w.api('DELETE', path)).status).toBe(204);
  });

  it('one 422 names every bad field: bad cron, unknown zone, missing duration, both forms, bad scopes', async () => {
    h.clock.set('2026-06-10T12:00:00Z');
    const w = await h.workspace('rmw-bad');
    const other = await h.workspace('rmw-bad-other');
    const foreign = await monitor(other, 'theirs');
    const post = (json: Record<string, unknown>) => w.api('POST', '/maintenance-windows', { json });
    const bad = await post({
      name: 'x',
      scope_type: 'tag',
      scope_id: 'Not A Tag',
      schedule: '61 * * *',
      timezone: 'Europe/Nowhere',
      starts_at: '2026-06-11T00:00:00Z',
    });
    expect(bad.status).toBe(422);
    expect(fields(bad)).toEqual(['duration_seconds', 'schedule', 'scope_id', 'starts_at', 'timezone']);
    const bad2 = await post({
      name: 'x',
      scope_type: 'monitor',
      scope_id: foreign,
      schedule: '*/5 * * * *',
      duration_seconds: 600,
    });
    expect(bad2.body.error.details).toEqual([
      { field: 'scope_id', message: 'no monitor with this id in the workspace' },
      {
        field: 'duration_seconds',
        message: 'must be at most 300, the shortest time between two occurrences of the schedule',
      },
    ]);
    const bad3 = await post({
      name: 'x',
      scope_type: 'group',
      scope_id: crypto.randomUUID(),
      schedule: '0 2 * * *',
      duration_seconds: 8 * 86_400,
    });
    expect(bad3.body.error.details).toEqual([
      { field: 'scope_id', message: 'no group with this id in the workspace' },
      { field: 'duration_seconds', message: 'must be at most 604800 (7 days)' },
    ]);
    // Another workspace's group is not one of ours.
    const theirGroup = (await other.api('POST', '/groups', { json: { name: 'theirs' } })).body.id;
    const foreignGroup = await post({
      name: 'x',
      scope_type: 'group',
      scope_id: theirGroup,
      schedule: '@daily',
      duration_seconds: 60,
    });
    expect(foreignGroup.body.error.details).toEqual([
      { field: 'scope_id', message: 'no group with this id in the workspace' },
    ]);
    // A field of the wrong shape does not hide the rules on the others.
    const mixed = await post({
      name: '',
      scope_type: 'tag',
      scope_id: 'Bad Tag',
      schedule: 'nope',
      timezone: 'Mars/Base',
      starts_at: 'tomorrow',
      extra: 1,
    });
    expect(fields(mixed)).toEqual([
      'duration_seconds',
      'extra',
      'name',
      'schedule',
      'scope_id',
      'starts_at',
      'timezone',
    ]);
    expect((await post([] as unknown as Record<string, unknown>)).body.error.details[0].field).toBe('body');
    const neither = await post({ name: 'x', scope_type: 'workspace' });
    expect(fields(neither)).toEqual(['ends_at', 'starts_at']);
    const zero = await post({ name: 'x', scope_type: 'workspace', schedule: '@daily', duration_seconds: 0 });
    expect(zero.body.error.details).toEqual([{ field: 'duration_seconds', message: 'must be positive' }]);
    // Nothing was written.
    expect((await w.api('GET', '/maintenance-windows')).body.data).toEqual([]);
    // A tag scope in the pinned form is taken, and the zone defaults to UTC.
    const ok = await post({
      name: 'x',
      scope_type: 'tag',
      scope_id: 'env:prod',
      schedule: '@daily',
      duration_seconds: 60,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toMatchObject({ scope_id: 'env:prod', timezone: 'UTC' });
  });

  it('a tag window covers a heartbeat carrying the tag: its missed run pages no one, its status page says maintenance', async () => {
    h.clock.set('2026-06-10T12:00:00Z');
    const w = await h.workspace('rmw-hb');
    await policy(w);
    const hb = await w.api('POST', '/heartbeats', {
      json: { display_name: 'backup', period_seconds: 3600, grace_seconds: 60, tags: ['job:backup'] },
    });
    expect(hb.status, JSON.stringify(hb.body)).toBe(201);
    const page = await w.api('POST', '/status-pages', {
      json: {
        name: 'Jobs',
        slug: 'jobs',
        visibility: 'public',
        components: [{ name: 'Backup', heartbeat_id: hb.body.id }],
      },
    });
    expect(page.status, JSON.stringify(page.body)).toBe(201);
    const win = await w.api('POST', '/maintenance-windows', {
      json: {
        name: 'backup night',
        scope_type: 'tag',
        scope_id: 'job:backup',
        schedule: '0 13 * * *',
        duration_seconds: 7200,
      },
    });
    expect(win.status, JSON.stringify(win.body)).toBe(201);
    expect((await h.request('POST', `/hb/ping/${hb.body.id}`)).status).toBe(200);
    // Due at 13:00 (+1 min grace); at 13:30 it is down, inside the window.
    h.clock.set('2026-06-10T13:30:00Z');
    await checkHeartbeatDeadlines(h.store, h.clock.now());
    const alerts = (await w.api('GET', `/alerts?source_id=${hb.body.id}`)).body.data;
    expect(alerts).toHaveLength(1);
    const alert = (await w.api('GET', `/alerts/${alerts[0].id}`)).body;
    expect(alert.escalation.suppressed_by).toEqual({ window_id: win.body.id, name: 'backup night' });
    const record = (await w.api('GET', `/status-pages/${page.body.id}`)).body;
    expect(record.components[0].status).toBe('under_maintenance');
    expect(record.maintenances[0]).toMatchObject({
      status: 'in_progress',
      component_ids: [record.components[0].id],
    });
  });

  it('a workspace holds at most 200 windows that have not ended; ended ones do not count', async () => {
    h.clock.set('2026-06-10T12:00:00Z');
    const w = await h.workspace('rmw-cap');
    const post = (name: string) =>
      w.api('POST', '/maintenance-windows', {
        json: { name, scope_type: 'workspace', schedule: '0 3 * * *', duration_seconds: 60 },
      });
    const ended = await w.api('POST', '/maintenance-windows', {
      json: {
        name: 'soon over',
        scope_type: 'workspace',
        starts_at: '2026-06-10T12:00:00Z',
        ends_at: '2026-06-10T12:01:00Z',
      },
    });
    expect(ended.status).toBe(201);
    for (let i = 0; i < 199; i++) expect((await post(`w${i}`)).status).toBe(201);
    const full = await post('one too many');
    expect(full.status).toBe(409);
    expect(full.body.error.message).toContain('200');
    // Once the one-off window has ended, there is room again.
    h.clock.set('2026-06-10T12:02:00Z');
    expect((await post('room again')).status).toBe(201);
  });

  it('a status page shows the next occurrence of a recurring window over its components', async () => {
    h.clock.set('2026-06-10T12:00:00Z');
    const w = await h.workspace('rmw-page');
    const mon = await monitor(w, 'api');
    const page = await w.api('POST', '/status-pages', {
      json: {
        name: 'Acme',
        slug: 'acme',
        visibility: 'public',
        components: [{ name: 'API', monitor_id: mon }],
      },
    });
    expect(page.status, JSON.stringify(page.body)).toBe(201);
    await w.api('POST', '/maintenance-windows', {
      json: {
        name: 'Sunday backups',
        scope_type: 'workspace',
        schedule: '0 2 * * 0',
        timezone: 'Europe/Berlin',
        duration_seconds: 7200,
      },
    });
    const record = (await w.api('GET', `/status-pages/${page.body.id}`)).body;
    expect(record.maintenances).toEqual([
      {
        id: expect.any(String),
        name: 'Sunday backups',
        status: 'scheduled',
        starts_at: '2026-06-14T00:00:00.000Z',
        ends_at: '2026-06-14T02:00:00.000Z',
        recurrence: 'At 02:00, only on Sunday, Europe/Berlin, for 2 hours',
        component_ids: [record.components[0].id],
      },
    ]);
    const get = (path: string) => h.request('GET', path, { host: w.host }).then((r) => r.text);
    const html = await get('/status/acme');
    expect(html).toContain('Scheduled maintenance: At 02:00, only on Sunday, Europe/Berlin, for 2 hours');
    expect(html).toContain('Next on');
    expect(html).toContain('datetime="2026-06-14T00:00:00.000Z"');
    const summary = JSON.parse(await get('/status/acme/api/v2/summary.json'));
    expect(summary.scheduled_maintenances).toMatchObject([
      {
        name: 'Sunday backups',
        status: 'scheduled',
        scheduled_for: '2026-06-14T00:00:00.000Z',
        scheduled_until: '2026-06-14T02:00:00.000Z',
        incident_updates: [
          { body: 'Scheduled maintenance: At 02:00, only on Sunday, Europe/Berlin, for 2 hours' },
        ],
      },
    ]);
  });
});
