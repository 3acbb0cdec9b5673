import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../control-plane/src/store/port.js';
import { grpcAgent } from '../support/agent-client.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * A status-page component that stands for a group (`group_id`): the worst status of the group's
 * monitors and heartbeats, in the API and on the public page, read in a bounded number of store calls
 * whatever the group holds.
 */

const reads = new Map<string, number>();
const counting = (s: Store): Store =>
  new Proxy(s, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        reads.set(String(prop), (reads.get(String(prop)) ?? 0) + 1);
        return v.apply(target, args);
      };
    },
  });

let h: Harness;
beforeAll(async () => {
  h = await startHarness({}, { wrapStore: counting });
});
afterAll(() => h.close());

type Ws = Awaited<ReturnType<Harness['workspace']>>;
const get = (w: Ws, path: string) => h.request('GET', path, { host: w.host });
const summaryOf = async (w: Ws, slug: string) =>
  JSON.parse((await get(w, `/status/${slug}/api/v2/summary.json`)).text);

const MEMBERS = 12;

describe('status-page components by group', () => {
  it('take the worst status of their members, in the API and the public page, with a bounded number of reads', async () => {
    const w = await h.workspace('spg-live', 'business');
    const other = await h.workspace('spg-other', 'business');
    const group = (await w.api('POST', '/groups', { json: { name: 'Edge' } })).body.id as string;
    const made = await w.api('POST', '/monitors/batch', {
      json: {
        monitors: Array.from({ length: MEMBERS }, (_, i) => ({
          display_name: `edge-${i}`,
          monitor_type: 'http',
          http_method: 'GET',
          expected_status_code: 200,
          url: `https://edge-${i}.example.test/`,
          failure_threshold: 1,
          check_locations: ['eu-west'],
          group_id: group,
        })),
      },
    });
    expect(made.status, made.text).toBe(201);
    const ids = made.body.data.map((m: { id: string }) => m.id) as string[];
    const hb = await w.api('POST', '/heartbeats', { json: { display_name: 'edge backup', group_id: group } });
    expect(hb.status).toBe(201);

    // Bad links: another workspace's group, and a group with a monitor.
    const theirs = (await other.api('POST', '/groups', { json: { name: 'Theirs' } })).body.id as string;
    const bad = await w.api('POST', '/status-pages', {
      json: {
        name: 'Bad',
        slug: 'bad',
        components: [
          { name: 'X', group_id: theirs },
          { name: 'Y', group_id: group, monitor_id: ids[0] },
          { name: 'Z', group_id: group, status: 'major_outage' },
        ],
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'components[0].group_id',
      'components[1].group_id',
      'components[2].status',
    ]);

    const page = await w.api('POST', '/status-pages', {
      json: { name: 'Edge status', slug: 'edge', components: [{ name: 'Edge network', group_id: group }] },
    });
    expect(page.status, page.text).toBe(201);
    // Nothing checked yet: no data.
    expect(page.body.components[0]).toMatchObject({ group_id: group, status: 'unknown' });

    const agent = await grpcAgent({
      store: h.store,
      config: h.config,
      rpcUrl: h.cp.rpcUrl,
      region: 'eu-west',
      instance: 'spg-live',
    });
    for (const id of ids) await agent.report(id, h.clock.now(), true);
    // Every monitor up, the heartbeat never pinged: operational (no data does not hide the verdicts).
    const up = await w.api('GET', `/status-pages/${page.body.id}`);
    expect(up.body.components[0].status).toBe('operational');
    expect((await summaryOf(w, 'edge')).status.description).toBe('All Systems Operational');

    // One member fails: the whole component is a major outage, on the API and (after the cache) the page.
    h.clock.advance(60_000);
    await agent.report(ids[7]!, h.clock.now(), false);
    expect((await w.api('GET', `/status-pages/${page.body.id}`)).body.components[0].status).toBe(
      'major_outage',
    );
    h.clock.advance(6_000);
    reads.clear();
    const summary = await summaryOf(w, 'edge');
    expect(summary.components[0]).toMatchObject({ name: 'Edge network', status: 'major_outage' });
    expect(summary.status.indicator).toBe('critical');
    // One read of the members and one of their statuses, not one per member.
    expect(reads.get('listGroupMembers')).toBe(1);
    expect(reads.get('getMonitorStatuses')).toBe(1);
    expect(reads.get('getMonitor') ?? 0).toBe(0);
    expect(reads.get('getHeartbeat') ?? 0).toBe(0);
    const html = (await get(w, '/status/edge')).text;
    expect(html).toMatch(
      /<span class="name">Edge network<\/span><span class="st s-major_outage">Major outage/,
    );
    expect(html).not.toContain('edge-7');

    // Deleting the group leaves the component with no members: no data.
    expect((await w.api('DELETE', `/groups/${group}`)).status).toBe(204);
    expect((await w.api('GET', `/status-pages/${page.body.id}`)).body.components[0].status).toBe('unknown');
  });
});
