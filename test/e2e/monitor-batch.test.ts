import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

/** POST /monitors/batch: all or none, every bad item named by its place, the plan limit for the whole batch. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const tcp = (i: number) => ({
  display_name: `db ${i}`,
  monitor_type: 'tcp',
  url: `db${i}.example.com`,
  port: 5432,
  check_interval_seconds: 60,
});
const count = async (w: Awaited<ReturnType<Harness['workspace']>>) =>
  (await w.api('GET', '/monitors?limit=100')).body.data.length;

describe('POST /monitors/batch', () => {
  it('creates every monitor in one request and lists them in the order sent', async () => {
    const w = await h.workspace('batch-ok');
    const r = await w.api('POST', '/monitors/batch', { json: { monitors: [tcp(1), tcp(2), tcp(3)] } });
    expect(r.status).toBe(201);
    expect(r.body.data.map((m: { display_name: string }) => m.display_name)).toEqual([
      'db 1',
      'db 2',
      'db 3',
    ]);
    expect(r.body.data[0]).toMatchObject({
      port: 5432,
      status: 'pending',
      check_locations: ['eu-west', 'us-east'],
    });
    expect(r.body.warnings).toEqual([]);
    expect(await count(w)).toBe(3);
  });

  it('names every bad field of every item by its place and creates none', async () => {
    const w = await h.workspace('batch-bad');
    const r = await w.api('POST', '/monitors/batch', {
      json: {
        monitors: [
          tcp(1),
          { ...tcp(2), url: 'https://not-a-host/' },
          tcp(3),
          { ...tcp(4), port: 0, bogus: 1 },
          { ...tcp(5), check_locations: ['mars'] },
        ],
      },
    });
    expect(r.status).toBe(422);
    const fields = r.body.error.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['monitors[3].bogus', 'monitors[3].port']);
    // Shape errors come first (one 422 for all of them); the rules per item in the same way:
    const rules = await w.api('POST', '/monitors/batch', {
      json: {
        monitors: [
          tcp(1),
          { ...tcp(2), url: 'https://not-a-host/' },
          { ...tcp(5), check_locations: ['mars'] },
        ],
      },
    });
    expect(rules.status).toBe(422);
    expect(rules.body.error.details.map((d: { field: string }) => d.field)).toEqual([
      'monitors[1].url',
      'monitors[2].check_locations',
    ]);
    expect(await count(w)).toBe(0);
  });

  it('refuses a batch that does not fit under the plan limit as a whole (402), and the check says so first', async () => {
    const w = await h.workspace('batch-plan', 'free'); // 10 monitors
    const slow = (i: number) => ({ ...tcp(i), check_interval_seconds: 300 });
    expect(
      (await w.api('POST', '/monitors/batch', { json: { monitors: [1, 2, 3, 4].map(slow) } })).status,
    ).toBe(201);
    const seven = { monitors: [5, 6, 7, 8, 9, 10, 11].map(slow) };
    const checked = await w.api('POST', '/monitors/batch/check', { json: seven });
    expect(checked.status).toBe(402);
    const r = await w.api('POST', '/monitors/batch', { json: seven });
    expect(r.status).toBe(402);
    expect(r.body.error.message).toContain('this workspace has 4 and the batch adds 7');
    expect(await count(w)).toBe(4);
    const six = { monitors: [5, 6, 7, 8, 9, 10].map(slow) };
    expect((await w.api('POST', '/monitors/batch/check', { json: six })).body).toEqual({
      count: 6,
      warnings: [],
    });
    expect(await count(w)).toBe(4);
    expect((await w.api('POST', '/monitors/batch', { json: six })).status).toBe(201);
    expect(await count(w)).toBe(10);
  });

  it('names an unknown policy per item, says which intervals were raised, and bounds the batch size', async () => {
    const w = await h.workspace('batch-misc', 'free');
    const unknown = await w.api('POST', '/monitors/batch', {
      json: {
        monitors: [tcp(1), { ...tcp(2), escalation_policy_id: '00000000-0000-4000-8000-000000000000' }],
      },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details).toEqual([
      {
        field: 'monitors[1].escalation_policy_id',
        message: 'no escalation policy with this id in the workspace',
      },
    ]);
    const raised = await w.api('POST', '/monitors/batch', { json: { monitors: [tcp(1)] } });
    expect(raised.status).toBe(201);
    expect(raised.body.warnings[0].field).toBe('monitors[0].check_interval_seconds');
    expect(raised.body.data[0].check_interval_seconds).toBe(180);
    const many = await w.api('POST', '/monitors/batch', {
      json: { monitors: Array.from({ length: 1001 }, (_, i) => tcp(i)) },
    });
    expect(many.status).toBe(422);
    expect(many.body.error.details).toEqual([{ field: 'monitors', message: 'must have at most 1000 items' }]);
  });

  it('a viewer may not create monitors in a batch', async () => {
    const w = await h.workspace('batch-viewer');
    const viewer = await w.userWithKey('viewer');
    expect((await w.as(viewer.key)('POST', '/monitors/batch', { json: { monitors: [tcp(1)] } })).status).toBe(
      403,
    );
  });
});
