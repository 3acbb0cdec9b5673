import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Client, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { AgentService, type WatchAssignmentsResponse } from '@lookout/proto';
import { createSecretBox, ManualClock, silentLogger } from '@lookout/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createAgentToken } from '../domain/agents/agent-tokens.js';
import { sha256Weight } from '../domain/agents/rendezvous.js';
import { createMonitor } from '../domain/monitors/monitors.js';
import { createWorkspace } from '../domain/tenancy/workspaces.js';
import type { Monitor, Workspace } from '../domain/types.js';
import type { Store } from '../store/port.js';
import { createSqliteStore } from '../store/sqlite/sqlite-store.js';
import { type RpcServer, startRpcServer } from './rpc-server.js';

const box = createSecretBox(undefined);

// Regions of their own, so that the live agents of one test never take a share of another's.
const dir = mkdtempSync(join(tmpdir(), 'lookout-streams-'));
const clock = new ManualClock('2026-06-01T00:00:00Z');
const config = loadConfig({}, { assignment_poll_ms: 50, data_dir: dir, regions: ['one', 'two'] });
/** Every monitor id the assignment streams hashed (rendezvous weight asked). */
const hashed = new Set<string>();
let store: Store;
let rpc: RpcServer;
let workspace: Workspace;
const tokens = new Map<string, string>();
const aborts: AbortController[] = [];

beforeAll(async () => {
  store = createSqliteStore({ path: join(dir, 'lookout.db') });
  await store.init();
  rpc = await startRpcServer({
    store,
    box,
    clock,
    config,
    logger: silentLogger(),
    host: '127.0.0.1',
    port: 0,
    weight: (key, node) => {
      hashed.add(key);
      return sha256Weight(key, node);
    },
  });
  for (const region of config.regions)
    tokens.set(region, (await createAgentToken(store, config.regions, { region }, clock.now())).value);
  workspace = (
    await createWorkspace(
      store,
      config.plans,
      { subdomain: 'streams', admin_email: 'a@streams.test', plan: 'business' },
      clock.now(),
    )
  ).workspace;
});
beforeEach(() => hashed.clear());
afterAll(async () => {
  for (const ac of aborts) ac.abort();
  await rpc.stop(100);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const addMonitor = async (region: string): Promise<Monitor> =>
  (
    await createMonitor(
      {
        workspace,
        plan: config.plans.business!,
        planName: 'business',
        regions: config.regions,
        store,
        box,
        now: clock.now(),
      },
      {
        display_name: 'm',
        monitor_type: 'tcp',
        url: 'db.example.com',
        port: 5432,
        check_locations: [region],
      },
    )
  ).monitor;

const client = (region: string): Client<typeof AgentService> =>
  createClient(
    AgentService,
    createGrpcTransport({
      baseUrl: rpc.url,
      interceptors: [
        (next) => (req) => {
          req.header.set('authorization', `Bearer ${tokens.get(region)}`);
          return next(req);
        },
      ],
    }),
  );

/** An agent's assignment stream, read in the background: what it runs now, by monitor id. */
const watch = async (region: string, instanceId: string) => {
  const c = client(region);
  const reg = await c.register({ instanceId });
  const ac = new AbortController();
  aborts.push(ac);
  const runs = new Set<string>();
  let synced = false;
  const stream = c.watchAssignments({ instanceId, sessionId: reg.sessionId }, { signal: ac.signal });
  void (async () => {
    for await (const m of stream as AsyncIterable<WatchAssignmentsResponse>) {
      const e = m.event;
      if (e.case === 'sync') {
        for (const u of e.value.upserts) runs.add(u.monitorId);
        for (const id of e.value.removes) runs.delete(id);
        if (!e.value.more) synced = true;
      } else if (e.case === 'upsert') runs.add(e.value.monitorId);
      else if (e.case === 'remove') runs.delete(e.value.monitorId);
    }
  })().catch(() => {});
  return { runs, synced: () => synced };
};

const until = async (what: string, pred: () => boolean) => {
  for (let i = 0; i < 200; i++) {
    if (pred()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe('assignment streams at scale', () => {
  it('a catalog change recomputes the owner of the changed monitor only, not the region’s share', async () => {
    const existing = await Promise.all(Array.from({ length: 30 }, () => addMonitor('two')));
    const a = await watch('two', 'two-a');
    const b = await watch('two', 'two-b');
    await until('both first syncs', () => a.synced() && b.synced());
    // Each agent starts alone (its first sync has nothing to share), so wait for the split.
    await until(
      'the share split over both agents',
      () => a.runs.size + b.runs.size === 30 && a.runs.size < 30,
    );
    hashed.clear();

    const added = await addMonitor('two');
    await until('the new monitor assigned', () => a.runs.has(added.id) || b.runs.has(added.id));
    const [paused] = existing;
    await store.updateMonitor({ ...paused!, paused: true, version: paused!.version + 1 }, paused!.version);
    await until('the paused monitor removed', () => !a.runs.has(paused!.id) && !b.runs.has(paused!.id));
    expect(a.runs.size + b.runs.size).toBe(30);
    // Today's shape would hash all 31 monitors of the region on each change, in each stream.
    expect([...hashed].every((id) => id === added.id || id === paused!.id)).toBe(true);
    expect(hashed.has(added.id)).toBe(true);
  });

  it('with one agent in a region, the owner is known without hashing', async () => {
    await Promise.all(Array.from({ length: 10 }, () => addMonitor('one')));
    const a = await watch('one', 'one-a');
    await until('the first sync', () => a.synced() && a.runs.size === 10);
    const added = await addMonitor('one');
    await until('the new monitor assigned', () => a.runs.has(added.id));
    expect(hashed.size).toBe(0);
  });
});
