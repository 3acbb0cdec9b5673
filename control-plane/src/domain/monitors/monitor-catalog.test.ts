import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecretBox } from '@lookout/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import type { Store } from '../../store/port.js';
import { createSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { createWorkspace } from '../tenancy/workspaces.js';
import type { MonitorChange, Workspace } from '../types.js';
import { createMonitorCatalog } from './monitor-catalog.js';
import { createMonitorSlots } from './monitor-slots.js';
import { createMonitor } from './monitors.js';

const box = createSecretBox(undefined);

const T = new Date('2026-06-01T00:00:00Z');
let dir: string;
let store: Store;
let workspace: Workspace;
const config = loadConfig({}, { data_dir: tmpdir() });

const add = (locations: string[], type: 'tcp' | 'domain' = 'tcp') =>
  createMonitor(
    {
      workspace,
      plan: config.plans.business!,
      planName: 'business',
      regions: config.regions,
      store,
      box,
      now: T,
    },
    {
      display_name: 'm',
      monitor_type: type,
      url: 'db.example.com',
      ...(type === 'tcp' ? { port: 5432 } : {}),
      check_locations: locations,
    },
  ).then((r) => r.monitor);

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lookout-catalog-'));
  store = createSqliteStore({ path: join(dir, 'lookout.db') });
  await store.init();
  workspace = (
    await createWorkspace(
      store,
      config.plans,
      { subdomain: 'cat', admin_email: 'a@cat.test', plan: 'business' },
      T,
    )
  ).workspace;
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('monitor catalog', () => {
  it('loads every monitor, then follows the feed: changes, pauses, deletes, run requests', async () => {
    const eu = await add(['eu-west']);
    const both = await add(['eu-west', 'us-east']);
    const domain = await add(['us-east', 'eu-west'], 'domain');
    const catalog = createMonitorCatalog(store);
    await catalog.ready();
    expect([...catalog.region('eu-west').keys()].sort()).toEqual([eu.id, both.id, domain.id].sort());
    // Domain checks run from one location only (the first alphabetically).
    expect([...catalog.region('us-east').keys()]).toEqual([both.id]);

    const runs: MonitorChange[] = [];
    const changes: (ReadonlySet<string> | null)[] = [];
    catalog.onRun((r) => runs.push(r));
    catalog.onChange((ids) => changes.push(ids));
    await store.updateMonitor({ ...eu, paused: true, version: eu.version + 1 }, eu.version);
    await store.deleteMonitor(workspace.id, both.id);
    const added = await add(['us-east']);
    await store.requestRuns([
      { monitor_id: domain.id, location: 'eu-west', reason: 'confirm', request_id: 'r1', at: T },
    ]);
    const before = catalog.revision;
    await catalog.refresh();
    // The new monitor's insert comes with its first check's run request (domain/monitors/monitors.ts).
    expect(catalog.revision).toBe(before + 5);
    // Listeners learn which monitors changed (assignment streams recompute those only).
    expect(changes.map((ids) => (ids ? [...ids].sort() : ids))).toEqual([[eu.id, both.id, added.id].sort()]);
    expect([...catalog.region('eu-west').keys()]).toEqual([domain.id]);
    expect([...catalog.region('us-east').keys()]).toEqual([added.id]);
    expect(catalog.get(eu.id)?.paused).toBe(true);
    // A paused monitor runs nowhere: a stream's lookup of a changed id finds it in no region.
    expect(catalog.region('eu-west').get(eu.id)).toBeUndefined();
    expect(catalog.region('eu-west').get(domain.id)).toBe(catalog.get(domain.id));
    expect(catalog.region('us-east').get(domain.id)).toBeUndefined();
    expect(catalog.get(both.id)).toBeUndefined();
    expect(runs.map((r) => [r.monitor_id, r.location, r.reason, r.request_id])).toEqual([
      [added.id, 'us-east', 'first', expect.any(String)],
      [domain.id, 'eu-west', 'confirm', 'r1'],
    ]);
    await catalog.refresh();
    expect(changes).toHaveLength(1);
    expect(runs).toHaveLength(2);
  });

  it('moves a changed monitor between regions, its new version in the regions it stays in', async () => {
    const both = await add(['eu-west', 'us-east']);
    const other = await add(['eu-west']);
    const catalog = createMonitorCatalog(store);
    await catalog.ready();
    const changed = {
      ...both,
      check_locations: ['us-east'],
      check_interval_seconds: 120,
      version: both.version + 1,
    };
    await store.updateMonitor(changed, both.version);
    await catalog.refresh();
    expect([...catalog.region('eu-west').keys()]).toEqual([other.id]);
    expect(catalog.region('us-east').get(both.id)).toMatchObject({
      version: both.version + 1,
      check_interval_seconds: 120,
    });
    // Back in both regions, and changed again in place.
    await store.updateMonitor(
      { ...changed, check_locations: ['eu-west', 'us-east'], version: both.version + 2 },
      both.version + 1,
    );
    await catalog.refresh();
    expect(catalog.region('eu-west').get(both.id)?.version).toBe(both.version + 2);
    expect(catalog.region('us-east').get(both.id)?.version).toBe(both.version + 2);
    expect(catalog.region('us-east').get(both.id)).toBe(catalog.get(both.id));
  });

  it('reads monitors it has not seen yet from the store, and reloads when the feed was pruned past it', async () => {
    const catalog = createMonitorCatalog(store);
    await catalog.ready();
    const m = await add(['eu-west']);
    expect(catalog.get(m.id)).toBeUndefined();
    expect([...(await catalog.resolve([m.id, 'gone'])).keys()]).toEqual([m.id]);
    // Entries this catalog never read are pruned: the gap in sequence numbers makes it load everything.
    await add(['eu-west']);
    expect(await store.pruneMonitorChanges(new Date(Date.now() + 60_000), 100)).toBeGreaterThan(0);
    const changes: (ReadonlySet<string> | null)[] = [];
    catalog.onChange((ids) => changes.push(ids));
    await catalog.refresh();
    // A reload changed everything: listeners are told so (null), not given a list.
    expect(changes).toEqual([null]);
    expect([...catalog.region('eu-west').values()]).toHaveLength(2);
    expect(catalog.revision).toBe(await store.latestMonitorChange());
  });

  it('holds one copy of what many monitors share (locations, empty lists and headers), loaded or changed', async () => {
    const a = await add(['eu-west', 'us-east']);
    const catalog = createMonitorCatalog(store);
    await catalog.ready();
    const b = await add(['eu-west', 'us-east']);
    await catalog.refresh();
    const [ca, cb] = [catalog.get(a.id)!, catalog.get(b.id)!];
    expect(ca.check_locations).toEqual(['eu-west', 'us-east']);
    expect(ca.check_locations).toBe(cb.check_locations);
    expect(ca.dns_expected_values).toBe(cb.dns_expected_values);
    expect(ca.request_headers).toBe(cb.request_headers);
    // Shared, so frozen: a caller cannot change another monitor's value through its own.
    expect(Object.isFrozen(ca.check_locations)).toBe(true);
    // Everything but the creation and update times (CatalogMonitor).
    const { created_at: _c, updated_at: _u, ...held } = a;
    expect(catalog.get(a.id)).toStrictEqual(held);
  });

  it('keeps its records by the numbers the process gives monitor ids, shared with other tables', async () => {
    const slots = createMonitorSlots();
    const a = await add(['eu-west']);
    const b = await add(['eu-west']);
    // Another table (the store's state book, say) met b first and far ahead of a.
    for (let i = 0; i < 2000; i++) slots.slot(`other-${i}`);
    slots.slot(b.id);
    const catalog = createMonitorCatalog(store, slots);
    await catalog.ready();
    expect(catalog.slots).toBe(slots);
    expect(slots.find(b.id)).toBe(2000);
    expect(slots.find(a.id)).toBe(2001);
    expect(catalog.get(a.id)?.id).toBe(a.id);
    expect(catalog.get('other-5')).toBeUndefined();
    expect([...catalog.region('eu-west').keys()]).toEqual([b.id, a.id]);

    await store.deleteMonitor(workspace.id, b.id);
    const c = await add(['eu-west']);
    await catalog.refresh();
    // A deleted monitor's number is not given to another.
    expect(catalog.get(b.id)).toBeUndefined();
    expect(slots.find(c.id)).toBe(2002);
    expect([...catalog.region('eu-west').keys()]).toEqual([a.id, c.id]);
  });
});
