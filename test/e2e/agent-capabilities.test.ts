import type { WatchAssignmentsResponse } from '@lookout/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { type HarnessAgent, registerAgent } from '../support/harness-agent.js';
import { waitFor } from '../support/wait.js';

/**
 * Agents declare the check types they can run at Register: a monitor is placed only on an agent of
 * its region that runs its type, and a region where none can run a type its monitors have says so
 * once (its health in the API, one alert per workspace and type) until one that can registers.
 */
let h: Harness;
const streams: AbortController[] = [];

beforeAll(async () => {
  h = await startHarness({ assignment_poll_ms: 50, region_check_ms: 50 });
});
afterAll(async () => {
  for (const s of streams) s.abort();
  await h.close();
});

/**
 * What the agent holds, kept up to date from its assignment stream in the background (syncs, upserts
 * and removes) until the end of the file: a monitor created a moment ago reaches the stream when the
 * replica's catalog reads the feed, so tests wait for the set they expect.
 */
const watch = (agent: HarnessAgent, instanceId: string) => {
  const abort = new AbortController();
  streams.push(abort);
  const held = new Set<string>();
  void (async () => {
    const stream = agent.client.watchAssignments(
      { instanceId, sessionId: agent.sessionId, running: [] },
      { signal: abort.signal },
    );
    for await (const msg of stream as AsyncIterable<WatchAssignmentsResponse>) {
      const ev = msg.event;
      if (ev.case === 'sync') {
        for (const id of ev.value.removes) held.delete(id);
        for (const u of ev.value.upserts) held.add(u.monitorId);
      } else if (ev.case === 'upsert') held.add(ev.value.monitorId);
      else if (ev.case === 'remove') held.delete(ev.value.monitorId);
    }
  })().catch(() => {});
  return () => [...held].sort();
};

type Workspace = Awaited<ReturnType<Harness['workspace']>>;
const create = async (w: Workspace, monitor_type: 'http' | 'tcp' | 'ping', region: string, n: number) => {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await w.api('POST', '/monitors/create', {
      json:
        monitor_type === 'http'
          ? {
              display_name: `web ${region} ${i}`,
              monitor_type,
              url: `https://web-${i}.example.com/`,
              http_method: 'GET',
              expected_status_code: 200,
              check_locations: [region],
            }
          : monitor_type === 'tcp'
            ? {
                display_name: `db ${region} ${i}`,
                monitor_type,
                url: `db-${i}.example.com`,
                port: 5432,
                check_locations: [region],
              }
            : {
                display_name: `router ${region} ${i}`,
                monitor_type,
                url: `10.0.0.${i + 1}`,
                check_locations: [region],
              },
    });
    expect(r.status, r.text).toBe(201);
    ids.push(r.body.id);
  }
  return ids.sort();
};

describe('placement by the check types agents declare', () => {
  it('each monitor goes only to an agent of its region that can run its type', async () => {
    const w = await h.workspace('caps-place');
    const web = await create(w, 'http', 'eu-west', 4);
    const db = await create(w, 'tcp', 'eu-west', 4);
    const httpOnly = await registerAgent(h, 'eu-west', 'caps-http', ['http', 'api']);
    const tcpOnly = await registerAgent(h, 'eu-west', 'caps-tcp', ['tcp']);
    const a = watch(httpOnly, 'caps-http');
    const b = watch(tcpOnly, 'caps-tcp');
    await waitFor(
      async () => [a(), b()],
      ([x, y]) => x!.length + y!.length >= 8,
      { what: 'all 8 placed' },
    );
    expect(a()).toEqual(web);
    expect(b()).toEqual(db);

    // The operator sees what each runs.
    const listed = (await h.store.listAgentSessions('eu-west')).map((s) => [s.instance_id, s.check_types]);
    expect(listed).toEqual([
      ['caps-http', ['http', 'api']],
      ['caps-tcp', ['tcp']],
    ]);
  });

  it('an agent that declares nothing (older than the field) runs the first protocol’s types', async () => {
    const old = await registerAgent(h, 'eu-west', 'caps-old');
    expect((await h.store.getAgentSession('caps-old'))?.check_types).toEqual([
      'http',
      'api',
      'dns',
      'tcp',
      'domain',
    ]);
    // It shares both types with the two above (rendezvous among the capable ones): some of each
    // (every one of 16 monitors going to the others has odds of 1 in 65,536).
    const w = await h.workspace('caps-old');
    const web = await create(w, 'http', 'eu-west', 8);
    const db = await create(w, 'tcp', 'eu-west', 8);
    const mine = watch(old, 'caps-old');
    await waitFor(
      async () => mine(),
      (ids) => ids.some((id) => web.includes(id)) && ids.some((id) => db.includes(id)),
      { what: 'monitors of both types' },
    );
  });
});

describe('a region where no agent can run a type', () => {
  it('one state in the region view and one alert per type (not per monitor), resolved when a capable agent registers', async () => {
    // The agent first: a region with monitors and no agent at all has its own alert (no healthy agent).
    await registerAgent(h, 'us-east', 'caps-us-http', ['http', 'api', 'dns', 'tcp', 'domain']);
    const w = await h.workspace('caps-none');
    await create(w, 'http', 'us-east', 1);
    await create(w, 'ping', 'us-east', 3);
    const viewer = await w.userWithKey('viewer');

    type AlertJson = { title: string; status: string; source_type: string; source_id: string; cause: string };
    const alerts = () => w.api('GET', '/alerts?limit=50').then((r) => r.body.data as AlertJson[]);
    const open = await waitFor(alerts, (as) => as.some((a) => a.status === 'open'), {
      what: 'the no-capable-agent alert',
    });
    // Several passes of the job later, still the one alert.
    await new Promise((r) => setTimeout(r, 300));
    expect(await alerts()).toEqual([open[0]]);
    expect(open[0]).toMatchObject({
      title: 'No agent in us-east can run ping checks',
      source_type: 'region',
      source_id: 'us-east',
      cause: 'no_capable_agent',
    });

    const region = async () =>
      ((await w.as(viewer.key)('GET', '/regions')).body.data as { region: string }[]).find(
        (r) => r.region === 'us-east',
      );
    expect(await region()).toEqual({
      region: 'us-east',
      healthy: true,
      status: 'healthy',
      monitors: 4,
      agents: [{ healthy: true, check_types: ['http', 'api', 'dns', 'tcp', 'domain'] }],
      no_capable_agent: [{ monitor_type: 'ping', monitors: 3 }],
    });

    await registerAgent(h, 'us-east', 'caps-us-ping', ['http', 'ping']);
    await waitFor(alerts, (as) => as.every((a) => a.status === 'resolved'), {
      what: 'the alert resolved',
    });
    expect(await region()).toMatchObject({
      agents: [
        { healthy: true, check_types: ['http', 'api', 'dns', 'tcp', 'domain'] },
        { healthy: true, check_types: ['http', 'ping'] },
      ],
      no_capable_agent: [],
    });
  });
});
