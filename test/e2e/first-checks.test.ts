import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * Which API calls ask for a monitor's first check at once (run requests with reason `first` in the
 * monitor feed every replica follows, one per location that runs it), how many a batch may ask for,
 * and the retry interval's rules, through the real HTTP API.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ plans: { big: { max_monitors: 1000, min_interval_seconds: 10 } } });
});
afterAll(() => h.close());

type Api = Awaited<ReturnType<Harness['workspace']>>['api'];
const tcp = (i: number, extra: Record<string, unknown> = {}) => ({
  display_name: `db ${i}`,
  monitor_type: 'tcp',
  url: `db${i}.example.com`,
  port: 5432,
  ...extra,
});

/** The first-check run requests appended to the feed since `after`, as [monitor, location]. */
const firstRunsSince = async (after: number) =>
  (await h.store.listMonitorChanges(after, 100_000))
    .filter((c) => c.kind === 'run' && c.reason === 'first')
    .map((c) => [c.monitor_id, c.location]);

const create = async (api: Api, body: Record<string, unknown>) => {
  const r = await api('POST', '/monitors/create', { json: body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; retry_interval_seconds: number };
};

describe('the first check at once', () => {
  it('a create asks every location that runs the monitor; a paused one asks none', async () => {
    const w = await h.workspace('first-create', 'big');
    const before = await h.store.latestMonitorChange();
    const m = await create(w.api, tcp(1));
    const paused = await create(w.api, tcp(2, { paused: true }));
    expect(await firstRunsSince(before)).toEqual([
      [m.id, 'eu-west'],
      [m.id, 'us-east'],
    ]);
    expect(paused.id).not.toBe(m.id);
  });

  it('an edit of what is checked or where asks again, a rename or a new threshold does not; a resume does', async () => {
    const w = await h.workspace('first-edit', 'big');
    const m = await create(w.api, tcp(1, { check_locations: ['eu-west'] }));
    let before = await h.store.latestMonitorChange();
    const patch = async (json: unknown) => {
      const r = await w.api('PATCH', `/monitors/${m.id}`, { json });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    await patch({ display_name: 'renamed', failure_threshold: 5, retry_interval_seconds: 20 });
    expect(await firstRunsSince(before)).toEqual([]);
    await patch({ port: 6432 });
    expect(await firstRunsSince(before)).toEqual([[m.id, 'eu-west']]);
    before = await h.store.latestMonitorChange();
    await patch({ check_locations: ['eu-west', 'us-east'] });
    expect(await firstRunsSince(before)).toEqual([
      [m.id, 'eu-west'],
      [m.id, 'us-east'],
    ]);
    before = await h.store.latestMonitorChange();
    expect((await w.api('POST', `/monitors/${m.id}/pause`)).status).toBe(200);
    await patch({ port: 7432 }); // paused: nothing runs
    expect(await firstRunsSince(before)).toEqual([]);
    expect((await w.api('POST', `/monitors/${m.id}/resume`)).status).toBe(200);
    expect(await firstRunsSince(before)).toEqual([
      [m.id, 'eu-west'],
      [m.id, 'us-east'],
    ]);
    // Paused and resumed by PATCH: the same.
    await patch({ paused: true });
    before = await h.store.latestMonitorChange();
    await patch({ paused: false });
    expect(await firstRunsSince(before)).toEqual([
      [m.id, 'eu-west'],
      [m.id, 'us-east'],
    ]);
  });

  it('a batch asks for at most 100 monitors (the first ones); the rest start at their slots', async () => {
    const w = await h.workspace('first-batch', 'big');
    const before = await h.store.latestMonitorChange();
    const monitors = Array.from({ length: 250 }, (_, i) => tcp(i, { check_locations: ['eu-west'] }));
    const r = await w.api('POST', '/monitors/batch', { json: { monitors } });
    expect(r.status).toBe(201);
    const ids = (r.body.data as { id: string }[]).map((m) => m.id);
    expect(await firstRunsSince(before)).toEqual(ids.slice(0, 100).map((id) => [id, 'eu-west']));
  });
});

describe('retry_interval_seconds', () => {
  it('defaults to 15 s, or to the interval when that is shorter', async () => {
    const w = await h.workspace('retry-default', 'big');
    expect((await create(w.api, tcp(1))).retry_interval_seconds).toBe(15);
    expect((await create(w.api, tcp(2, { check_interval_seconds: 10 }))).retry_interval_seconds).toBe(10);
    const shown = await w.api('GET', '/monitors?limit=10');
    expect(
      shown.body.data.map((m: { retry_interval_seconds: number }) => m.retry_interval_seconds).sort(),
    ).toEqual([10, 15]);
  });

  it('refuses one below 5 s, one longer than the interval, or not a whole number, naming the field', async () => {
    const w = await h.workspace('retry-bad', 'big');
    for (const [value, message] of [
      [4, /5/],
      [61, /check_interval_seconds/],
      [12.5, /integer/],
      ['15', /number/],
    ] as const) {
      const r = await w.api('POST', '/monitors/create', {
        json: tcp(1, { check_interval_seconds: 60, retry_interval_seconds: value }),
      });
      expect(r.status, String(value)).toBe(422);
      expect(r.body.error.details).toEqual([
        { field: 'retry_interval_seconds', message: expect.stringMatching(message) },
      ]);
    }
    // Domain checks do not retry: the field is refused for them, like other fields of other types.
    const domain = await w.api('POST', '/monitors/create', {
      json: { display_name: 'd', monitor_type: 'domain', url: 'example.com', retry_interval_seconds: 30 },
    });
    expect(domain.body.error.details).toEqual([
      {
        field: 'retry_interval_seconds',
        message:
          'applies only to http, api, dns, tcp, ping, grpc, websocket, smtp, postgres, mysql, redis, multistep and browser monitors, not domain',
      },
    ]);
    const m = await create(w.api, tcp(2, { retry_interval_seconds: 30 }));
    const bad = await w.api('PATCH', `/monitors/${m.id}`, {
      json: { check_interval_seconds: 20, timeout_seconds: 10, retry_interval_seconds: 25 },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(['retry_interval_seconds']);
    expect(
      (
        await w.api('POST', '/monitors/batch', {
          json: { monitors: [tcp(3), tcp(4, { retry_interval_seconds: 1 })] },
        })
      ).body.error.details,
    ).toEqual([{ field: 'monitors[1].retry_interval_seconds', message: expect.any(String) }]);
  });

  it('a shorter interval takes it down with it unless the patch sets it', async () => {
    const w = await h.workspace('retry-follow', 'big');
    const m = await create(w.api, tcp(1, { retry_interval_seconds: 30 }));
    const r = await w.api('PATCH', `/monitors/${m.id}`, {
      json: { check_interval_seconds: 20, timeout_seconds: 10 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ check_interval_seconds: 20, retry_interval_seconds: 20 });
    const back = await w.api('PATCH', `/monitors/${m.id}`, { json: { check_interval_seconds: 120 } });
    expect(back.body).toMatchObject({ check_interval_seconds: 120, retry_interval_seconds: 20 });
  });

  it('is in the OpenAPI document, on the create body and the monitor record', async () => {
    const doc = (await h.request('GET', '/api/v1/openapi.json')).body;
    const text = JSON.stringify(doc);
    const create = doc.paths['/monitors/create'].post.requestBody.content['application/json'].schema;
    expect(JSON.stringify(create)).toContain('retry_interval_seconds');
    expect(text.match(/retry_interval_seconds/g)!.length).toBeGreaterThanOrEqual(3);
  });
});
