import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../control-plane/src/domain/audit/audit-store.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * The audit log's read API (`GET /audit-log`, `GET /audit-log/export`): admins only, filters, bounded
 * windows, cursor paging, NDJSON export, and no route that edits or deletes an entry.
 */

let h: Harness;
let w: Awaited<ReturnType<Harness['workspace']>>;
let other: Awaited<ReturnType<Harness['workspace']>>;

const entry = (workspaceId: string, iso: string, over: Partial<AuditEntry> = {}): AuditEntry => ({
  id: randomUUID(),
  workspace_id: workspaceId,
  at: new Date(iso),
  actor: { type: 'user', id: 'u-1', name: 'ada@example.test' },
  ip: '203.0.113.7',
  user_agent: 'test',
  action: 'monitor.update',
  resource_type: 'monitor',
  resource_id: randomUUID(),
  changes: { display_name: ['a', 'b'] },
  ...over,
});
const fields = (r: { body: { error?: { details?: { field: string }[] } } }) =>
  (r.body.error?.details ?? []).map((d) => d.field).sort();

beforeAll(async () => {
  h = await startHarness();
  w = await h.workspace('audit-read', 'business');
  other = await h.workspace('audit-other', 'business');
  for (let i = 0; i < 5; i++)
    await h.store.appendAuditEntry(entry(w.workspace.id, `2026-05-0${i + 1}T10:00:00Z`));
  await h.store.appendAuditEntry(
    entry(w.workspace.id, '2026-05-06T10:00:00Z', {
      actor: { type: 'api_key', id: 'key-9', name: 'deploy', user_id: 'u-2' },
      action: 'channel.delete',
      resource_type: 'channel',
    }),
  );
  await h.store.appendAuditEntry(entry(other.workspace.id, '2026-05-06T10:00:00Z'));
}, 60_000);
afterAll(() => h.close());

describe('audit log', () => {
  it('lists newest first in cursor pages, in the pinned shape, with filters', async () => {
    const first = await w.api('GET', '/audit-log?limit=4');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(4);
    expect(first.body.data[0]).toEqual({
      id: expect.any(String),
      at: '2026-05-06T10:00:00.000Z',
      actor: { type: 'api_key', id: 'key-9', name: 'deploy' },
      ip: '203.0.113.7',
      user_agent: 'test',
      action: 'channel.delete',
      resource_type: 'channel',
      resource_id: expect.any(String),
      changes: { display_name: ['a', 'b'] },
    });
    const next = await w.api(
      'GET',
      `/audit-log?limit=4&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    );
    // Entries the harness's own setup made (none here) would follow; the six appended are all there.
    expect(next.body.data.filter((e: { at: string }) => e.at.startsWith('2026-05')).length).toBe(2);
    const ids = (r: { body: { data: { id: string }[] } }) => r.body.data.map((e) => e.id);
    expect(ids(await w.api('GET', '/audit-log?actor=deploy'))).toHaveLength(1);
    expect(ids(await w.api('GET', '/audit-log?actor=u-2'))).toHaveLength(1);
    expect(ids(await w.api('GET', '/audit-log?resource_type=channel'))).toHaveLength(1);
    expect(ids(await w.api('GET', '/audit-log?action=monitor.update'))).toHaveLength(5);
    expect(
      ids(await w.api('GET', '/audit-log?from=2026-05-02T00:00:00Z&to=2026-05-04T00:00:00%2B00:00')),
    ).toHaveLength(2);
    expect(ids(await other.api('GET', '/audit-log?action=channel.delete'))).toHaveLength(0);
  });

  it('answers one 422 naming every bad filter, and bounds the window', async () => {
    const bad = await w.api('GET', '/audit-log?from=yesterday&resource_type=Mon%20itor&action=x&limit=0');
    expect(bad.status).toBe(422);
    expect(fields(bad)).toEqual(['action', 'from', 'limit', 'resource_type']);
    const wide = await w.api('GET', '/audit-log?from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z');
    expect(wide.status).toBe(422);
    expect(fields(wide)).toEqual(['to']);
    const backwards = await w.api('GET', '/audit-log?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z');
    expect(fields(backwards)).toEqual(['to']);
    expect(fields(await w.api('GET', '/audit-log?cursor=nope'))).toEqual(['cursor']);
    expect(fields(await w.api('GET', '/audit-log/export?limit=5'))).toEqual(['limit']);
    // A bad time beside a good one is a 422 on that field, never a crash of the window's rule.
    for (const path of ['/audit-log', '/audit-log/export']) {
      const half = await w.api('GET', `${path}?from=yesterday&to=2026-01-01T00:00:00Z`);
      expect(half.status, path).toBe(422);
      expect(fields(half), path).toEqual(['from']);
    }
  });

  it('is for admins only, and append-only: no route edits or deletes an entry', async () => {
    for (const role of ['viewer', 'member'] as const) {
      const u = await w.userWithKey(role);
      expect((await w.as(u.key)('GET', '/audit-log')).status).toBe(403);
      expect((await w.as(u.key)('GET', '/audit-log/export')).status).toBe(403);
    }
    const [first] = (await w.api('GET', '/audit-log?limit=1')).body.data;
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
      expect((await w.api(method, '/audit-log', { json: {} })).status).toBe(405);
      expect((await w.api(method, `/audit-log/${first.id}`, { json: {} })).status).toBe(404);
    }
    expect((await w.api('GET', '/audit-log?limit=1')).body.data[0]).toEqual(first);
  });

  it('exports every matching entry as NDJSON, newest first', async () => {
    const r = await w.api('GET', '/audit-log/export?action=monitor.update');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const lines = r.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(5);
    expect(lines[0].at).toBe('2026-05-05T10:00:00.000Z');
    expect(lines[4].at).toBe('2026-05-01T10:00:00.000Z');
    expect(lines[0]).toEqual((await w.api('GET', '/audit-log?action=monitor.update&limit=1')).body.data[0]);
  });
});
