import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * Groups (`/api/v1/groups`) and the group, tags and severity of monitors and heartbeats, through the
 * real API (docs/decisions.md, "Groups and tags").
 */

let h: Harness;
let w: Awaited<ReturnType<Harness['workspace']>>;
let other: Awaited<ReturnType<Harness['workspace']>>;

beforeAll(async () => {
  h = await startHarness();
  w = await h.workspace('groups-a', 'business');
  other = await h.workspace('groups-b', 'business');
}, 60_000);
afterAll(() => h.close());

const http = (name: string, more: Record<string, unknown> = {}) => ({
  display_name: name,
  monitor_type: 'http',
  http_method: 'GET',
  expected_status_code: 200,
  url: 'https://example.test/health',
  ...more,
});
const fields = (r: { body: { error?: { details?: { field: string }[] } } }) =>
  (r.body.error?.details ?? []).map((d) => d.field).sort();

describe('groups', () => {
  it('creates, reads, renames and lists; names are unique ignoring case; another workspace sees none', async () => {
    const made = await w.api('POST', '/groups', { json: { name: 'Edge routers' } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'Edge routers' });
    const id = made.body.id as string;
    expect((await w.api('GET', `/groups/${id}`)).body.name).toBe('Edge routers');

    const dup = await w.api('POST', '/groups', { json: { name: '  EDGE ROUTERS ' } });
    expect(dup.status).toBe(409);
    expect(fields(dup)).toEqual(['name']);

    const bad = await w.api('POST', '/groups', { json: { name: '\u200b', extra: 1 } });
    expect(bad.status).toBe(422);
    expect(fields(bad)).toEqual(['extra', 'name']);

    const renamed = await w.api('PATCH', `/groups/${id}`, { json: { name: 'Edge' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Edge');
    h.clock.advance(1000);
    await w.api('POST', '/groups', { json: { name: 'Core' } });
    expect((await w.api('PATCH', `/groups/${id}`, { json: { name: 'core' } })).status).toBe(409);

    const list = await w.api('GET', '/groups?limit=1');
    expect(list.body.data.map((g: { name: string }) => g.name)).toEqual(['Core']);
    const next = await w.api('GET', `/groups?limit=1&cursor=${encodeURIComponent(list.body.next_cursor)}`);
    expect(next.body.data.map((g: { name: string }) => g.name)).toEqual(['Edge']);
    expect((await w.api('GET', '/groups?q=EDG')).body.data.map((g: { name: string }) => g.name)).toEqual([
      'Edge',
    ]);

    // Another workspace: 404 on every route, nothing listed.
    for (const [method, json] of [
      ['GET', undefined],
      ['PATCH', { name: 'Mine' }],
      ['DELETE', undefined],
    ] as const)
      expect((await other.api(method, `/groups/${id}`, json ? { json } : {})).status).toBe(404);
    expect((await other.api('GET', '/groups')).body.data).toEqual([]);
    expect((await w.api('GET', '/groups/not-a-uuid')).status).toBe(404);
  });

  it('viewers read, members write', async () => {
    const viewer = await w.userWithKey('viewer');
    const member = await w.userWithKey('member');
    expect((await w.as(viewer.key)('GET', '/groups')).status).toBe(200);
    expect((await w.as(viewer.key)('POST', '/groups', { json: { name: 'V' } })).status).toBe(403);
    const made = await w.as(member.key)('POST', '/groups', { json: { name: 'By a member' } });
    expect(made.status).toBe(201);
    expect((await w.as(viewer.key)('DELETE', `/groups/${made.body.id}`)).status).toBe(403);
    expect((await w.as(member.key)('DELETE', `/groups/${made.body.id}`)).status).toBe(204);
  });
});

describe('group, tags and severity on monitors and heartbeats', () => {
  it('monitors take them on create, batch and edit, with one 422 naming every bad field', async () => {
    const g = (await w.api('POST', '/groups', { json: { name: 'Rack 1' } })).body.id as string;
    const theirs = (await other.api('POST', '/groups', { json: { name: 'Theirs' } })).body.id as string;

    const plain = await w.api('POST', '/monitors/create', { json: http('Plain') });
    expect(plain.body).toMatchObject({ group_id: null, tags: [], severity: 'critical' });

    const made = await w.api('POST', '/monitors/create', {
      json: http('Tagged', {
        group_id: g.toUpperCase(),
        tags: ['env:prod', 'db', 'env:prod'],
        severity: 'warning',
      }),
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ group_id: g, tags: ['env:prod', 'db'], severity: 'warning' });

    const bad = await w.api('POST', '/monitors/create', {
      json: http('Bad', {
        group_id: theirs,
        tags: ['ok', 'Env:Prod', 'a b', 'k:v:w', 'x'.repeat(64)],
        severity: 'loud',
      }),
    });
    expect(bad.status).toBe(422);
    expect(fields(bad)).toEqual(['severity', 'tags[1]', 'tags[2]', 'tags[3]', 'tags[4]']);
    // The group is checked once the body's shape is right: another workspace's group is "not found".
    const unknownGroup = await w.api('POST', '/monitors/create', { json: http('Bad', { group_id: theirs }) });
    expect(unknownGroup.status).toBe(422);
    expect(unknownGroup.body.error.details).toEqual([
      { field: 'group_id', message: 'no group with this id in the workspace' },
    ]);
    const tooMany = await w.api('POST', '/monitors/create', {
      json: http('Bad', { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }),
    });
    expect(fields(tooMany)).toEqual(['tags']);

    // Every item's group is checked (one read for the batch) and named by its place.
    const batch = await w.api('POST', '/monitors/batch', {
      json: {
        monitors: [
          http('B0', { group_id: g }),
          http('B1', { group_id: theirs }),
          http('B2', { group_id: theirs }),
        ],
      },
    });
    expect(batch.status).toBe(422);
    expect(fields(batch)).toEqual(['monitors[1].group_id', 'monitors[2].group_id']);
    const badTags = await w.api('POST', '/monitors/batch', {
      json: { monitors: [http('B0'), http('B2', { tags: ['BAD'] })] },
    });
    expect(fields(badTags)).toEqual(['monitors[1].tags[0]']);
    const okBatch = await w.api('POST', '/monitors/batch', {
      json: { monitors: [http('B0', { group_id: g, tags: ['team:web'] }), http('B1')] },
    });
    expect(okBatch.status).toBe(201);
    expect(okBatch.body.data[0]).toMatchObject({ group_id: g, tags: ['team:web'], severity: 'critical' });

    const id = made.body.id as string;
    const edited = await w.api('PATCH', `/monitors/${id}`, {
      json: { tags: ['env:staging'], group_id: null },
    });
    expect(edited.body).toMatchObject({ tags: ['env:staging'], group_id: null, severity: 'warning' });
    expect((await w.api('PATCH', `/monitors/${id}`, { json: { group_id: theirs } })).status).toBe(422);
    expect((await w.api('GET', `/monitors/${id}`)).body.group_id).toBeNull();
  });

  it('heartbeats take them too, and GET /heartbeats filters by tag and group', async () => {
    const g = (await w.api('POST', '/groups', { json: { name: 'Jobs' } })).body.id as string;
    const a = await w.api('POST', '/heartbeats', {
      json: { display_name: 'backup', group_id: g, tags: ['job:backup', 'nightly'], severity: 'warning' },
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ group_id: g, tags: ['job:backup', 'nightly'], severity: 'warning' });
    const b = await w.api('POST', '/heartbeats', { json: { display_name: 'report', tags: ['nightly'] } });
    expect(b.body).toMatchObject({ group_id: null, severity: 'critical' });
    const bad = await w.api('POST', '/heartbeats', {
      json: { display_name: 'x', tags: ['UPPER'], severity: 'meh' },
    });
    expect(fields(bad)).toEqual(['severity', 'tags[0]']);
    const names = async (q: string) =>
      (await w.api('GET', `/heartbeats?${q}`)).body.data
        .map((x: { display_name: string }) => x.display_name)
        .sort();
    expect(await names('tag=nightly')).toEqual(['backup', 'report']);
    expect(await names(`group_id=${g}`)).toEqual(['backup']);
    expect(await names('tag=nightly&group_id=none')).toEqual(['report']);
    expect((await w.api('GET', '/heartbeats?tag=Bad%20Tag')).status).toBe(422);
    expect((await w.api('GET', '/heartbeats?group_id=nope')).status).toBe(422);
    const edited = await w.api('PATCH', `/heartbeats/${b.body.id}`, { json: { group_id: g, tags: [] } });
    expect(edited.body).toMatchObject({ group_id: g, tags: [] });
    expect(await names(`group_id=${g}`)).toEqual(['backup', 'report']);
  });

  it('GET /monitors and a bulk action by filter take in only monitors with the tag and group', async () => {
    const ws = await h.workspace('groups-filter', 'business');
    const g = (await ws.api('POST', '/groups', { json: { name: 'Filtered' } })).body.id as string;
    const made = await ws.api('POST', '/monitors/batch', {
      json: {
        monitors: [
          http('tagged', { tags: ['env:prod'] }),
          http('grouped', { group_id: g, tags: ['env:prod'] }),
          http('neither'),
        ],
      },
    });
    expect(made.status).toBe(201);
    const names = async (q: string) => {
      const all: string[] = [];
      let cursor = '';
      do {
        const r = await ws.api(
          'GET',
          `/monitors?${q}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(r.status, r.text).toBe(200);
        all.push(...r.body.data.map((m: { display_name: string }) => m.display_name));
        cursor = r.body.next_cursor ?? '';
      } while (cursor);
      return all.sort();
    };
    expect(await names('tag=env:prod')).toEqual(['grouped', 'tagged']);
    expect(await names(`group_id=${g}`)).toEqual(['grouped']);
    expect(await names('group_id=none')).toEqual(['neither', 'tagged']);
    const paused = await ws.api('POST', '/monitors/bulk', {
      json: { filter: { tag: 'env:prod' }, action: 'pause' },
    });
    expect(paused.body).toEqual({ affected: 2 });
    expect(await names('paused=true')).toEqual(['grouped', 'tagged']);
    const deleted = await ws.api('POST', '/monitors/bulk', {
      json: { filter: { group_id: g }, action: 'delete' },
    });
    expect(deleted.body).toEqual({ affected: 1 });
    expect(await names('paused=false')).toEqual(['neither']);
  });

  it('deleting a group ungroups its monitors and heartbeats', async () => {
    const g = (await w.api('POST', '/groups', { json: { name: 'Doomed' } })).body.id as string;
    const m = await w.api('POST', '/monitors/create', { json: http('Member', { group_id: g }) });
    const hb = await w.api('POST', '/heartbeats', { json: { display_name: 'member job', group_id: g } });
    expect((await w.api('DELETE', `/groups/${g}`)).status).toBe(204);
    expect((await w.api('GET', `/groups/${g}`)).status).toBe(404);
    expect((await w.api('GET', `/monitors/${m.body.id}`)).body.group_id).toBeNull();
    expect((await w.api('GET', `/heartbeats/${hb.body.id}`)).body.group_id).toBeNull();
    expect((await w.api('DELETE', `/groups/${g}`)).status).toBe(404);
  });
});
