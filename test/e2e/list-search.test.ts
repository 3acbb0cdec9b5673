import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * `q` on `GET /monitors` (name or target) and `GET /heartbeats` (name or slug), README.md "API
 * conventions": what the web app's pickers search the whole set with, past the first page of 100.
 */

let h: Harness;
let w: Awaited<ReturnType<Harness['workspace']>>;
const MONITORS = 150;
const HEARTBEATS = 120;
const pad = (i: number) => String(i).padStart(3, '0');

beforeAll(async () => {
  h = await startHarness();
  w = await h.workspace('list-search', 'business');
  const monitors = Array.from({ length: MONITORS }, (_, i) => ({
    display_name: `Service ${pad(i + 1)}`,
    monitor_type: 'http',
    http_method: 'GET',
    expected_status_code: 200,
    url: `https://host-${pad(i + 1)}.example.test/health`,
  }));
  const made = await w.api('POST', '/monitors/batch', { json: { monitors } });
  expect(made.status, JSON.stringify(made.body).slice(0, 500)).toBe(201);
  for (let i = 0; i < HEARTBEATS; i++) {
    h.clock.advance(1);
    const r = await w.api('POST', '/heartbeats', {
      json: { display_name: `Job ${pad(i + 1)}`, ...(i % 2 ? { slug: `task-${pad(i + 1)}` } : {}) },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
}, 120_000);
afterAll(() => h.close());

const names = (r: { body: { data: { display_name: string }[] } }) => r.body.data.map((x) => x.display_name);

describe('q on lists', () => {
  it('monitors: the first page of 100 lacks monitor 101; q finds it by name and by target, case-insensitively', async () => {
    const first = await w.api('GET', '/monitors?limit=100');
    expect(first.body.data).toHaveLength(100);
    expect(first.body.next_cursor).not.toBeNull();
    expect(names(await w.api('GET', '/monitors?q=service%20101'))).toEqual(['Service 101']);
    expect(names(await w.api('GET', '/monitors?q=HOST-149.example'))).toEqual(['Service 149']);
    expect(names(await w.api('GET', '/monitors?q=Service%2014')).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `Service 14${i}`),
    );
    // paged through the matches with the same cursor as any list
    const a = await w.api('GET', '/monitors?q=service%2014&limit=6');
    expect(a.body.data).toHaveLength(6);
    const b = await w.api(
      'GET',
      `/monitors?q=service%2014&limit=6&cursor=${encodeURIComponent(a.body.next_cursor)}`,
    );
    expect(b.body.data).toHaveLength(4);
    expect(b.body.next_cursor).toBeNull();
    expect(await w.api('GET', '/monitors?q=.*')).toMatchObject({ status: 200, body: { data: [] } });
  });

  it('heartbeats: q finds by name or slug, paged', async () => {
    expect(names(await w.api('GET', '/heartbeats?q=job%20117'))).toEqual(['Job 117']);
    expect(names(await w.api('GET', '/heartbeats?q=TASK-11'))).toEqual([
      'Job 118',
      'Job 116',
      'Job 114',
      'Job 112',
      'Job 110',
    ]);
    const a = await w.api('GET', '/heartbeats?q=job%2011&limit=7');
    const b = await w.api(
      'GET',
      `/heartbeats?q=job%2011&limit=7&cursor=${encodeURIComponent(a.body.next_cursor)}`,
    );
    expect([...names(a), ...names(b)].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `Job 11${i}`));
  });

  it('bad q: 422 naming it; the API document describes q on both lists', async () => {
    const long = 'x'.repeat(201);
    for (const path of ['/monitors', '/heartbeats']) {
      for (const q of ['', long]) {
        const r = await w.api('GET', `${path}?q=${q}`);
        expect(r.status, `${path} ${q.length}`).toBe(422);
        expect(r.body.error.details.map((d: { field: string }) => d.field)).toEqual(['q']);
      }
    }
    const doc = (await h.request('GET', '/api/v1/openapi.json', { host: w.host })).body;
    for (const path of ['/monitors', '/heartbeats']) {
      const q = doc.paths[path].get.parameters.find((p: { name: string }) => p.name === 'q');
      expect(q, path).toMatchObject({ in: 'query', schema: { type: 'string', maxLength: 200 } });
      expect(q.description ?? q.schema.description).toMatch(/name/);
    }
  });
});
