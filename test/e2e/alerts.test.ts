import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlert } from '../../control-plane/src/domain/alerts/alerts.js';
import { type Harness, startHarness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const raise = (
  workspace_id: string,
  dedup_key: string,
  source_type: 'integration' | 'heartbeat' = 'integration',
) =>
  raiseAlert(
    h.store,
    {
      workspace_id,
      source_type,
      source_id: 'src-1',
      cause: 'webhook',
      dedup_key,
      title: `alert ${dedup_key}`,
    },
    h.clock.now(),
  );

describe('alerts (spec 3.2, 4.3, 4.4)', () => {
  it('at most one open alert per source, cause and key', async () => {
    const w = await h.workspace('al-dedup');
    const a = await raise(w.workspace.id, 'disk');
    const b = await raise(w.workspace.id, 'disk');
    expect(a.created).toBe(true);
    expect(b).toMatchObject({ created: false, alert: { id: a.alert.id } });
  });

  it('resolve: open alerts become resolved with the resolver; resolved stay; unknown and foreign are not found', async () => {
    const w = await h.workspace('al-resolve');
    const other = await h.workspace('al-resolve-other');
    const member = await w.userWithKey('member');
    const a1 = (await raise(w.workspace.id, 'a1')).alert;
    const a2 = (await raise(w.workspace.id, 'a2')).alert;
    const foreign = (await raise(other.workspace.id, 'x')).alert;
    const unknown = crypto.randomUUID();
    h.clock.advance(60_000);
    const r1 = await w.as(member.key)('POST', '/alerts/resolve', { json: { UUIDs: [a1.id] } });
    expect(r1.status).toBe(200);
    expect(r1.body.resolved).toHaveLength(1);
    expect(r1.body.resolved[0]).toMatchObject({
      id: a1.id,
      status: 'resolved',
      resolved_at: h.clock.now().toISOString(),
      resolved_by: { type: 'user', user_id: member.user.id, api_key_id: member.keyId },
    });
    h.clock.advance(60_000);
    const r2 = await w.api('POST', '/alerts/resolve', {
      json: { UUIDs: [a1.id, a2.id, foreign.id, unknown, a2.id.toUpperCase()] },
    });
    expect(r2.status).toBe(200);
    expect(r2.body.resolved.map((x: { id: string }) => x.id)).toEqual([a2.id]);
    expect(r2.body.already_resolved.map((x: { id: string }) => x.id)).toEqual([a1.id]);
    expect(r2.body.already_resolved[0].resolved_by.user_id).toBe(member.user.id);
    expect(r2.body.not_found.sort()).toEqual([foreign.id, unknown].sort());
    expect((await other.api('GET', `/alerts/${foreign.id}`)).body.status).toBe('open');
    expect((await w.api('GET', `/alerts/${foreign.id}`)).status).toBe(404);
  });

  it('a resolved alert is never reopened: the same failure raises a new alert', async () => {
    const w = await h.workspace('al-never');
    const first = (await raise(w.workspace.id, 'k')).alert;
    await w.api('POST', '/alerts/resolve', { json: { UUIDs: [first.id] } });
    const second = await raise(w.workspace.id, 'k');
    expect(second.created).toBe(true);
    expect(second.alert.id).not.toBe(first.id);
    expect((await w.api('GET', `/alerts/${first.id}`)).body.status).toBe('resolved');
  });

  it('GET /alerts filters by status, source and time, with cursor pagination', async () => {
    const w = await h.workspace('al-list');
    const made: string[] = [];
    const t0 = h.clock.now();
    for (let i = 0; i < 5; i++) {
      h.clock.advance(60_000);
      made.unshift((await raise(w.workspace.id, `k${i}`, i < 2 ? 'heartbeat' : 'integration')).alert.id);
    }
    await w.api('POST', '/alerts/resolve', { json: { UUIDs: [made[0]] } });
    const open = await w.api('GET', '/alerts?status=open');
    expect(open.body.data.map((a: { id: string }) => a.id)).toEqual(made.slice(1));
    expect((await w.api('GET', '/alerts?status=open,resolved')).body.data).toHaveLength(5);
    expect((await w.api('GET', '/alerts?source_type=heartbeat')).body.data).toHaveLength(2);
    const since = new Date(t0.getTime() + 2 * 60_000).toISOString();
    const until = new Date(t0.getTime() + 4 * 60_000).toISOString();
    expect(
      (await w.api('GET', `/alerts?since=${since}&until=${until}`)).body.data.map(
        (a: { id: string }) => a.id,
      ),
    ).toEqual(made.slice(2, 4));
    const p1 = await w.api('GET', '/alerts?limit=2');
    const p2 = await w.api('GET', `/alerts?limit=2&cursor=${p1.body.next_cursor}`);
    const p3 = await w.api('GET', `/alerts?limit=2&cursor=${p2.body.next_cursor}`);
    expect([...p1.body.data, ...p2.body.data, ...p3.body.data].map((a: { id: string }) => a.id)).toEqual(
      made,
    );
    expect(p3.body.next_cursor).toBeNull();
    const bad = await w.api('GET', '/alerts?status=closed&since=yesterday&limit=1000&sort=asc');
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'limit',
      'since',
      'sort',
      'status[0]',
    ]);
  });

  it('resolve validates its body: UUIDs required, a non-empty array of UUIDs', async () => {
    const w = await h.workspace('al-bad');
    for (const [json, field] of [
      [{}, 'UUIDs'],
      [{ UUIDs: [] }, 'UUIDs'],
      [{ UUIDs: 'abc' }, 'UUIDs'],
      [{ UUIDs: ['abc'] }, 'UUIDs[0]'],
      [{ uuids: [crypto.randomUUID()] }, 'uuids'],
    ] as const) {
      const r = await w.api('POST', '/alerts/resolve', { json });
      expect(r.status, JSON.stringify(json)).toBe(422);
      expect(r.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });
});
