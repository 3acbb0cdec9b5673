import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '../../control-plane/src/domain/results/uptime.js';
import { type Harness, startHarness } from '../support/harness.js';
import { type HarnessAgent, registerAgent } from '../support/harness-agent.js';

/**
 * A result's `in_maintenance` (docs/decisions.md, "Maintenance in the rollups"): decided at ingestion
 * from the windows over the monitor, its group or one of its tags at the result's scheduled time,
 * counted in the daily rollups' maint_total, and never rewritten by a window made afterwards.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Ws = Awaited<ReturnType<Harness['workspace']>>;
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

let agent: Promise<HarnessAgent> | undefined;
/** One result of `monitorId` from eu-west, scheduled now, sent as an agent sends it: ReportResults. */
const report = async (monitorId: string, ok: boolean, responseTimeMs: number) => {
  agent ??= registerAgent(h, 'eu-west', 'maint-agent');
  const { client, sessionId } = await agent;
  const now = BigInt(h.clock.now().getTime());
  const reply = await client.reportResults({
    instanceId: 'maint-agent',
    sessionId,
    results: [
      {
        resultId: '',
        monitorId,
        monitorVersion: 1n,
        scheduledAtMs: now,
        startedAtMs: now,
        ok,
        errorKind: ok ? '' : 'connect',
        errorMessage: ok ? '' : 'connection refused',
        responseTimeMs,
      },
    ],
  });
  expect(reply.accepted).toBe(1);
};

const monitor = async (w: Ws, name: string, extra: Record<string, unknown> = {}) => {
  const r = await w.api('POST', '/monitors/create', {
    json: {
      display_name: name,
      monitor_type: 'tcp',
      url: `${name}.example.test`,
      port: 443,
      check_interval_seconds: 60,
      check_locations: ['eu-west'],
      ...extra,
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
};

const window = async (w: Ws, scope_type: string, scope_id: string, from: number, to: number) => {
  const r = await w.api('POST', '/maintenance-windows', {
    json: { name: `${scope_type} work`, scope_type, scope_id, starts_at: iso(from), ends_at: iso(to) },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
};

/** The monitor's results through the API, oldest first: whether each was in maintenance. */
const marks = async (w: Ws, id: string) =>
  ((await w.api('GET', `/monitors/${id}/results`)).body.data as { in_maintenance: boolean }[])
    .map((r) => r.in_maintenance)
    .reverse();

describe('results in maintenance', () => {
  it('are marked at ingestion by windows over the monitor, its group or its tag, and counted in the rollups', async () => {
    const t0 = Date.parse('2026-06-03T09:00:00Z');
    h.clock.set(iso(t0));
    const w = await h.workspace('maint-results');
    const group = (await w.api('POST', '/groups', { json: { name: 'Databases' } })).body.id as string;
    const own = await monitor(w, 'own');
    const grouped = await monitor(w, 'grouped', { group_id: group });
    const tagged = await monitor(w, 'tagged', { tags: ['db'] });
    const other = await monitor(w, 'other', { tags: ['web'] });
    await window(w, 'monitor', own, t0, t0 + 30 * MIN);
    await window(w, 'group', group, t0, t0 + 30 * MIN);
    await window(w, 'tag', 'db', t0, t0 + 30 * MIN);

    // Inside the windows: every one but `other` is in maintenance.
    h.clock.set(iso(t0 + 10 * MIN));
    await report(own, false, 900);
    await report(grouped, true, 40);
    await report(tagged, true, 50);
    await report(other, false, 60);
    // After them: none is.
    h.clock.set(iso(t0 + 40 * MIN));
    await report(own, true, 30);
    await report(grouped, true, 30);

    expect(await marks(w, own)).toEqual([true, false]);
    expect(await marks(w, grouped)).toEqual([true, false]);
    expect(await marks(w, tagged)).toEqual([true]);
    expect(await marks(w, other)).toEqual([false]);

    // A window made afterwards over the past rewrites nothing (the cache is read again after 5 s).
    h.clock.set(iso(t0 + 50 * MIN));
    await window(w, 'monitor', other, t0, t0 + 60 * MIN);
    h.clock.set(iso(t0 + 51 * MIN));
    expect(await marks(w, other)).toEqual([false]);
    // ...but covers the results that come in under it.
    await report(other, true, 70);
    expect(await marks(w, other)).toEqual([false, true]);

    const day = dayOf(t0);
    const rollups = await h.store.dailyRollups(
      w.workspace.id,
      [own, grouped, tagged, other],
      day,
      day + 86_400_000,
    );
    const byId = new Map(rollups.map((r) => [r.monitor_id, r]));
    expect(byId.get(own)).toMatchObject({ total: 2, ok: 1, maint_total: 1, maint_ok: 0 });
    expect(byId.get(grouped)).toMatchObject({ total: 2, ok: 2, maint_total: 1, maint_ok: 1 });
    expect(byId.get(tagged)).toMatchObject({ total: 1, ok: 1, maint_total: 1, maint_ok: 1 });
    expect(byId.get(other)).toMatchObject({ total: 2, ok: 1, maint_total: 1, maint_ok: 1 });
    expect([...byId.get(own)!.latency.values()].reduce((a, b) => a + b)).toBe(2);
  });
});
